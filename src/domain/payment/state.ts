/**
 * The state of one payment, folded from its events. `evolvePayment` is pure and total: it is the
 * only definition of what an event means, shared by the deciders and by the payments projection,
 * so a status lookup can never disagree with what the command side decided.
 */
import { formatMinor } from '../money';
import type { DeclineCode } from './decline-code';
import type {
  BrowserAttributes,
  CardSnapshot,
  CardSource,
  CheckoutPaymentData,
  CurrencyConversion,
  MethodSnapshot,
  PayerReturnData,
  RecurringLink,
  PayerSnapshot,
  PaymentEvent,
  PaymentKind,
  ReturnLinkTarget,
  SettlementExtras,
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

/** Whether a payment was made with an alternative method rather than a card. */
export const isMethodPayment = (p: Pick<ExistingPayment, 'method'>): boolean => p.method !== undefined;

/** The method identifier or card brand a payment was made with. */
export const brandOf = (p: Pick<ExistingPayment, 'card' | 'method'>): string => p.method?.brand ?? p.card?.brand ?? '';

/** The connector of a payment; states stored by the read models before connectors were recorded are the sandbox's. */
export const connectorOf = (p: ExistingPayment): string => p.connector ?? 'sandbox';

export type PaymentState = { exists: false } | ExistingPayment;

export const initialPaymentState = (): PaymentState => ({ exists: false });

export function evolvePayment(state: PaymentState, event: PaymentEvent): PaymentState {
  if (event.type === 'PaymentInitiated') {
    const d = event.data;
    return {
      exists: true,
      paymentId: d.paymentId,
      merchantId: d.merchantId,
      channel: d.channel,
      kind: d.kind,
      phase: 'initiated',
      status: d.method ? 'PREPARE' : 'PENDING',
      orderId: d.orderId,
      orderDescription: d.orderDescription,
      currency: d.currency,
      amount: d.amount,
      amountText: d.amountText,
      ...(d.card ? { card: d.card } : {}),
      ...(d.method ? { method: d.method } : {}),
      payer: d.payer,
      termUrl3ds: d.termUrl3ds,
      notificationUrl: d.notificationUrl,
      customData: d.customData,
      recurringInit: d.recurringInit,
      descriptor: null,
      declineReason: null,
      payerAction: null,
      heldAmount: 0,
      settledAmount: 0,
      refundedAmount: 0,
      reversedAmount: 0,
      pendingOperation: null,
      initiatedAt: d.initiatedAt,
      updatedAt: d.initiatedAt,
      ...(d.cardSource ? { cardSource: d.cardSource } : {}),
      ...(d.checkout ? { checkout: d.checkout } : {}),
      ...(d.browser ? { browser: d.browser } : {}),
      ...(d.recurring ? { recurring: d.recurring } : {}),
      ...(d.payerPresent !== undefined ? { payerPresent: d.payerPresent } : {}),
      connector: d.connector,
      ...(d.route ? { route: d.route } : {}),
      ...(d.acquirerReference ? { acquirerReference: d.acquirerReference } : {}),
      ...(d.termUrlTarget ? { termUrlTarget: d.termUrlTarget } : {}),
      ...(d.parameters ? { parameters: d.parameters } : {}),
    };
  }
  // Every other event needs an existing payment; a stray one is ignored rather than crashing a replay.
  if (!state.exists) return state;
  const s = event.type === 'PaymentSettled' || event.type === 'PaymentAuthorized' || event.type === 'PaymentDeclined' ? decidedStep(state) : state;
  switch (event.type) {
    case 'PaymentSettled':
      return {
        ...s,
        phase: 'settled',
        status: 'SETTLED',
        descriptor: event.data.descriptor,
        settledAmount: event.data.amount,
        payerAction: null,
        settledAt: event.data.settledAt,
        updatedAt: event.data.settledAt,
        ...references(event.data),
        ...connectorReference(event.data),
        ...payerReturn(event.data),
        ...chainToken(s, event.data),
        ...extras(event.data),
      };
    case 'PaymentAuthorized':
      return {
        ...s,
        phase: 'authorized',
        status: 'PENDING',
        descriptor: event.data.descriptor,
        heldAmount: event.data.amount,
        payerAction: null,
        updatedAt: event.data.authorizedAt,
        ...references(event.data),
        ...connectorReference(event.data),
        ...payerReturn(event.data),
        ...chainToken(s, event.data),
        ...extras(event.data),
      };
    case 'PaymentDeclined':
      return {
        ...s,
        phase: 'declined',
        status: 'DECLINED',
        declineReason: event.data.reason,
        declineCode: event.data.code,
        payerAction: null,
        updatedAt: event.data.declinedAt,
        ...payerReturn(event.data),
        ...connectorReference(event.data),
      };
    case 'PaymentCascaded': {
      // The next connector starts afresh: the declining one's reference is not quoted to it.
      const { acquirerReference: _declined, ...rest } = s;
      return {
        ...rest,
        connector: event.data.toConnector,
        cascadedFrom: [...(s.cascadedFrom ?? []), event.data.fromConnector],
        updatedAt: event.data.cascadedAt,
      };
    }
    case 'ThreeDSChallengeRequired':
      return {
        ...s,
        phase: 'awaiting_3ds',
        status: '3DS',
        payerAction: { kind: '3ds', url: event.data.acsUrl, params: { ...event.data.params } },
        lastPayerAction: '3ds',
        updatedAt: event.data.requiredAt,
        ...connectorReference(event.data),
      };
    case 'PayerRedirectRequired': {
      const qr = event.data.display === 'qr';
      return {
        ...s,
        phase: 'awaiting_redirect',
        // A QR code is shown, not followed: the payment waits on the payer's bank (REDIRECT/PENDING).
        status: qr ? 'PENDING' : 'REDIRECT',
        payerAction: {
          kind: 'redirect',
          url: event.data.redirectUrl,
          params: { ...(event.data.params ?? {}) },
          ...(qr ? { display: 'qr' as const } : {}),
          ...(event.data.collects ? { collects: event.data.collects } : {}),
        },
        lastPayerAction: 'redirect',
        updatedAt: event.data.requiredAt,
        ...(event.data.expiresAt ? { expiresAt: event.data.expiresAt } : {}),
        ...(event.data.instructions ? { providerInstructions: { ...event.data.instructions } } : {}),
        ...connectorReference(event.data),
      };
    }
    case 'PaymentPending':
      return {
        ...s,
        phase: 'awaiting_provider',
        // A payout its provider decides later is answered UNDEFINED/PREPARE (docs/reference/s2s-apm.md#credit2virtual).
        status: s.kind === 'credit' && s.method ? 'PREPARE' : 'PENDING',
        payerAction: null,
        updatedAt: event.data.pendingAt,
        ...(event.data.instructions ? { providerInstructions: { ...event.data.instructions } } : {}),
        ...(event.data.expiresAt ? { expiresAt: event.data.expiresAt } : {}),
        ...connectorReference(event.data),
      };
    case 'PaymentOutcomeUnknown':
      return { ...s, phase: 'outcome_unknown', status: s.method ? 'PREPARE' : 'PENDING', updatedAt: event.data.at, ...payerReturn(event.data) };
    case 'CaptureRequested':
      return {
        ...s,
        pendingOperation: {
          operationId: event.data.operationId,
          kind: 'capture',
          amount: event.data.amount,
          amountText: event.data.amountText,
        },
        updatedAt: event.data.requestedAt,
      };
    case 'CaptureSucceeded':
      return {
        ...s,
        pendingOperation: null,
        phase: 'settled',
        status: 'SETTLED',
        // The uncaptured rest of a partial capture is released: one capture per authorization.
        heldAmount: 0,
        settledAmount: s.settledAmount + event.data.amount,
        settledAt: event.data.capturedAt,
        updatedAt: event.data.capturedAt,
        ...references(event.data),
      };
    case 'CaptureDeclined':
      return { ...s, pendingOperation: null, updatedAt: event.data.declinedAt };
    case 'VoidRequested':
      return {
        ...s,
        pendingOperation: {
          operationId: event.data.operationId,
          kind: 'void',
          amount: event.data.amount,
          amountText: formatMinor(event.data.amount, s.currency),
        },
        updatedAt: event.data.requestedAt,
      };
    case 'VoidDeclined':
      return { ...s, pendingOperation: null, updatedAt: event.data.declinedAt };
    case 'PaymentVoided':
      return { ...s, phase: 'voided', status: 'VOID', pendingOperation: null, updatedAt: event.data.voidedAt };
    case 'CreditVoidRequested':
      return {
        ...s,
        pendingOperation: {
          operationId: event.data.operationId,
          kind: event.data.kind,
          amount: event.data.amount,
          amountText: event.data.amountText,
        },
        updatedAt: event.data.requestedAt,
      };
    case 'RefundSucceeded': {
      const refunded = s.refundedAmount + event.data.amount;
      const full = refunded >= s.settledAmount;
      return {
        ...s,
        refundedAmount: refunded,
        phase: full ? 'refunded' : s.phase,
        status: full ? 'REFUND' : s.status,
        pendingOperation: null,
        updatedAt: event.data.refundedAt,
      };
    }
    case 'RefundDeclined':
      return { ...s, pendingOperation: null, updatedAt: event.data.declinedAt };
    case 'AuthorizationReversed': {
      const held = Math.max(0, s.heldAmount - event.data.amount);
      return {
        ...s,
        heldAmount: held,
        reversedAmount: s.reversedAmount + event.data.amount,
        phase: held === 0 ? 'reversed' : s.phase,
        status: held === 0 ? 'REVERSAL' : s.status,
        pendingOperation: null,
        updatedAt: event.data.reversedAt,
      };
    }
    case 'ReversalDeclined':
      return { ...s, pendingOperation: null, updatedAt: event.data.declinedAt };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** Once the payment is decided, the payer's step and its deadline are over. */
function decidedStep(s: ExistingPayment): ExistingPayment {
  if (s.expiresAt === undefined && s.providerInstructions === undefined) return s;
  const { expiresAt: _expiresAt, providerInstructions: _instructions, ...rest } = s;
  return rest;
}

function connectorReference(d: { reference?: string }): { acquirerReference?: string } {
  return d.reference !== undefined ? { acquirerReference: d.reference } : {};
}

/** Only what the event carries: an event without a reference keeps the one recorded before. */
function references(d: { rrn?: string; arn?: string }): { rrn?: string; arn?: string } {
  return { ...(d.rrn !== undefined ? { rrn: d.rrn } : {}), ...(d.arn !== undefined ? { arn: d.arn } : {}) };
}

/**
 * A successful initial payment opens its chain: the token is the connector's card-on-file
 * reference when the merchant asked for one (card_on_file_support), else the gateway's own.
 */
function chainToken(s: ExistingPayment, d: { cardOnFileId?: string }): { recurringToken?: string } {
  if (s.recurring?.role !== 'initial') return {};
  const token = d.cardOnFileId ?? s.recurring.token;
  return token ? { recurringToken: token } : {};
}

function extras(d: SettlementExtras): SettlementExtras {
  return { ...(d.conversion ? { conversion: d.conversion } : {}), ...(d.extendedData ? { extendedData: d.extendedData } : {}) };
}

function payerReturn(d: PayerReturnData): PayerReturnData {
  return { ...(d.threeDS ? { threeDS: d.threeDS } : {}), ...(d.browser ? { browser: d.browser } : {}) };
}

export const foldPayment = (events: readonly PaymentEvent[]): PaymentState =>
  events.reduce(evolvePayment, initialPaymentState());
