import type { ExistingPayment } from '../../../domain/payment/state';
import type { CheckoutDeps } from '../deps';
import { merchantOf } from '../merchant-of';
import { destination, type PayerDestination } from '../payer-destination';
import { findSession } from '../session-lookup';

/** Where the payer goes once the ACS or redirect page decided a Checkout payment. */
export async function afterPayerAction(deps: CheckoutDeps, payment: ExistingPayment): Promise<PayerDestination> {
  const session = payment.checkout ? await findSession(deps, payment.checkout.sessionId) : null;
  if (!session) return { kind: 'closed', ending: 'finished' };
  return destination(deps, session, payment, await merchantOf(deps, session.merchantId));
}
