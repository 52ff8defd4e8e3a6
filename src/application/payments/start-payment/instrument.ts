/**
 * What a payment is made with: what PaymentInitiated records of it (the card's mask and token, or
 * the method, or both for an S2S APM wallet in the card flow) and what the connector is given (the
 * card in memory, a wallet's token as received, or the method's parameters).
 */
import { detectBrand, maskPan } from '../../../domain/card';
import type { CardSnapshot, MethodSnapshot } from '../../../domain/payment/events';
import type { PaymentInstrument } from '../../ports/connector';
import type { PaymentDeps } from '../deps';
import type { InternalSale, SaleCard } from '../types';
import { resolveCard } from './card';

export type Recorded = { card: CardSnapshot; method?: MethodSnapshot } | { method: MethodSnapshot };

export interface Paying {
  instrument: PaymentInstrument;
  /** Kept in the vault (when it is kept) only once the payment is routed: a payment no connector takes stores no card. */
  recorded(): Promise<Recorded>;
}

export async function instrumentOf(deps: PaymentDeps, request: InternalSale): Promise<Paying> {
  if (!request.card) return methodInstrument(request.method, request.walletToken);
  const alongside = request.method ? { method: request.method } : {};
  if (request.card.kind === 'wallet') return walletCardInstrument(deps, request.card, request.merchantId, alongside);
  const saleCard = request.card;
  const card = await resolveCard(deps.vault, saleCard, request.merchantId);
  // A chain's later charges pay with its stored card, which is still the wallet's when a wallet started it.
  const chainCard = request.chain?.card;
  const fromWallet = saleCard.kind === 'token' && chainCard?.wallet && chainCard.panType ? { wallet: chainCard.wallet, panType: chainCard.panType } : null;
  return {
    instrument: { kind: 'card', card: { ...card, cvv: saleCard.kind === 'number' ? saleCard.cvv : undefined, ...(fromWallet ? { wallet: fromWallet } : {}) } },
    async recorded() {
      let token = saleCard.kind === 'token' ? saleCard.token : null;
      if (!token && request.storeCard) token = await deps.vault.store(card, request.merchantId);
      return { card: { ...snapshotOf(card, token), ...(fromWallet ?? {}) }, ...alongside };
    },
  };
}

function methodInstrument(method: MethodSnapshot, walletToken: string | undefined): Paying {
  const identifier = method.identifier !== undefined ? { identifier: method.identifier } : {};
  const instrument: PaymentInstrument =
    walletToken !== undefined
      ? { kind: 'wallet_token', wallet: method.brand, token: walletToken, ...identifier }
      : { kind: 'method', method: method.brand, parameters: method.parameters, ...identifier };
  return { instrument, recorded: async () => ({ method }) };
}

function walletCardInstrument(
  deps: PaymentDeps,
  saleCard: Extract<SaleCard, { kind: 'wallet' }>,
  merchantId: string,
  alongside: { method?: MethodSnapshot },
): Paying {
  const w = saleCard.card;
  const stored = { number: w.pan, expMonth: w.expMonth, expYear: w.expYear, ...(w.holder ? { holder: w.holder } : {}) };
  const wallet = { wallet: w.wallet, panType: w.panType, ...(w.cryptogram ? { cryptogram: w.cryptogram } : {}), ...(w.eci ? { eci: w.eci } : {}) };
  return {
    instrument: { kind: 'card', card: { ...stored, wallet } },
    // The card flow keeps the card (docs/wallets.md#two-flows), in the vault only and once the payment is routed.
    async recorded() {
      const token = await deps.vault.store(stored, merchantId);
      return { card: { ...snapshotOf(stored, token), wallet: w.wallet, panType: w.panType }, ...alongside };
    },
  };
}

function snapshotOf(card: { number: string; expMonth: string; expYear: string }, token: string | null): CardSnapshot {
  return { mask: maskPan(card.number), brand: detectBrand(card.number), expMonth: card.expMonth, expYear: card.expYear, token };
}
