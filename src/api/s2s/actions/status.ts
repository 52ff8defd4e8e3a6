/**
 * `GET_TRANS_STATUS` and `GET_TRANS_STATUS_BY_ORDER`: safe to repeat. A lookup by `trans_id` is
 * checked with the hash formula of the protocol that made the payment and answered in that
 * protocol's shape (S2S CARD, or S2S APM: docs/reference/s2s-apm.md#follow-ups); a lookup by
 * `order_id` answers in the shape of the protocol that made the payment it finds, alike.
 *
 * By `trans_id` the answer is the payment's own stream, folded: it holds every write to the payment
 * the moment that write is answered, so the lookup waits for nothing. The read model would first
 * have to catch up with the head of the whole store (a merchant's lookup right after its SALE spent
 * half its time there). By `order_id` only the read model can find the payment: it waits for it.
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
  const payment = await currentPayment(deps, merchant, transId);
  const view: PaymentView | null = payment && viewOf(payment);
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
  // One shape per payment whichever way it is looked up: an APM payment's is APM's.
  return protocolOf(view) === 'apm'
    ? apmStatusResponse(view, merchant.protocolMapping, 'GET_TRANS_STATUS_BY_ORDER')
    : statusResponse('GET_TRANS_STATUS_BY_ORDER', view, merchant.protocolMapping);
}
