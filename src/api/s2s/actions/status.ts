/** `GET_TRANS_STATUS` and `GET_TRANS_STATUS_BY_ORDER`: safe to repeat, read from the read models. */
import { orderIdHash, transIdHash } from '../../../domain/signatures';
import { errors } from '../../errors';
import { requireHash } from '../../require-hash';
import { statusResponse, viewOf } from '../responses';
import type { ActionContext, S2sDeps } from '../s2s-action';
import { currentPayment } from './follow-ups';

export async function transStatus(deps: S2sDeps, { form, merchant }: ActionContext) {
  const transId = form.trans_id as string;
  requireHash(form.hash, transIdHash(transId, merchant.password));
  const caughtUp = await deps.queries.catchUpToHead();
  const view = await deps.queries.paymentView(transId);
  if (view && view.merchantId === merchant.merchantId) return statusResponse('GET_TRANS_STATUS', view, merchant.protocolMapping);
  // Read models behind (projector stopped or slow): the stream itself still knows the payment.
  const payment = caughtUp ? null : await currentPayment(deps, merchant, transId);
  if (!payment) throw errors.transactionNotFound();
  return statusResponse('GET_TRANS_STATUS', viewOf(payment), merchant.protocolMapping);
}

export async function transStatusByOrder(deps: S2sDeps, { form, merchant }: ActionContext) {
  const orderId = form.order_id as string;
  requireHash(form.hash, orderIdHash(orderId, merchant.password));
  await deps.queries.catchUpToHead();
  const view = await deps.queries.latestPaymentViewByOrder(merchant.merchantId, orderId);
  if (!view) throw errors.orderNotFound();
  return statusResponse('GET_TRANS_STATUS_BY_ORDER', view, merchant.protocolMapping);
}

