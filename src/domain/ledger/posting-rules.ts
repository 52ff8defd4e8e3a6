/**
 * Posting rules: which money (or hold) each payment event moves between the ledger's accounts.
 * Pure and total like `evolvePayment`, but derived from the event amounts alone, independently of
 * the payment fold, so comparing the two catches a mistake in either.
 *
 * One event gives at most one posting set: a list of lines whose amounts sum to zero. Events that
 * move nothing (intents, declines, payer actions, a provider's pending acceptance, unknown outcomes)
 * give an empty list. A payment made with an alternative method posts exactly as a card payment does:
 * `payer_funds` and `payer_holds` stand for the payer's side, whatever the payer paid with.
 */
import type { PaymentEvent, PaymentKind } from '../payment/events';
import type { LedgerAccount } from './accounts';

export interface PostingLine {
  account: LedgerAccount;
  /** Signed minor units: positive adds to the account's balance, negative takes from it. */
  amount: number;
}

/** Whether the acquirer approved the payment's authorization or sale (or has not said yet). */
export type LedgerOutcome = 'pending' | 'approved' | 'declined';

/** What the rules need to remember about one payment between its events. */
export interface LedgerPayment {
  paymentId: string;
  merchantId: string;
  currency: string;
  kind: PaymentKind;
  initiatedAt: string;
  outcome: LedgerOutcome;
  /** Business time of the approval or decline; null while pending. */
  decidedAt: string | null;
  /** The hold still open on the payer's card: the payment's `authorized_holds` balance. */
  heldAmount: number;
}

export interface PostingResult {
  /** The payment after the event; null when the event concerns a payment the ledger never saw. */
  payment: LedgerPayment | null;
  lines: PostingLine[];
  /** Business time of the event, which dates its postings. */
  occurredAt: string;
}

/** Money moving from the payer's card to the merchant (a sale or capture), or back (negative). */
const funds = (toMerchant: number): PostingLine[] => [
  { account: 'payer_funds', amount: -toMerchant },
  { account: 'merchant_receivable', amount: toMerchant },
];

/** Money the merchant pays out to a payee: on an account of its own, apart from refunds and voids. */
const paidOut = (amount: number): PostingLine[] => [
  { account: 'merchant_receivable', amount: -amount },
  { account: 'paid_out', amount },
];

/** A hold placed on the payer's card, or released (negative). */
const hold = (placed: number): PostingLine[] => [
  { account: 'payer_holds', amount: -placed },
  { account: 'authorized_holds', amount: placed },
];

/**
 * An operator's top-up of the merchant's payout balance (`PayoutBalanceToppedUp`, on the stream
 * `payout-balance-<merchant>-<currency>`): money brought in from outside the payments, which the
 * merchant may pay out. It is no payment's, so it posts by itself, dated when it was made.
 */
export function postTopUp(topUp: { amount: number }): PostingLine[] {
  return nonZero([
    { account: 'topped_up', amount: -topUp.amount },
    { account: 'merchant_receivable', amount: topUp.amount },
  ]);
}

/** Lines of zero move nothing and would only clutter the postings. */
const nonZero = (lines: PostingLine[]): PostingLine[] => lines.filter((line) => line.amount !== 0);

