/**
 * `POST /api/v1/payment/retry`: the merchant asks for a declined Checkout payment to be tried again.
 * As the protocol family documents it (docs/api-notes.md), the retry charges the card again without
 * the payer (a merchant-initiated charge of the card the declined attempt stored), as the next
 * attempt of the payment's session; the session's own rules decide whether one may start: not
 * after it expired or was cancelled, not while an attempt is in flight, not once paid, not after
 * MAX_ATTEMPTS. Pure: the caller reads the payment, its session and the latest attempt's phase.
 */
import type { ExistingPayment, PaymentPhase } from '../payment/state';
import { MAX_ATTEMPTS, paymentRefusal } from './session-decide';
import type { ExistingSession } from './session-state';

export type RetryRefusalCode =
  | 'not_a_session_payment'
  | 'not_declined'
  | 'card_not_stored'
  | 'session_expired'
  | 'session_cancelled'
  | 'session_paid'
  | 'payment_in_progress'
  | 'attempts_exhausted';

const MESSAGES: Readonly<Record<RetryRefusalCode, string>> = {
  not_a_session_payment: 'Payment cannot be retried: it was not made in a Checkout session.',
  not_declined: 'Payment cannot be retried: it was not declined.',
  card_not_stored: 'Payment cannot be retried: its card was not stored (a debit, or a session with req_token or recurring_init, stores it).',
  session_expired: 'Payment cannot be retried: its session has expired.',
  session_cancelled: 'Payment cannot be retried: its session was cancelled.',
  session_paid: 'Payment cannot be retried: its order has already been paid.',
  payment_in_progress: 'Payment cannot be retried: another attempt of its session is in progress.',
  attempts_exhausted: `Payment cannot be retried: its session has no attempts left (at most ${MAX_ATTEMPTS}).`,
};

export interface RetryRefusal {
  code: RetryRefusalCode;
  message: string;
}

const refused = (code: RetryRefusalCode): RetryRefusal => ({ code, message: MESSAGES[code] });

/**
 * Why `payment` cannot be retried now, or null when its session takes the retry as its next
 * attempt. `latestPhase`: where the session's latest attempt stands (it may be a later one).
 */
export function retryRefusal(
  payment: Pick<ExistingPayment, 'phase' | 'checkout' | 'card'>,
  session: ExistingSession | null,
  latestPhase: PaymentPhase | null,
  now: string,
): RetryRefusal | null {
  if (!payment.checkout || !session) return refused('not_a_session_payment');
  if (payment.phase !== 'declined') return refused('not_declined');
  const sessionRefusal = paymentRefusal(session, latestPhase, now);
  if (sessionRefusal) return refused(sessionRefusal.code);
  if (!payment.card?.token) return refused('card_not_stored');
  return null;
}
