/**
 * Checkout operations on a payment (docs/reference/checkout.md#capture-void-refund): status, capture, void, refund. Each runs
 * after the common checks and its schema: then the hash, then existence, then business rules.
 *
 * They answer for every payment of the merchant, S2S ones included: an order id is one
 * uniqueness key per merchant across both APIs, so there is one set of payments to look at,
 * and another merchant's payment is indistinguishable from a missing one. A session the payer
 * has not paid yet has no payment, so its order number is `Order does not exist.` until then.
 *
 * Capture, void and refund call the acquirer synchronously, so each answers with the outcome it
 * got (`success`, `decline` with its `reason`, or `accepted` when the acquirer's answer was lost
 * and reconciliation will settle it); the callback follows either way.
 */
import type { PaymentService } from '../../application/payments';
import type { PaymentReadModel } from '../../application/ports/payment-read-model';
import { orderStatusOf } from '../../domain/checkout/order-status';
import { DomainError } from '../../domain/errors';
import { formatMinor, parseAmount } from '../../domain/money';
import type { FollowUpResult } from '../../domain/payment/commands';
import type { ExistingPayment } from '../../domain/payment/state';
import { checkoutHash } from '../../domain/signatures';
import { throwApiError } from '../domain-errors';
import { ApiError, errors, type FieldError } from '../errors';
import type { CheckoutRequest } from './merchant-request';
import { requireHash } from '../require-hash';
import { checkoutPaymentStatus } from './status-response';

export interface OperationDeps {
  payments: PaymentService;
  readModels: PaymentReadModel;
}

export const MAX_STATUS_SIZE = 100;

const paymentDoesNotExist = () => new ApiError(400, 101000, 'Payment does not exist.');
const sizeOutOfRange = () => new ApiError(400, 100000, `size should be within 1..${MAX_STATUS_SIZE}`);

/** `size` as a number; NaN when it is not an integer at all (a field error, not a range error). */
function sizeOf(value: unknown): number {
  if (typeof value === 'number') return Number.isInteger(value) ? value : NaN;
  return typeof value === 'string' && /^[+-]?\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : NaN;
}

/** The payment from its stream (the source of truth), when it is this merchant's. */
async function merchantPayment(deps: OperationDeps, merchantId: string, paymentId: string): Promise<ExistingPayment | null> {
  try {
    const p = await deps.payments.current(paymentId);
    return p.merchantId === merchantId ? p : null;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'payment_not_found') return null;
    throw error;
  }
}

export async function paymentStatus(deps: OperationDeps, { body, merchant }: CheckoutRequest, schemaErrors: FieldError[]) {
  const problems = [...schemaErrors];
  const byPayment = body.payment_id !== undefined;
  const byOrder = body.order_id !== undefined;
  if (byPayment && byOrder) problems.push(errors.field('order_id', 'Send either payment_id or order_id, not both.'));
  if (!byPayment && !byOrder) problems.push(errors.field('payment_id', 'Send payment_id or order_id.'));
  let size: number | null = null;
  if (body.size !== undefined) {
    if (byPayment) problems.push(errors.field('size', 'This field is only accepted with order_id.'));
    size = sizeOf(body.size);
    const shapeReported = schemaErrors.some((e) => e.error_message.startsWith('size:'));
    if (Number.isNaN(size) && !shapeReported) problems.push(errors.field('size', 'This value should be an integer.'));
  }
  if (problems.length) throw errors.invalid(problems);
  if (size !== null && (size < 1 || size > MAX_STATUS_SIZE)) throw sizeOutOfRange();

  const key = String(byPayment ? body.payment_id : body.order_id);
  requireHash(body.hash, checkoutHash([key], merchant.password));
  if (byPayment) {
    // The payment's own stream holds every write to it once that write is answered: nothing to wait
    // for, where the read model would first catch up with the head of the whole store.
    const payment = await merchantPayment(deps, merchant.merchantId, key);
    if (!payment) throw paymentDoesNotExist();
    return checkoutPaymentStatus(payment, merchant.protocolMapping);
  }
  // Only the read model finds a payment by its order.
  await deps.readModels.catchUpToHead();
  const rows = await deps.readModels.paymentsByOrder(merchant.merchantId, key, size ?? 1);
  if (rows.length === 0) throw errors.orderNotFound();
  const statuses = rows.map((row) => checkoutPaymentStatus(row.state, merchant.protocolMapping));
  // Without `size` one object; with it (even 1) an array, newest first.
  return size === null ? statuses[0] : statuses;
}

