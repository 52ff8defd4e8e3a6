/**
 * Settles what a lost connector answer left open: an authorization still `initiated` (the process
 * stopped before recording the answer) or `outcome_unknown`, or a requested capture, void, refund
 * or reversal with no recorded outcome. The connector is asked what happened; nothing is re-sent.
 */
import { connectorOf } from '../../../domain/payment/state';
import { callConnector, callFollowUp, statusRequestOf, toAuthorizationResult } from '../connector-calls';
import type { PaymentDeps } from '../deps';
import { paymentStream } from '../payment-stream';

export async function reconcile(deps: PaymentDeps, paymentId: string): Promise<'authorization' | 'operation' | 'nothing'> {
  const stream = paymentStream(deps.store);
  const { state, version } = await stream.load(paymentId);
  if (!state.exists) return 'nothing';
  const metadata = { correlationId: `reconcile-${paymentId}`, causationId: `reconcile-${paymentId}` };
  const now = () => deps.clock.now().toISOString();
  const name = connectorOf(state);
  if (state.phase === 'initiated' || state.phase === 'outcome_unknown') {
    const outcome = await callConnector(deps, name, metadata.correlationId, (c) => c.status(statusRequestOf(state, deps.baseUrl)));
    await stream.handle(paymentId, { type: 'RecordAuthorization', data: { result: toAuthorizationResult(outcome), now: now() } }, metadata, { state, version });
    return 'authorization';
  }
  const op = state.pendingOperation;
  if (!op) return 'nothing';
  const result = await callFollowUp(deps, name, metadata.correlationId, (c) =>
    c.followUpStatus(op.kind, { paymentId, operationId: op.operationId, reference: state.acquirerReference ?? '', amount: op.amount, currency: state.currency }),
  );
  const data = { operationId: op.operationId, result, now: now() };
  const command =
    op.kind === 'capture'
      ? ({ type: 'RecordCapture', data } as const)
      : op.kind === 'void'
        ? ({ type: 'RecordVoid', data } as const)
        : ({ type: 'RecordCreditVoid', data } as const);
  await stream.handle(paymentId, command, metadata, { state, version });
  return 'operation';
}
