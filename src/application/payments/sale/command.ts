/**
 * The S2S SALE commands: what the merchant asked for, parsed once (parse-card-sale.ts,
 * parse-method-sale.ts), under the merchant's terms. What a payment then records and asks its
 * connector follows from these alone.
 */
import type { MethodSnapshot, PayerSnapshot, PaymentKind, ReturnLinkTarget } from '../../../domain/payment/events';
import type { Wallet } from '../../../domain/wallets/token-shape';
import type { SaleCard } from '../types';
import type { MerchantTerms } from './merchant-terms';

/** What every SALE asks for, with a card or a method. */
export interface SaleOrder {
  kind: PaymentKind;
  orderId: string;
  orderDescription: string;
  currency: string;
  amount: number;
  /** The merchant's text of the amount, byte for byte (echoed, hashed). */
  amountText: string;
  payer: PayerSnapshot;
  notificationUrl: string | null;
  customData: Record<string, unknown> | null;
}

/** A SALE's schedule fields, checked for shape; the schedule itself is looked up when the payment starts. */
export interface ScheduleFields {
  scheduleId: string;
  startDate?: string;
  amount?: { minor: number; text: string };
}

/** How an S2S CARD SALE pays: a card on the form or a stored card's token, or a wallet token (its card inside). */
export type CardSalePayment =
  | { kind: 'card'; card: Extract<SaleCard, { kind: 'number' | 'token' }>; storeCard: boolean; payerPresent: boolean }
  /** `wallet` as sent: one the gateway does not know is refused as one the merchant does not take. */
  | { kind: 'wallet'; wallet: string; token: string };

/** S2S CARD `SALE`. */
export interface CardSaleCommand {
  terms: MerchantTerms;
  order: SaleOrder;
  pays: CardSalePayment;
  termUrl3ds: string | null;
  termUrlTarget: ReturnLinkTarget | null;
  parameters: Record<string, unknown> | null;
  recurringInit: boolean;
  schedule: ScheduleFields | null;
  correlationId: string;
}

/** S2S APM `SALE`: an alternative method, or a wallet brand whose token is `walletToken`. */
export interface MethodSaleCommand {
  terms: MerchantTerms;
  order: SaleOrder;
  method: MethodSnapshot;
  wallet: { wallet: Wallet; token: string } | null;
  correlationId: string;
}

/** Why a SALE's form is refused before its hash is checked. */
export type SaleRefusal =
  | { kind: 'fields'; problems: string[] }
  /** The spec words a non-UUID schedule_id as an error of its own. */
  | { kind: 'schedule_id_not_uuid' }
  | { kind: 'brand_not_found' }
  | { kind: 'brand_not_supported' }
  | { kind: 'action_not_supported' };

export type Parsed<C> = { ok: true; command: C } | { ok: false; refusal: SaleRefusal };