/** `amount` exactly as sent when it is the whole order amount (hash input elsewhere), else formatted. */
const amountTextOf = (p: ExistingPayment, minor: number): string => (minor === p.amount ? p.amountText : formatMinor(minor, p.currency));

function amountOf(body: CheckoutRequest['body'], p: ExistingPayment): { minor: number; text: string } {
  const text = String(body.amount);
  const parsed = parseAmount(text, p.currency);
  if (!parsed.ok) throw errors.invalid([errors.field('amount', parsed.reason)]);
  return { minor: parsed.minor, text };
}

function operationResponse(after: ExistingPayment, outcome: FollowUpResult, amountText: string): Record<string, unknown> {
  const result = outcome.outcome === 'success' ? 'success' : outcome.outcome === 'declined' ? 'decline' : 'accepted';
  const body: Record<string, unknown> = { payment_id: after.paymentId, result, status: orderStatusOf(after.phase), amount: amountText };
  if (outcome.outcome === 'declined') body.reason = outcome.reason;
  return body;
}

async function existingPayment(deps: OperationDeps, { body, merchant }: CheckoutRequest): Promise<ExistingPayment> {
  const payment = await merchantPayment(deps, merchant.merchantId, String(body.payment_id));
  if (!payment) throw errors.paymentNotFound();
  return payment;
}

export async function capturePayment(deps: OperationDeps, request: CheckoutRequest) {
  const { body, merchant, requestId } = request;
  requireHash(body.hash, checkoutHash([String(body.payment_id), String(body.amount)], merchant.password));
  const payment = await existingPayment(deps, request);
  const amount = amountOf(body, payment);
  try {
    const { payment: after, outcome, amountText } = await deps.payments.capture(merchant.merchantId, payment.paymentId, amount, requestId);
    return operationResponse(after, outcome, amountText);
  } catch (error) {
    throwApiError(error);
  }
}

/**
 * Cancels settled money (a sale, debit or capture not refunded), or releases a pending
 * authorization's hold, since Checkout has no other way to release it. Either is a void in
 * Checkout's words (status `void`, callback `type=void`): the clients release holds with it and
 * wait for `type=void`. The S2S API still calls a released hold `REVERSAL`.
 */
export async function voidPayment(deps: OperationDeps, request: CheckoutRequest) {
  const { body, merchant, requestId } = request;
  requireHash(body.hash, checkoutHash([String(body.payment_id)], merchant.password));
  const payment = await existingPayment(deps, request);
  try {
    if (payment.phase === 'authorized') {
      const held = { minor: payment.heldAmount, text: amountTextOf(payment, payment.heldAmount) };
      // Refunds off: should the hold have been captured meanwhile, this refuses instead of refunding.
      const { payment: after, outcome } = await deps.payments.creditVoid(merchant.merchantId, payment.paymentId, held, false, requestId);
      return operationResponse(after, outcome, held.text);
    }
    const { payment: after, outcome } = await deps.payments.void(merchant.merchantId, payment.paymentId, requestId);
    return operationResponse(after, outcome, amountTextOf(payment, payment.settledAmount));
  } catch (error) {
    throwApiError(error, { refund_not_allowed: errors.voidNotAllowed, amount_not_positive: errors.voidNotAllowed });
  }
}

/**
 * Settled money only, full or partial, where the merchant has refunds enabled. Each refusal has the
 * spec's own code (docs/api-notes.md), the same as S2S CREDITVOID's: refunds switched off for the
 * MID, or a payment that is not settled (a hold, a decline, one voided or refunded in full),
 * `100000 Refund is not allowed`; a payout, which has nothing to refund, `204005 Payment action not
 * supported`; an acquirer that takes refunds in its portal only `210002`.
 */
export async function refundPayment(deps: OperationDeps, request: CheckoutRequest) {
  const { body, merchant, requestId } = request;
  requireHash(body.hash, checkoutHash([String(body.payment_id), String(body.amount)], merchant.password));
  const payment = await existingPayment(deps, request);
  const amount = amountOf(body, payment);
  if (!merchant.refundsEnabled) throw errors.refundNotAllowed();
  if (payment.kind === 'credit') throw errors.actionNotSupported();
  if (payment.phase !== 'settled') throw errors.refundNotAllowed();
  try {
    const { payment: after, outcome } = await deps.payments.refund(merchant.merchantId, payment.paymentId, amount, merchant.refundsEnabled, requestId);
    return operationResponse(after, outcome, amount.text);
  } catch (error) {
    throwApiError(error);
  }
}
