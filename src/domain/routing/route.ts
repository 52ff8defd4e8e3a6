/**
 * Smart routing: of the merchant's connectors, in the merchant's order, the ones that can take
 * this payment. The first is asked; a soft decline cascades to the next (see PaymentCascaded).
 */
import { DomainError } from '../errors';
import type { PaymentKind } from '../payment/events';

/** What a connector can do; the gateway routes and refuses by it before any call. */
export interface ConnectorCapabilities {
  /** `card`, wallet identifiers (`applepay`, `googlepay`) and alternative method identifiers. */
  methods: readonly string[];
  /** ISO 4217 codes, or `any`. */
  currencies: readonly string[] | 'any';
  /** Authorize now, capture later. */
  dms: boolean;
  /** Refunds through the API (some acquirers take them in their own portal only). */
  refundsViaApi: boolean;
  /** Zero-amount authorizations (card checks that start a chain). */
  zeroAmount: boolean;
  /** Card-on-file references for merchant-initiated charges and the chains they belong to. */
  cardOnFile: boolean;
  /** Takes card data the gateway decrypted from a wallet token (the wallets' card flow). */
  walletDecryption: boolean;
  /** Pays money out to a card or account. */
  payouts: boolean;
}

export interface RouteRequirements {
  method: string;
  currency: string;
  kind: PaymentKind;
  amount: number;
  /** Starts or continues a recurring chain. */
  recurring: boolean;
  /** A card the gateway decrypted from a wallet token (the wallets' card flow). */
  walletDecryption?: boolean;
}

/** Why a connector cannot take a payment, or null when it can. */
export function unmetRequirement(capabilities: ConnectorCapabilities, r: RouteRequirements): string | null {
  if (!capabilities.methods.includes(r.method)) return `method ${r.method}`;
  if (capabilities.currencies !== 'any' && !capabilities.currencies.includes(r.currency)) return `currency ${r.currency}`;
  if (r.kind === 'authorization' && !capabilities.dms) return 'authorization (DMS)';
  if (r.kind === 'credit' && !capabilities.payouts) return 'payouts';
  if (r.amount === 0 && !capabilities.zeroAmount) return 'zero amount';
  if (r.recurring && !capabilities.cardOnFile) return 'recurring';
  if (r.walletDecryption && !capabilities.walletDecryption) return 'wallet decryption';
  return null;
}

/** The merchant's connectors that can take the payment, in the merchant's order; refused when none can. */
export function routeFor(requirements: RouteRequirements, candidates: ReadonlyArray<{ name: string; capabilities: ConnectorCapabilities }>): string[] {
  const route = candidates.filter((c) => unmetRequirement(c.capabilities, requirements) === null).map((c) => c.name);
  if (route.length === 0) throw new DomainError('no_capable_connector', 'Payment action not supported');
  return route;
}
