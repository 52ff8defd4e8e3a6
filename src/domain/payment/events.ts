/**
 * Events of one payment stream (`payment-<payment id>`). Every type is past-tense and carries its
 * schema version in the store envelope (see PAYMENT_EVENT_SCHEMA_VERSION). Amounts are integer minor
 * units of the payment currency; the `*Text` fields keep the merchant's decimal string byte for byte,
 * because hashes and echoes use the raw string. No card number and no CVV ever appear here: only the
 * mask (first6******last4), brand, expiry and, for stored cards, an opaque vault token. A payment
 * made with an alternative method (S2S APM) has no card at all: it records the method instead.
 */

import type { PanType } from '../wallets/wallet-card';
import type { Wallet } from '../wallets/token-shape';
import type { DeclineCode, DeclineStage } from './decline-code';

export type { DeclineStage } from './decline-code';

export const PAYMENT_EVENT_SCHEMA_VERSION = 1;

/**
 * `sale` and `debit` settle at once (a debit is the Checkout `debit` operation: its card is always
 * stored); `authorization` holds funds until captured; `credit` pays money out to the card.
 */
export type PaymentKind = 'sale' | 'authorization' | 'debit' | 'credit';
/**
 * The protocol a payment was made through, which also decides how everything about it is told to
 * the merchant (answers, status lookups, callbacks, the hashes of its follow-ups).
 */
export type PaymentChannel = 's2s_card' | 's2s_apm' | 'checkout';

export type CheckoutOperation = 'purchase' | 'debit' | 'credit';

/** What a Checkout payment records about the session it was made in. */
export interface CheckoutPaymentData {
  sessionId: string;
  operation: CheckoutOperation;
  /** 1 for the session's first attempt; each retry after a decline is the next number. */
  attempt: number;
  /** True for a hosted payment fields session (the payer returns to `return_url`). */
  hostedFields: boolean;
  /** `customer.name` of the session. */
  customerName?: string;
}

export interface CardSnapshot {
  mask: string;
  brand: string;
  expMonth: string; // MM
  expYear: string; // YYYY
  /** Vault token when the card was stored (card_token / recurring, and every wallet card flow), else null. */
  token: string | null;
  /**
   * Set when the card came out of a wallet token the gateway decrypted (the wallets' card flow):
   * which wallet (`digital_wallet`), and whether the number is a device or network token with a
   * cryptogram (`DPAN`) or the card's own number (`FPAN`, Google Pay `PAN_ONLY`). A chain's later
   * charges keep them: the stored card is still that wallet's. Absent on every other card.
   */
  wallet?: Wallet;
  panType?: PanType;
}

/**
 * An alternative payment method a payment is made with (S2S APM `brand`; later Checkout `methods`),
 * in place of a card. `parameters` is the method's catalogue set as the merchant sent it (never a
 * wallet's `paymentToken`: a token is handed on, not kept). A wallet paid over S2S APM in the card
 * flow records both: the decrypted card, and the wallet as its method (the APM answers, return URL
 * and follow-up rules stay the method's).
 */
export interface MethodSnapshot {
  /** The method identifier as the merchant named it (an alias stays as sent: it is echoed back). */
  brand: string;
  parameters: Record<string, unknown>;
  /** S2S APM `identifier`: the merchant's reference of the payer, hash input. */
  identifier?: string;
  /** S2S APM `return_url`: where the payer goes once the provider's pages are done. */
  returnUrl?: string;
  /** S2S APM `return_url_target`, when sent. */
  returnUrlTarget?: string;
  /** S2S APM `channel_id`, when sent. */
  channelId?: string;
}

export interface PayerSnapshot {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  address?: string;
  country?: string;
  state?: string;
  city?: string;
  zip?: string;
  ip?: string;
  birthDate?: string;
  address2?: string;
  houseNumber?: string;
  phoneCountryCode?: string;
  district?: string;
}

/**
 * A schedule a payment starts: the chain's automatic payments follow it. Recorded when the payment
 * is initiated, so `first_recurring_date` is known to the merchant's first response.
 */
export interface ChainSchedule {
  scheduleId: string;
  /** `first_recurring_date`: due date of the first automatic payment (YYYY-MM-DD). */
  firstDueDate: string;
  /** Day of month that month and year intervals aim at (see src/domain/schedule/due-dates.ts). */
  anchorDay: number;
  /** `schedule_start_date` as sent, when it was. */
  startDate?: string;
  /** Amount of each automatic payment: `payment_schedule_amount`, else the payment's own. */
  amount: number;
  amountText: string;
  /** True when `payment_schedule_amount` was sent (echoed back only then). */
  amountSent: boolean;
}

