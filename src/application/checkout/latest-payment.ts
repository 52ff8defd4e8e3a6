/** The payment of a session's latest attempt, as its stream says now. */
import { latestAttempt, type ExistingSession } from '../../domain/checkout/session-state';
import { DomainError } from '../../domain/errors';
import { payerTimeoutReason } from '../../domain/payment/payer-timeout';
import type { ExistingPayment } from '../../domain/payment/state';
import type { CheckoutDeps } from './deps';

export async function latestPayment(deps: CheckoutDeps, session: ExistingSession): Promise<ExistingPayment | null> {
  const id = latestAttempt(session);
  if (!id) return null;
  try {
    return await deps.payments.current(id);
  } catch (error) {
    // Where the store cannot append the attempt and its payment in one transaction, a crash between
    // them leaves an attempt without a payment: it never reached the acquirer, so the payer may retry.
    if (error instanceof DomainError && error.code === 'payment_not_found') return null;
    throw error;
  }
}

/**
 * A payer's step whose provider deadline passed (a QR code's minute) is declined as the expiry
 * worker would decline it; the payment as it stands after that.
 */
export async function expireDueStep(deps: CheckoutDeps, latest: ExistingPayment | null): Promise<ExistingPayment | null> {
  if (!latest?.expiresAt || Date.parse(latest.expiresAt) > deps.clock.now().getTime()) return latest;
  if (latest.phase !== 'awaiting_3ds' && latest.phase !== 'awaiting_redirect' && latest.phase !== 'awaiting_provider') return latest;
  await deps.payments.expirePayerAction(latest.paymentId, payerTimeoutReason(latest.phase, latest.payerAction?.display === 'qr'));
  return deps.payments.current(latest.paymentId);
}
