import { DomainError } from '../../../domain/errors';
import type { BrowserAttributes } from '../../../domain/payment/events';
import type { ExistingPayment } from '../../../domain/payment/state';
import type { CheckoutDeps } from '../deps';
import { latestPayment } from '../latest-payment';
import { merchantOf } from '../merchant-of';
import { stepOf } from '../method-step';
import { pageMethods } from '../page-methods';
import { destination } from '../payer-destination';
import { findSession } from '../session-lookup';
import type { OtpOutcome } from './command';

/**
 * The payer typed the one-time code the method's provider sent: it goes to the payment's
 * connector as the payer's return from the provider's step, for the connector to verify. A code
 * that does not verify decides nothing: the page asks again.
 */
export async function submitOtp(deps: CheckoutDeps, sessionId: string, otp: string, correlationId: string, browser?: BrowserAttributes): Promise<OtpOutcome | null> {
  const session = await findSession(deps, sessionId);
  if (!session) return null;
  const merchant = await merchantOf(deps, session.merchantId);
  const latest = await latestPayment(deps, session);
  const step = latest ? stepOf(latest, pageMethods(deps, session, merchant)) : null;
  if (!latest || step?.kind !== 'otp') return { kind: 'done', next: destination(deps, session, latest, merchant) };
  let payment: ExistingPayment;
  try {
    payment = await deps.payments.completePayerAction(latest.paymentId, { query: {}, body: { otp } }, correlationId, browser);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'payer_return_invalid') return { kind: 'wrong_code', step };
    throw error;
  }
  return { kind: 'done', next: destination(deps, session, payment, merchant) };
}
