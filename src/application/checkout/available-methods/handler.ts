import { CARD_METHOD, type AvailableMethod } from '../../../domain/checkout/session-methods';
import { DomainError } from '../../../domain/errors';
import { merchantConnectors } from '../../../domain/merchant/connectors';
import { WALLET_METHODS, isWalletMethod, methodEnabled } from '../../../domain/merchant/methods';
import type { RouteRequirements } from '../../../domain/routing/route';
import type { MerchantAccount } from '../../merchant-service';
import type { CheckoutServiceDeps } from '../deps';
import { requirementsOf, type MethodRequirements } from '../method-requirements';

/**
 * What a session of this merchant could be paid with now: the card, then each alternative method
 * the merchant takes, each only where one of its connectors can take such a payment (currency,
 * kind, amount, chain), then the wallets it takes (offered only where the session names them:
 * session-methods.ts). Card first, then the connectors' order.
 */
export function availableMethods(deps: Pick<CheckoutServiceDeps, 'payments'>, merchant: MerchantAccount, session: MethodRequirements): AvailableMethod[] {
  const connectors = merchantConnectors(merchant);
  const payable = (requirements: RouteRequirements): boolean => {
    try {
      deps.payments.assertRoutable(connectors, requirements);
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'no_capable_connector') return false;
      throw error;
    }
  };
  const routable = (method: string): boolean => payable(requirementsOf(session, method));
  const methods = deps.payments.offeredMethods().filter((m) => !isWalletMethod(m) && methodEnabled(merchant, m) && routable(m));
  // A wallet: its virtual flow (a connector offering it) or its card flow (a connector taking
  // cards the gateway decrypted; the keys are looked at when the payer pays). The merchant sends
  // nothing for it: the token comes from the payer's wallet.
  const cardFlow = (): boolean => payable({ ...requirementsOf(session, CARD_METHOD), walletDecryption: true });
  const wallets = WALLET_METHODS.filter((w) => methodEnabled(merchant, w) && (routable(w) || cardFlow()));
  return [
    ...(routable(CARD_METHOD) ? [{ method: CARD_METHOD, description: null }] : []),
    ...methods.map((method) => ({ method, description: deps.payments.describeMethod(connectors, method)! })),
    ...wallets.map((method) => ({ method, description: null })),
  ];
}
