/**
 * What one payment is at a point of its stream: its phase, status, amounts and what it recorded.
 * Folded from its events by the evolvers (state.ts).
 */
import type { DeclineCode } from './decline-code';
import type {
  BrowserAttributes,
  CardSnapshot,
  CardSource,
  CheckoutPaymentData,
  CurrencyConversion,
  MethodSnapshot,
  RecurringLink,
  PayerSnapshot,
  PaymentKind,
  ReturnLinkTarget,
  ThreeDSAttributes,
} from './events';

/**
 * S2S `status` values (docs/reference/s2s-card.md#status-values, docs/reference/s2s-apm.md#status-values). `PREPARE` is an alternative-method payment
 * whose provider has not answered yet (a card payment in that state is `PENDING`).
 */
export type PaymentStatus = 'SETTLED' | 'DECLINED' | '3DS' | 'REDIRECT' | 'PENDING' | 'REFUND' | 'REVERSAL' | 'VOID' | 'PREPARE';

export type PaymentPhase =
  | 'initiated' // recorded, acquirer not answered yet
  | 'outcome_unknown' // acquirer answer lost: reconciled, never retried
  | 'awaiting_3ds'
  | 'awaiting_redirect'
  | 'awaiting_provider' // accepted by the provider, who decides later (the payer confirms elsewhere)
  | 'authorized' // DMS hold, capturable
  | 'settled'
  | 'declined'
  | 'voided'
  | 'reversed'
  | 'refunded';

/** An operation recorded as requested whose acquirer answer is not recorded yet. */
export interface PendingOperation {
  operationId: string;
  kind: 'capture' | 'void' | 'refund' | 'reversal';
  amount: number;
  amountText: string;
}

export interface PayerAction {
  kind: '3ds' | 'redirect';
  url: string;
  /** 3DS v1 form fields; empty for a plain redirect; a QR method's `qr_code`. */
  params: Record<string, string>;
  /** `qr`: the page shows a QR code the payer scans (its payload is `params.qr_code`). */
  display?: 'qr';
  /** `otp`: the page takes a one-time code sent to the payer (a gateway page may ask for it instead). */
  collects?: 'otp';
}

export interface ExistingPayment {
  exists: true;
  paymentId: string;
  merchantId: string;
  channel: string;
  kind: PaymentKind;
  phase: PaymentPhase;
  status: PaymentStatus;
  orderId: string;
  orderDescription: string;
  currency: string;
  /** Amount asked for by the SALE. */
  amount: number;
  amountText: string;
  /** Absent for a payment made with an alternative method (then `method` is set). */
  card?: CardSnapshot;
  /** The alternative method, for a payment made with one. */
  method?: MethodSnapshot;
  payer: PayerSnapshot;
  termUrl3ds: string | null;
  notificationUrl: string | null;
  customData: Record<string, unknown> | null;
  recurringInit: boolean;
  descriptor: string | null;
  declineReason: string | null;
  /** Set once declined; optional because states stored by the read models before it existed lack it. */
  declineCode?: DeclineCode;
  payerAction: PayerAction | null;
  /** Authorized and not yet captured or released (DMS). */
  heldAmount: number;
  /** Money that reached the merchant: the sale amount, or the sum of captures. */
  settledAmount: number;
  refundedAmount: number;
  reversedAmount: number;
  pendingOperation: PendingOperation | null;
  initiatedAt: string;
  updatedAt: string;
  // Optional: states folded (and stored by the read models) before these existed lack them.
  /** Absent means `card_number`. */
  cardSource?: CardSource;
  /** Retrieval reference number of the authorization. */
  rrn?: string;
  /** Acquirer reference number of the settlement (sale or capture). */
  arn?: string;
  /** The 3-D Secure result, once the payer came back from the ACS. */
  threeDS?: ThreeDSAttributes;
  /** The payer's browser, as seen when the payer came back from the ACS or redirect page. */
  browser?: BrowserAttributes;
  /** The Checkout session a Checkout payment belongs to. */
  checkout?: CheckoutPaymentData;
  /** The payment's place in a recurring chain. */
  recurring?: RecurringLink;
  /** The chain's `recurring_token`: set once an initial payment succeeded. */
  recurringToken?: string;
  /** False for a merchant-initiated charge without the payer; absent means present. */
  payerPresent?: boolean;
  /** The connector the payment is with now (after any cascade); absent in states stored before connectors were recorded: the sandbox. */
  connector?: string;
  /** The merchant's connectors this payment may go to, in order (`connector` among them). */
  route?: string[];
  /** The connector's reference of its transaction, once it answered; follow-ups quote it. */
  acquirerReference?: string;
  /** Connectors that declined softly before the current one, in order (cascading). */
  cascadedFrom?: string[];
  /** The kind of the last page the payer was sent to, kept after it was completed (a late or repeated return is verified as that kind). */
  lastPayerAction?: '3ds' | 'redirect';
  /** What the payer needs while the provider decides: a crypto address (`awaiting_provider`), payment details its page shows (`awaiting_redirect`). */
  providerInstructions?: Record<string, string>;
  /** When the provider gives up on the payer's step (a QR code's lifetime), while one is awaited. */
  expiresAt?: string;
  /** When the money settled (sale or capture): an alternative method's VOID is allowed on that UTC day only. */
  settledAt?: string;
  /** S2S CARD `term_url_target` as the SALE sent it. */
  termUrlTarget?: ReturnLinkTarget;
  /** The method-specific parameters the merchant sent (Checkout: keyed by method id). */
  parameters?: Record<string, unknown>;
  /** Set when the connector settled in another currency. */
  conversion?: CurrencyConversion;
  /** The connector's further data about the settlement (`extended_data`). */
  extendedData?: Record<string, string>;
}

/** The method identifier or card brand a payment was made with. */
export const brandOf = (p: Pick<ExistingPayment, 'card' | 'method'>): string => p.method?.brand ?? p.card?.brand ?? '';

/** The connector of a payment; states stored by the read models before connectors were recorded are the sandbox's. */
export const connectorOf = (p: ExistingPayment): string => p.connector ?? 'sandbox';

export type PaymentState = { exists: false } | ExistingPayment;

export const initialPaymentState = (): PaymentState => ({ exists: false });