/**
 * A payment's place in a recurring chain. `initial` starts the chain (the payer is present and
 * the card is stored); `recurring` is a merchant-initiated charge of the chain (RECURRING_SALE,
 * RECURRING_DEBIT, Checkout recurring); `scheduled` was made by the scheduler.
 */
export interface RecurringLink {
  role: 'initial' | 'recurring' | 'scheduled';
  /** The chain's first payment: the payment's own id when `initial`. */
  initPaymentId: string;
  /** `initial` only: the token handed to the merchant once the payment succeeds. */
  token?: string;
  /** A schedule this payment starts (`initial`, or a Checkout recurring request with `schedule_id`). */
  schedule?: ChainSchedule;
  /** `scheduled` only: the schedule, the payment's number in it and the date it fell due. */
  scheduleId?: string;
  sequence?: number;
  dueDate?: string;
}

/** How the SALE supplied the card: its number, or a token of a card stored earlier. */
export type CardSource = 'card_number' | 'card_token';

/** The outcome of a 3-D Secure authentication, as the ACS reported it. */
export interface ThreeDSAttributes {
  threeDSServerTransID: string;
  dsTransID: string;
  acsTransID: string;
  xid: string;
  /** `Y` authenticated, `N` not authenticated, `U` could not be performed, `C` challenge, ... */
  transStatus: string;
  /** Empty when `transStatus` is `Y`. */
  transStatusReason: string;
  eci: string;
  protocolVersion: string;
  authenticationFlow: 'Frictionless' | 'Challenge';
}

/**
 * What the payer's browser told the gateway's pages: request headers plus what the page script can
 * read. Every part is optional because a browser without JavaScript sends only headers.
 */
export interface BrowserAttributes {
  colorDepth?: number;
  screenHeight?: number;
  screenWidth?: number;
  javaEnabled?: boolean;
  javascriptEnabled?: boolean;
  language?: string;
  /** Minutes, as the browser's `Date#getTimezoneOffset` reports them (UTC+2 is -120). */
  timezoneOffset?: number;
  userAgent?: string;
  acceptHeaders?: string;
  platform?: string;
}

/** Recorded with the decision that follows the payer's return from the ACS or redirect page. */
export interface PayerReturnData {
  threeDS?: ThreeDSAttributes;
  browser?: BrowserAttributes;
}

export interface PaymentInitiated {
  type: 'PaymentInitiated';
  data: {
    paymentId: string;
    merchantId: string;
    channel: PaymentChannel;
    kind: PaymentKind;
    orderId: string;
    orderDescription: string;
    currency: string;
    amount: number;
    amountText: string;
    /**
     * The card, for a card payment; absent for a payment made with an alternative method, which
     * records `method` instead (events recorded before methods existed all carry a card, so the
     * field's meaning is unchanged and no schema version was needed).
     */
    card?: CardSnapshot;
    /** The alternative method, for a payment made with one (with `card` only for an S2S APM wallet in the card flow). */
    method?: MethodSnapshot;
    payer: PayerSnapshot;
    termUrl3ds: string | null;
    /** S2S CARD `term_url_target`: the browsing context the payer returns to `term_url_3ds` in. */
    termUrlTarget?: ReturnLinkTarget;
    notificationUrl: string | null;
    customData: Record<string, unknown> | null;
    parameters: Record<string, unknown> | null;
    recurringInit: boolean;
    /** Absent on events recorded before it existed: read as `card_number`. */
    cardSource?: CardSource;
    /** Present on Checkout payments only. */
    checkout?: CheckoutPaymentData;
    /** The payer's browser, when the payment started from it (hosted page, hosted payment fields). */
    browser?: BrowserAttributes;
    /** Present on payments of a recurring chain. */
    recurring?: RecurringLink;
    /** False when the merchant charges a stored card without the payer (`payer_present=N`). Absent: present. */
    payerPresent?: boolean;
    /**
     * Schema version 2: the connector asked first, and the merchant's connectors this payment may
     * cascade to after a soft decline, in order (the whole route, `connector` first). Version 1
     * events are upcast to the sandbox, the only connector there was.
     */
    connector: string;
    route?: string[];
    /**
     * Only on upcast version 1 events: what the sandbox of that release identified its transaction
     * by (`card-expiry:MM/YYYY`), since no outcome event recorded a reference then.
     */
    acquirerReference?: string;
    initiatedAt: string;
  };
}

