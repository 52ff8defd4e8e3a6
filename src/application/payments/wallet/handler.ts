/**
 * Wallet payments (docs/wallets.md#two-flows, spec States rule 5): which flow pays a wallet token, and the
 * S2S SALE that pays with one. Checkout (its wallet button and SDK) asks `walletInstrument` the
 * same question and starts its attempt with the answer, under its session's claim.
 *
 * - Card flow: the merchant has the wallet's keys and its route has a connector that takes cards
 *   the gateway decrypted (`walletDecryption`), able to take this payment. The token is verified
 *   and decrypted; the card is vaulted and paid like any card (DMS, recurring, smart routing and
 *   cascading); the token's one-time record is appended with the payment.
 * - Virtual flow: a connector of the route offers the wallet and decrypts tokens itself. The token
 *   goes to it as received, nothing of it is kept, and what needs a stored card (`auth=Y`,
 *   `recurring_init=Y`) is refused (204005).
 *
 * `flows: 'card'` (S2S CARD) takes the card flow or refuses (204018; 204005 when its connectors
 * cannot take this payment); `'card_or_virtual'` (S2S APM, Checkout) falls back to the virtual flow
 * when a card-flow requirement is unmet.
 */
import { DomainError } from '../../../domain/errors';
import type { MethodSnapshot, PaymentKind } from '../../../domain/payment/events';
import { WalletNotConfigured, WalletTokenRefused } from '../../../domain/wallets/refusals';
import type { Wallet } from '../../../domain/wallets/token-shape';
import type { PaymentDeps } from '../deps';
import { connectorsOffering } from '../methods';
import { repeatedOrder, sale } from '../sale/handler';
import { candidatesOf, routeOf } from '../start-payment/route';
import type { InternalSale, SaleCard, SaleResult } from '../types';

export type WalletFlows = 'card' | 'card_or_virtual';

export interface WalletPaymentRequest {
  merchantId: string;
  /** The merchant's client_key: Google Pay's Gateway Merchant ID unless one is set. */
  clientKey: string;
  wallet: Wallet;
  /** The token JSON exactly as received: its signatures cover the bytes. */
  token: string;
  flows: WalletFlows;
  /** The merchant's connectors, in order; absent: the deployment's first. */
  connectors?: readonly string[];
  currency: string;
  kind: PaymentKind;
  amount: number;
  recurringInit: boolean;
  /**
   * What the payment records of the wallet as its method, beside `brand` (the wallet): S2S APM's
   * identifier and return URL. Absent (S2S CARD): the card flow records the card alone.
   */
  method?: Omit<MethodSnapshot, 'brand' | 'parameters'>;
  /** The request's id, for the operator's lines. */
  correlationId: string;
}

/** How a wallet token pays, ready to spread into a SALE (or a Checkout attempt's) request. */
export type WalletInstrument =
  | { flow: 'card'; card: Extract<SaleCard, { kind: 'wallet' }>; method?: MethodSnapshot; storeCard: true }
  | { flow: 'virtual'; method: MethodSnapshot; walletToken: string; storeCard: false };

const NO_CAPABLE_CONNECTOR = 'no_capable_connector';

/** The connectors among `candidates` that take cards the gateway decrypted from a wallet token (the card flow). */
function decryptingConnectors(deps: PaymentDeps, candidates: readonly string[]): string[] {
  return candidates.filter((name) => {
    const capabilities = deps.connectors.get(name)?.capabilities;
    return capabilities !== undefined && capabilities.walletDecryption && capabilities.methods.includes('card');
  });
}

/**
 * Whether some flow could pay `wallet` for this merchant at all: a connector of its route offering
 * the wallet (virtual flow), or the wallet's keys and a connector taking decrypted cards (card
 * flow). What the Checkout page offers and the SDK's brands both ask this, so they agree.
 */
export async function walletPayable(deps: PaymentDeps, merchantId: string, connectors: readonly string[] | undefined, wallet: Wallet): Promise<boolean> {
  const candidates = candidatesOf(deps.connectors, { connectors });
  if (connectorsOffering(deps.connectors, candidates, wallet).length > 0) return true;
  if (!deps.wallets || decryptingConnectors(deps, candidates).length === 0) return false;
  return deps.wallets.cardFlowAvailable(merchantId, wallet);
}

