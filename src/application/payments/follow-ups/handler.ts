/**
 * CAPTURE, VOID, CREDITVOID and Checkout refund: the intent is recorded first (so two concurrent
 * requests can never both reach the connector), then the connector that holds the payment is asked
 * with its own reference, then its answer is recorded.
 */
import { newId } from '../../new-id';
import { DomainError } from '../../../domain/errors';
import type { PaymentCommand } from '../../../domain/payment/commands';
import type { PaymentEvent } from '../../../domain/payment/events';
import { connectorOf, type ExistingPayment, type PaymentState } from '../../../domain/payment/state';
import type { HandleResult } from '../../command-handler';
import type { FollowUpRequest } from '../../ports/connector';
import { callFollowUp } from '../connector-calls';
import type { PaymentDeps } from '../deps';
import { existing } from '../existing';
import { paymentStream } from '../payment-stream';

type Result = HandleResult<PaymentState, PaymentEvent>;
type Money = { minor: number; text: string };

/** A command of the merchant on its own payment; another merchant's payment is indistinguishable from a missing one. */
async function command(
  deps: PaymentDeps,
  merchantId: string,
  paymentId: string,
  correlationId: string,
  cmd: PaymentCommand | ((state: PaymentState) => PaymentCommand),
  known?: Result,
): Promise<Result> {
  const stream = paymentStream(deps.store);
  const loaded = known ? { state: known.state, version: known.version } : await stream.load(paymentId);
  if (!loaded.state.exists || loaded.state.merchantId !== merchantId) throw new DomainError('payment_not_found', 'Payment not found.');
  return stream.handle(paymentId, cmd, { correlationId, causationId: correlationId }, loaded);
}

/** Whether the connector holding the payment takes refunds through its API (a capability, checked before it is asked). */
function refundsViaApiOf(deps: PaymentDeps, state: PaymentState): boolean {
  return !state.exists || (deps.connectors.get(connectorOf(state))?.capabilities.refundsViaApi ?? true);
}

/** What the connector is told about the pending operation of `s`. */
function followUpOf(s: ExistingPayment, operationId: string): FollowUpRequest {
  return { paymentId: s.paymentId, operationId, reference: s.acquirerReference ?? '', amount: s.pendingOperation!.amount, currency: s.currency };
}

const now = (deps: PaymentDeps) => deps.clock.now().toISOString();

export async function capture(deps: PaymentDeps, merchantId: string, paymentId: string, amount: Money | null, correlationId: string) {
  const operationId = newId();
  const requested = await command(deps, merchantId, paymentId, correlationId, {
    type: 'RequestCapture',
    data: { operationId, amount: amount?.minor, amountText: amount?.text, now: now(deps) },
  });
  const s = existing(requested.state);
  const outcome = await callFollowUp(deps, connectorOf(s), correlationId, (c) => c.capture(followUpOf(s, operationId)));
  const recorded = await command(deps, merchantId, paymentId, correlationId, { type: 'RecordCapture', data: { operationId, result: outcome, now: now(deps) } }, requested);
  return { payment: existing(recorded.state), operationId, outcome, amountText: s.pendingOperation!.amountText };
}

export async function voidPayment(deps: PaymentDeps, merchantId: string, paymentId: string, correlationId: string) {
  const operationId = newId();
  const requested = await command(deps, merchantId, paymentId, correlationId, { type: 'RequestVoid', data: { operationId, now: now(deps) } });
  const s = existing(requested.state);
  const outcome = await callFollowUp(deps, connectorOf(s), correlationId, (c) => c.void(followUpOf(s, operationId)));
  const recorded = await command(deps, merchantId, paymentId, correlationId, { type: 'RecordVoid', data: { operationId, result: outcome, now: now(deps) } }, requested);
  return { payment: existing(recorded.state), operationId, outcome };
}

/**
 * CREDITVOID: a refund of a settled payment or the release of a hold, by the state it finds. With
 * `refundOnly` (Checkout refund), settled money only: a hold is never "refunded".
 */
export async function creditVoid(
  deps: PaymentDeps,
  merchantId: string,
  paymentId: string,
  amount: Money,
  refundsEnabled: boolean,
  correlationId: string,
  { refundOnly = false }: { refundOnly?: boolean } = {},
) {
  const operationId = newId();
  const requested = await command(deps, merchantId, paymentId, correlationId, (state) => {
    const data = { operationId, amount: amount.minor, amountText: amount.text, refundsEnabled, refundsViaApi: refundsViaApiOf(deps, state), now: now(deps) };
    return refundOnly ? { type: 'RequestRefund', data } : { type: 'RequestCreditVoid', data };
  });
  const s = existing(requested.state);
  const op = s.pendingOperation!;
  const request = followUpOf(s, operationId);
  const outcome = await callFollowUp(deps, connectorOf(s), correlationId, (c) => (op.kind === 'refund' ? c.refund(request) : c.reverse(request)));
  const recorded = await command(deps, merchantId, paymentId, correlationId, { type: 'RecordCreditVoid', data: { operationId, result: outcome, now: now(deps) } }, requested);
  return { payment: existing(recorded.state), operationId, kind: op.kind, outcome };
}
