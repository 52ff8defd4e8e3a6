/**
 * `GET_TRANS_STATUS` and `GET_TRANS_STATUS_BY_ORDER`: safe to repeat, read from the read models.
 * A lookup by `trans_id` is checked with the hash formula of the protocol that made the payment and
 * answered in that protocol's shape (S2S CARD, or S2S APM: decisions.md §7).
 */
import { apmTransIdHash, orderIdHash } from '../../../domain/signatures';
import { errors } from '../../errors';
import { requireHash } from '../../require-hash';
import { apmStatusResponse } from '../apm-responses';
import { statusResponse, viewOf, type PaymentView } from '../responses';
import type { ActionContext, S2sDeps } from '../s2s-action';
import { currentPayment } from './follow-ups';
import { protocolOf, requireFollowUpHash } from './protocol';

export async function transStatus(deps: S2sDeps, { form, merchant }: ActionContext) {
  const transId = form.trans_id as string;
  const caughtUp = await deps.queries.catchUpToHead();
  const found = await deps.queries.paymentView(transId);
  let view: PaymentView | null = found && found.merchantId === merchant.merchantId ? found : null;
  // Read models behind (projector stopped or slow): the stream itself still knows the payment.
  if (!view && !caughtUp) {
    const payment = await currentPayment(deps, merchant, transId);
    if (payment) view = viewOf(payment);
  }
  const protocol = view && protocolOf(view);
  requireFollowUpHash(form, merchant, protocol, apmTransIdHash);
  if (!view) throw errors.transactionNotFound();
  return protocol === 'apm' ? apmStatusResponse(view, merchant.protocolMapping) : statusResponse('GET_TRANS_STATUS', view, merchant.protocolMapping);
}

export async function transStatusByOrder(deps: S2sDeps, { form, merchant }: ActionContext) {
  const orderId = form.order_id as string;
  requireHash(form.hash, orderIdHash(orderId, merchant.password));
  await deps.queries.catchUpToHead();
  const view = await deps.queries.latestPaymentViewByOrder(merchant.merchantId, orderId);
  if (!view) throw errors.orderNotFound();
  return statusResponse('GET_TRANS_STATUS_BY_ORDER', view, merchant.protocolMapping);
}
