/**
 * A chain's later charges: RECURRING_SALE, RECURRING_DEBIT and Checkout recurring (the merchant
 * asks), and the scheduler's automatic payments. Each is a new payment of the chain's stored card,
 * without the payer, with the connector that holds the chain.
 */
import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../../domain/errors';
import type { CardSource, PaymentKind } from '../../../domain/payment/events';
import type { ExistingPayment } from '../../../domain/payment/state';
import type { PaymentDeps } from '../deps';
import { paymentStream } from '../payment-stream';
import { sale } from '../sale/handler';
import { startPayment, type Claim } from '../start-payment/handler';
import type { RecurringChain, RecurringRequest, SaleResult, ScheduledPaymentRequest } from '../types';

/**
 * The chain a merchant-initiated charge refers to: the merchant's own initial payment, succeeded,
 * whose token matches (compared in constant time). Anything else is `Incorrect transaction`, so a
 * guessed or borrowed pair tells nothing about which part was wrong.
 */
export async function recurringChain(
  deps: PaymentDeps,
  merchantId: string,
  initPaymentId: string,
  token: string,
  /** `any` on Checkout, whose one recurring operation serves sale and debit chains. */
  kind: 'sale' | 'debit' | 'any',
): Promise<RecurringChain> {
  const incorrect = () => new DomainError('incorrect_transaction', 'Incorrect transaction');
  const { state } = await paymentStream(deps.store).load(initPaymentId);
  if (!state.exists || state.merchantId !== merchantId) throw incorrect();
  if (state.recurring?.role !== 'initial' || !state.recurringToken || !state.card?.token) throw incorrect();
  if (!sameText(state.recurringToken, token)) throw incorrect();
  // A debit chain is charged by debits, a sale chain by sales.
  if (kind !== 'any' && (state.kind === 'debit') !== (kind === 'debit')) throw incorrect();
  return state as RecurringChain;
}

/** RECURRING_SALE, RECURRING_DEBIT and Checkout recurring: a new payment of the stored card, without the payer. */
export function recurringPayment(deps: PaymentDeps, chain: RecurringChain, request: RecurringRequest): Promise<SaleResult> {
  return sale(deps, {
    ...chainCharge(chain, request),
    channel: request.channel,
    notificationUrl: request.notificationUrl ?? chain.notificationUrl,
    customData: request.customData,
    link: { role: 'recurring', initPaymentId: chain.paymentId },
    ...(request.schedule ? { schedule: request.schedule } : {}),
  });
}

/**
 * An automatic payment. `claim` is the chain's ScheduledPaymentStarted at the version the scheduler
 * read; it commits with the payment (where the store can), so a due date is charged once whichever
 * scheduler gets there first.
 */
export function startScheduledPayment(
  deps: PaymentDeps,
  request: ScheduledPaymentRequest,
  /** Null when the claim is already recorded and only its payment is missing. */
  claim: Claim | null,
): Promise<ExistingPayment> {
  const { chain } = request;
  return startPayment(
    deps,
    {
      ...chainCharge(chain, request),
      notificationUrl: request.notificationUrl,
      customData: null,
      link: { role: 'scheduled', initPaymentId: chain.paymentId, scheduleId: request.scheduleId, sequence: request.sequence, dueDate: request.dueDate },
    },
    request.paymentId,
    claim,
    chain.channel === 'checkout' ? 'checkout' : 's2s_card',
  );
}

/**
 * What every later charge of a chain shares: the chain's stored card, payer and currency, no payer
 * present, and callbacks signed the way the chain's first payment's were.
 */
function chainCharge(
  chain: RecurringChain,
  request: { kind: PaymentKind; orderId: string; orderDescription: string; amount: number; amountText: string; correlationId: string },
) {
  return {
    merchantId: chain.merchantId,
    kind: request.kind,
    orderId: request.orderId,
    orderDescription: request.orderDescription,
    currency: chain.currency,
    amount: request.amount,
    amountText: request.amountText,
    card: { kind: 'token' as const, token: chain.card!.token! },
    payer: chain.payer,
    termUrl3ds: null,
    parameters: null,
    recurringInit: false,
    storeCard: false,
    correlationId: request.correlationId,
    cardSource: chain.cardSource ?? ('card_number' as CardSource),
    payerPresent: false,
    chain,
  };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
