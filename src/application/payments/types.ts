/** What the payment use cases are asked: a SALE's request, a chain's later charges, an automatic payment. */
import type { InitiatePayment } from '../../domain/payment/commands';
import type { CardSource, MethodSnapshot, PaymentChannel, RecurringLink } from '../../domain/payment/events';
import type { ExistingPayment } from '../../domain/payment/state';
import type { ScheduleRule } from '../../domain/schedule/due-dates';
import type { WalletCard } from '../../domain/wallets/wallet-card';
import type { OpenedWalletToken } from '../wallets';

export type SaleCard =
  | { kind: 'number'; number: string; expMonth: string; expYear: string; cvv?: string; holder?: string }
  /** `holder`: a name given now (a credit's payee) in place of the one stored with the card. */
  | { kind: 'token'; token: string; holder?: string }
  /**
   * A card the gateway decrypted from a wallet token (the wallets' card flow): always vaulted, and
   * `redemption`, the token's one-time record, is appended together with the payment.
   */
  | { kind: 'wallet'; card: WalletCard; redemption: OpenedWalletToken['redemption'] };

/**
 * How a SALE pays: the card as the merchant sent it, or an alternative method (S2S APM `brand`,
 * its parameters and the payer's identifier). Both only for a wallet paid over S2S APM in the card
 * flow (a `wallet` card, the wallet as the method). `walletToken`: a wallet method in the virtual
 * flow, whose token (exactly as received) the connector is given undecrypted and nothing keeps.
 */
export type SaleInstrument =
  | { card: SaleCard; method?: MethodSnapshot; walletToken?: undefined }
  | { method: MethodSnapshot; card?: undefined; walletToken?: string };

/** What a SALE asks for: the payment's order and payer data, with the card (or method) as the merchant sent it. */
export type SaleRequest = Omit<
  InitiatePayment['data'],
  'paymentId' | 'channel' | 'card' | 'method' | 'cardSource' | 'checkout' | 'browser' | 'recurring' | 'now' | 'connector' | 'route' | 'acquirerReference'
> &
  SaleInstrument & {
  /** Keep the card in the vault and hand back a token for later payments (never for a method). */
  storeCard: boolean;
  correlationId: string;
  /** With `recurringInit`: the schedule the chain's automatic payments follow. */
  schedule?: ScheduleRequest;
  /** The merchant's card_on_file_support: ask the connector for a card-on-file reference. */
  cardOnFileSupport?: boolean;
  /** The merchant's connectors, in the order to try them; absent: every configured connector's first. */
  connectors?: readonly string[];
  /**
   * The merchant's stream and the version of the settings this SALE was decided under (its terms).
   * The payment's first write carries it as a version check: the SALE is recorded only if the
   * settings are still current, and is refused with a WrongExpectedVersionError naming the
   * merchant's stream otherwise (the caller then asks again under the current ones). Absent: the
   * caller confirmed the settings before.
   */
  merchantSettingsAt?: { streamId: string; version: bigint };
};

/** A schedule attached to a payment that starts (or continues) a chain. */
export interface ScheduleRequest {
  scheduleId: string;
  rule: ScheduleRule;
  /** `schedule_start_date`: overrides the schedule's first-payment delay. */
  startDate?: string;
  /** `payment_schedule_amount`, when sent. */
  amount?: { minor: number; text: string };
}

/** A merchant-initiated charge of a chain (RECURRING_SALE, RECURRING_DEBIT, Checkout recurring). */
export interface RecurringRequest {
  merchantId: string;
  channel: PaymentChannel;
  kind: 'sale' | 'debit';
  orderId: string;
  orderDescription: string;
  amount: number;
  amountText: string;
  customData: Record<string, unknown> | null;
  /** The request's own callback target; absent: the chain's (its first payment's), else the merchant's. */
  notificationUrl?: string;
  correlationId: string;
  /** Checkout recurring with `schedule_id`: the schedule starts from this payment. */
  schedule?: ScheduleRequest;
}

/** What a chain's later charges inherit from its initial payment. */
export type RecurringChain = ExistingPayment & { recurring: RecurringLink; recurringToken: string };

/** An automatic payment of a schedule, claimed on the chain stream by the scheduler. */
export interface ScheduledPaymentRequest {
  paymentId: string;
  /** The chain's initial payment. */
  chain: RecurringChain;
  kind: 'sale' | 'debit';
  orderId: string;
  orderDescription: string;
  amount: number;
  amountText: string;
  scheduleId: string;
  sequence: number;
  dueDate: string;
  notificationUrl: string | null;
  correlationId: string;
}

export interface SaleResult {
  payment: ExistingPayment;
  /** True when this request repeated an order id within the duplicate window. */
  replayed: boolean;
}

/** What start-payment takes beyond a merchant's SALE: the chain context of a recurring charge. */
export type InternalSale = SaleRequest & {
  channel?: PaymentChannel;
  cardSource?: CardSource;
  payerPresent?: boolean;
  link?: RecurringLink;
  /** The chain's initial payment, for recurring and scheduled charges. */
  chain?: RecurringChain;
};