/** Business time an event carries, whatever its field is called. */
export function occurredAtOf(event: PaymentEvent): string {
  switch (event.type) {
    case 'PaymentInitiated':
      return event.data.initiatedAt;
    case 'PaymentSettled':
      return event.data.settledAt;
    case 'PaymentAuthorized':
      return event.data.authorizedAt;
    case 'PaymentDeclined':
      return event.data.declinedAt;
    case 'PaymentCascaded':
      return event.data.cascadedAt;
    case 'ThreeDSChallengeRequired':
    case 'PayerRedirectRequired':
      return event.data.requiredAt;
    case 'PaymentPending':
      return event.data.pendingAt;
    case 'PaymentOutcomeUnknown':
      return event.data.at;
    case 'CaptureRequested':
    case 'VoidRequested':
    case 'CreditVoidRequested':
      return event.data.requestedAt;
    case 'CaptureSucceeded':
      return event.data.capturedAt;
    case 'PaymentVoided':
      return event.data.voidedAt;
    case 'RefundSucceeded':
      return event.data.refundedAt;
    case 'AuthorizationReversed':
      return event.data.reversedAt;
    case 'CaptureDeclined':
    case 'VoidDeclined':
    case 'RefundDeclined':
    case 'ReversalDeclined':
      return event.data.declinedAt;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

type PaymentEventOf<T extends PaymentEvent['type']> = Extract<PaymentEvent, { type: T }>;
/** The payment after the event and the lines it posts, for a payment the ledger knows. */
type Rule<T extends PaymentEvent['type']> = (p: LedgerPayment, event: PaymentEventOf<T>, at: string) => Omit<PostingResult, 'occurredAt'>;

const movesNothing = (p: LedgerPayment): Omit<PostingResult, 'occurredAt'> => ({ payment: p, lines: [] });

/** One rule per event type after the payment's PaymentInitiated, which introduces it (see postEvent). */
const RULES: { readonly [T in Exclude<PaymentEvent['type'], 'PaymentInitiated'>]: Rule<T> } = {
  // A credit (a payout: CREDIT2VIRTUAL or a card credit) pays the merchant's money out to a payee.
  PaymentSettled: (p, { data }, at) => ({
    payment: decided(p, 'approved', at),
    lines: nonZero(p.kind === 'credit' ? paidOut(data.amount) : funds(data.amount)),
  }),
  // The hold becomes the authorized amount (an earlier hold, if any, is replaced, as in the fold).
  PaymentAuthorized: (p, { data }, at) => ({
    payment: { ...decided(p, 'approved', at), heldAmount: data.amount },
    lines: nonZero(hold(data.amount - p.heldAmount)),
  }),
  PaymentDeclined: (p, _event, at) => ({ payment: decided(p, 'declined', at), lines: [] }),
  // One capture per authorization: the whole hold closes and the uncaptured rest is released.
  CaptureSucceeded: (p, { data }) => ({
    payment: { ...p, heldAmount: 0 },
    lines: nonZero([...hold(-p.heldAmount), ...funds(data.amount)]),
  }),
  AuthorizationReversed: (p, { data }) => {
    // Never release more than is held, so authorized_holds cannot go negative.
    const released = Math.min(data.amount, p.heldAmount);
    return { payment: { ...p, heldAmount: p.heldAmount - released }, lines: nonZero(hold(-released)) };
  },
  PaymentVoided: (p, { data }) => ({ payment: p, lines: nonZero(funds(-data.amount)) }),
  RefundSucceeded: (p, { data }) => ({ payment: p, lines: nonZero(funds(-data.amount)) }),
  PaymentCascaded: movesNothing,
  ThreeDSChallengeRequired: movesNothing,
  PayerRedirectRequired: movesNothing,
  PaymentPending: movesNothing,
  PaymentOutcomeUnknown: movesNothing,
  CaptureRequested: movesNothing,
  CaptureDeclined: movesNothing,
  VoidRequested: movesNothing,
  VoidDeclined: movesNothing,
  CreditVoidRequested: movesNothing,
  RefundDeclined: movesNothing,
  ReversalDeclined: movesNothing,
};

/** What the ledger remembers of a payment from its PaymentInitiated. */
function introduced(d: PaymentEventOf<'PaymentInitiated'>['data']): LedgerPayment {
  return {
    paymentId: d.paymentId,
    merchantId: d.merchantId,
    currency: d.currency,
    kind: d.kind,
    initiatedAt: d.initiatedAt,
    outcome: 'pending',
    decidedAt: null,
    heldAmount: 0,
  };
}

/**
 * Applies one event of a payment. `payment` is what the ledger knew before (null for a payment it
 * has not seen, which only PaymentInitiated may introduce).
 */
export function postEvent(payment: LedgerPayment | null, event: PaymentEvent): PostingResult {
  const at = occurredAtOf(event);
  // A replayed PaymentInitiated must not reset what the ledger already holds for the payment.
  if (event.type === 'PaymentInitiated') return { payment: payment ?? introduced(event.data), lines: [], occurredAt: at };
  if (!payment) return { payment: null, lines: [], occurredAt: at };
  const rule = RULES[event.type] as Rule<typeof event.type>;
  return { ...rule(payment, event, at), occurredAt: at };
}

function decided(p: LedgerPayment, outcome: 'approved' | 'declined', at: string): LedgerPayment {
  // The first decision counts: a payment is approved or declined once.
  if (p.outcome !== 'pending') return p;
  return { ...p, outcome, decidedAt: at };
}
