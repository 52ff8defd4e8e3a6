import { paymentRefusal } from '../../../domain/checkout/session-decide';
import type { ExistingSession } from '../../../domain/checkout/session-state';
import type { Wallet } from '../../../domain/wallets/token-shape';
import type { CheckoutDeps } from '../deps';
import { latestPayment } from '../latest-payment';
import { merchantOf } from '../merchant-of';
import { payableWallets } from '../page-methods';

/**
 * What the Checkout SDK's `getAvailableBrands()` starts from (docs/wallets.md#the-checkout-sdk): the wallets the
 * session's page offers now, none once the session can no longer be paid (paid, in progress,
 * cancelled, expired, out of attempts), as its page then shows no form.
 */
export async function walletBrands(deps: CheckoutDeps, session: ExistingSession): Promise<Wallet[]> {
  if (paymentRefusal(session, (await latestPayment(deps, session))?.phase ?? null, deps.clock.now().toISOString())) return [];
  return payableWallets(deps, session, await merchantOf(deps, session.merchantId));
}