/** The connector's own identifier of the transaction, recorded with each of its answers. */
export interface ConnectorReference {
  reference?: string;
}

/** Where a payer returns to the merchant: a link target (`_self` and absence both mean the same window). */
export type ReturnLinkTarget = '_blank' | '_self' | '_parent' | '_top';

/**
 * The connector settled in another currency than the payment's (callbacks: `exchange_currency`,
 * `exchange_amount`, `exchange_rate`, `exchange_rate_base`).
 */
export interface CurrencyConversion {
  /** ISO 4217 code the money was converted to. */
  currency: string;
  /** Minor units of `currency`. */
  amount: number;
  /** Units of `currency` per one unit of `rateBase`, as the connector wrote it (a decimal string). */
  rate: string;
  /** The currency the rate is quoted from: the payment's. */
  rateBase: string;
}

/** What the connector said beyond the outcome: a currency conversion, and further data of its own (`extended_data`). */
export interface SettlementExtras {
  conversion?: CurrencyConversion;
  extendedData?: Record<string, string>;
}

export interface PaymentSettled {
  type: 'PaymentSettled';
  data: PayerReturnData & ConnectorReference & SettlementExtras & {
    paymentId: string;
    amount: number;
    descriptor: string;
    /** Retrieval reference number of the authorization, when the acquirer gave one. */
    rrn?: string;
    /** Acquirer reference number of the settlement, when the acquirer gave one. */
    arn?: string;
    /** The connector's card-on-file reference, when the merchant's card-on-file support asked for one. */
    cardOnFileId?: string;
    settledAt: string;
  };
}

export interface PaymentAuthorized {
  type: 'PaymentAuthorized';
  data: PayerReturnData & ConnectorReference & SettlementExtras & {
    paymentId: string;
    amount: number;
    descriptor: string;
    rrn?: string;
    /** As on PaymentSettled. */
    cardOnFileId?: string;
    authorizedAt: string;
  };
}

/** Schema version 2: `code` added (version 1 events are upcast with a derived one). */
export interface PaymentDeclined {
  type: 'PaymentDeclined';
  data: PayerReturnData & ConnectorReference & { paymentId: string; reason: string; code: DeclineCode; stage: DeclineStage; declinedAt: string };
}

/**
 * A connector declined softly (issuer unavailable, acquirer limits) and the merchant's route names
 * another: the payment goes on there. The payer is not involved; the first of these is reported to
 * the merchant as the first declined attempt.
 */
export interface PaymentCascaded {
  type: 'PaymentCascaded';
  data: ConnectorReference & { paymentId: string; fromConnector: string; toConnector: string; reason: string; code: DeclineCode; cascadedAt: string };
}

export interface ThreeDSChallengeRequired {
  type: 'ThreeDSChallengeRequired';
  data: ConnectorReference & {
    paymentId: string;
    acsUrl: string;
    /** Form fields the payer's browser posts to the ACS (3-D Secure v1: PaReq, MD, TermUrl). */
    params: Record<string, string>;
    requiredAt: string;
  };
}

export interface PayerRedirectRequired {
  type: 'PayerRedirectRequired';
  data: ConnectorReference & {
    paymentId: string;
    redirectUrl: string;
    /**
     * `qr`: the provider's page shows a QR code the payer scans (its payload is `params.qr_code`,
     * Base64); absent: a page the payer goes to.
     */
    display?: 'qr';
    /** Fields the merchant is given with the page (a QR method's `qr_code`); absent: none. */
    params?: Record<string, string>;
    /** When the provider gives up on the payer (a QR code's lifetime); absent: the gateway's payer-action timeout. */
    expiresAt?: string;
    /** What the provider's page shows the payer (payment details), for a gateway page standing in for it. */
    instructions?: Record<string, string>;
    /** `otp`: the provider's page takes a one-time code sent to the payer. */
    collects?: 'otp';
    requiredAt: string;
  };
}

/**
 * The provider accepted the payment and decides later: the payer confirms elsewhere (a phone app,
 * a crypto transfer, a bank pull). The provider's notification (or its status lookup) decides it.
 */
export interface PaymentPending {
  type: 'PaymentPending';
  data: ConnectorReference & {
    paymentId: string;
    /** What the payer needs to act, shown to the merchant (a crypto deposit's `crypto_address`, `crypto_network`). */
    instructions?: Record<string, string>;
    /** When the provider gives up on the payer; absent: the gateway's payer-action timeout. */
    expiresAt?: string;
    pendingAt: string;
  };
}