/**
 * The flow that pays `request.token`, with the card opened (card flow) or the token shape-checked
 * (virtual flow). Refusals: WalletNotConfigured (204018), WalletTokenRefused (250003),
 * WalletTokenMalformed (100000), DomainError `no_capable_connector` / `action_not_supported` (204005).
 * The card flow's token is not used up here: its record travels in the instrument.
 */
export async function walletInstrument(deps: PaymentDeps, request: WalletPaymentRequest): Promise<WalletInstrument> {
  const wallets = deps.wallets;
  if (!wallets) throw new WalletNotConfigured('this deployment takes no wallet tokens');
  const { wallet, merchantId } = request;
  const candidates = candidatesOf(deps.connectors, { connectors: request.connectors });
  const requirements = { currency: request.currency, kind: request.kind, amount: request.amount, recurring: request.recurringInit };
  const method = request.method ? { method: { brand: wallet, parameters: {}, ...request.method } } : {};

  const decrypting = decryptingConnectors(deps, candidates);
  const keys = await wallets.cardFlowAvailable(merchantId, wallet);
  let cardFlowRefusal: DomainError | null = null;
  if (keys && decrypting.length > 0) {
    try {
      routeOf(deps.connectors, decrypting, { ...requirements, method: 'card', walletDecryption: true });
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== NO_CAPABLE_CONNECTOR) throw error;
      cardFlowRefusal = error;
    }
    if (!cardFlowRefusal) {
      try {
        const opened = await wallets.openForPayment({ merchantId, clientKey: request.clientKey }, wallet, request.token);
        return { flow: 'card', card: { kind: 'wallet', card: opened.card, redemption: opened.redemption }, ...method, storeCard: true };
      } catch (error) {
        // Why, for the operator; never card data (the refusal's reason holds none).
        if (error instanceof WalletTokenRefused) deps.logger.warn('wallet token refused', { requestId: request.correlationId, merchantId, wallet, reason: error.reason });
        throw error;
      }
    }
  }
  const noCardFlow = () => cardFlowRefusal ?? new WalletNotConfigured(keys ? 'no connector of the merchant takes decrypted wallet cards' : `no ${wallet} keys`);
  if (request.flows === 'card') throw noCardFlow();

  const offering = connectorsOffering(deps.connectors, candidates, wallet);
  if (offering.length === 0) throw noCardFlow();
  // Nothing is stored in the virtual flow: no hold to capture later, no card for a chain (§9).
  if (request.kind === 'authorization' || request.recurringInit) throw new DomainError('action_not_supported', 'Payment action not supported');
  routeOf(deps.connectors, offering, { ...requirements, method: wallet });
  wallets.parse(wallet, request.token);
  return { flow: 'virtual', method: { brand: wallet, parameters: {}, ...request.method }, walletToken: request.token, storeCard: false };
}

export type WalletSaleRequest = Omit<InternalSale, 'card' | 'method' | 'walletToken' | 'storeCard' | 'connectors'> &
  Pick<WalletPaymentRequest, 'clientKey' | 'wallet' | 'token' | 'flows' | 'connectors'> & {
    /** See WalletPaymentRequest.method. */
    methodFields?: WalletPaymentRequest['method'];
  };

/**
 * An S2S wallet SALE. A repeat of an order id answers from the original (within the duplicate
 * window) before the token is looked at: the token was used by the original, and a repeat must get
 * the original's outcome, not "used before".
 */
export async function walletSale(deps: PaymentDeps, request: WalletSaleRequest): Promise<SaleResult> {
  const repeat = await repeatedOrder(deps, request);
  if (repeat) return { payment: repeat, replayed: true };
  const { clientKey, wallet, token, flows, methodFields, ...rest } = request;
  const paying = await walletInstrument(deps, {
    merchantId: request.merchantId,
    clientKey,
    wallet,
    token,
    flows,
    ...(request.connectors ? { connectors: request.connectors } : {}),
    currency: request.currency,
    kind: request.kind,
    amount: request.amount,
    recurringInit: request.recurringInit,
    ...(methodFields ? { method: methodFields } : {}),
    correlationId: request.correlationId,
  });
  if (paying.flow === 'card') {
    return sale(deps, { ...rest, card: paying.card, ...(paying.method ? { method: paying.method } : {}), storeCard: true });
  }
  return sale(deps, { ...rest, method: paying.method, walletToken: paying.walletToken, storeCard: false });
}