/** The acquirer did not say what happened (timeout, broken connection): reconciled, never retried. */
export interface PaymentOutcomeUnknown {
  type: 'PaymentOutcomeUnknown';
  data: PayerReturnData & { paymentId: string; detail: string; at: string };
}

/** Recorded before the acquirer is asked, so two concurrent captures can never both reach it. */
export interface CaptureRequested {
  type: 'CaptureRequested';
  data: { paymentId: string; operationId: string; amount: number; amountText: string; requestedAt: string };
}

export interface CaptureSucceeded {
  type: 'CaptureSucceeded';
  data: { paymentId: string; operationId: string; amount: number; amountText: string; arn?: string; capturedAt: string };
}

export interface CaptureDeclined {
  type: 'CaptureDeclined';
  data: { paymentId: string; operationId: string; amount: number; reason: string; declinedAt: string };
}

export interface VoidRequested {
  type: 'VoidRequested';
  data: { paymentId: string; operationId: string; amount: number; requestedAt: string };
}

export interface VoidDeclined {
  type: 'VoidDeclined';
  data: { paymentId: string; operationId: string; amount: number; reason: string; declinedAt: string };
}

export interface PaymentVoided {
  type: 'PaymentVoided';
  data: { paymentId: string; operationId: string; amount: number; voidedAt: string };
}

/** CREDITVOID accepted: a refund (settled payment) or a hold release (pending authorization). */
export interface CreditVoidRequested {
  type: 'CreditVoidRequested';
  data: {
    paymentId: string;
    operationId: string;
    kind: 'refund' | 'reversal';
    amount: number;
    amountText: string;
    requestedAt: string;
  };
}

export interface RefundSucceeded {
  type: 'RefundSucceeded';
  data: { paymentId: string; operationId: string; amount: number; refundedAt: string };
}

export interface RefundDeclined {
  type: 'RefundDeclined';
  data: { paymentId: string; operationId: string; amount: number; reason: string; declinedAt: string };
}

export interface AuthorizationReversed {
  type: 'AuthorizationReversed';
  data: { paymentId: string; operationId: string; amount: number; reversedAt: string };
}

export interface ReversalDeclined {
  type: 'ReversalDeclined';
  data: { paymentId: string; operationId: string; amount: number; reason: string; declinedAt: string };
}

export type PaymentEvent =
  | PaymentInitiated
  | PaymentSettled
  | PaymentAuthorized
  | PaymentDeclined
  | PaymentCascaded
  | ThreeDSChallengeRequired
  | PayerRedirectRequired
  | PaymentPending
  | PaymentOutcomeUnknown
  | CaptureRequested
  | CaptureSucceeded
  | CaptureDeclined
  | VoidRequested
  | VoidDeclined
  | PaymentVoided
  | CreditVoidRequested
  | RefundSucceeded
  | RefundDeclined
  | AuthorizationReversed
  | ReversalDeclined;

export type PaymentEventType = PaymentEvent['type'];

/** Types written at a later schema version than PAYMENT_EVENT_SCHEMA_VERSION; see src/domain/upcasting. */
export const PAYMENT_EVENT_SCHEMA_VERSIONS: Readonly<Partial<Record<PaymentEventType, number>>> = {
  PaymentInitiated: 2,
  PaymentDeclined: 2,
};

/** The schema version a new payment event of this type is written with. */
export const paymentEventSchemaVersion = (type: PaymentEventType): number =>
  PAYMENT_EVENT_SCHEMA_VERSIONS[type] ?? PAYMENT_EVENT_SCHEMA_VERSION;

export const PAYMENT_EVENT_TYPES: readonly PaymentEventType[] = [
  'PaymentInitiated',
  'PaymentSettled',
  'PaymentAuthorized',
  'PaymentDeclined',
  'PaymentCascaded',
  'ThreeDSChallengeRequired',
  'PayerRedirectRequired',
  'PaymentPending',
  'PaymentOutcomeUnknown',
  'CaptureRequested',
  'CaptureSucceeded',
  'CaptureDeclined',
  'VoidRequested',
  'VoidDeclined',
  'PaymentVoided',
  'CreditVoidRequested',
  'RefundSucceeded',
  'RefundDeclined',
  'AuthorizationReversed',
  'ReversalDeclined',
];

export const paymentStreamId = (paymentId: string): string => `payment-${paymentId}`;
