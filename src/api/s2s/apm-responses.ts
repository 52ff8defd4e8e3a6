/**
 * S2S APM response bodies (docs/reference/s2s-apm.md#answers-to-a-sale), built from the same payment view as S2S CARD's
 * (responses.ts). Every SALE answer carries action, result, status, order_id, trans_id, trans_date,
 * amount and currency, then what its result adds:
 *
 * | Where the payment stands | result / status | adds |
 * |---|---|---|
 * | settled (held, with `auth=Y`) | SUCCESS / SETTLED (PENDING) | |
 * | declined | DECLINED / DECLINED | decline_reason |
 * | on the provider's page | REDIRECT / REDIRECT | redirect_url, redirect_method GET, redirect_params (`[]` when empty) |
 * | showing a QR code | REDIRECT / PENDING | the same, redirect_params.qr_code (Base64 of its payload) |
 * | the payer confirms elsewhere | INIT / PENDING | what the payer needs (crypto_address, crypto_network) |
 * | the provider has not answered | UNDEFINED / PREPARE | |
 */
import type { ProtocolMapping } from '../../domain/merchant/protocol-mapping';
import { protocolMappingFields } from '../../domain/callback/protocol-mapping-fields';
import { transDate, type PaymentView } from './responses';

function redirectFields(p: PaymentView): Record<string, unknown> {
  const action = p.payerAction!;
  return {
    redirect_url: action.url,
    redirect_method: 'GET',
    redirect_params: Object.keys(action.params).length ? { ...action.params } : [],
  };
}

/** The fields every APM answer (a SALE's, a payout's) starts with, in their order. */
export function apmAnswerHead(
  action: string,
  result: string,
  status: string,
  p: Pick<PaymentView, 'orderId' | 'paymentId' | 'initiatedAt' | 'amountText' | 'currency'>,
): Record<string, unknown> {
  return {
    action,
    result,
    status,
    order_id: p.orderId,
    trans_id: p.paymentId,
    trans_date: transDate(p.initiatedAt),
    amount: p.amountText,
    currency: p.currency,
  };
}

/** The synchronous APM SALE answer (also what a repeat within the duplicate window gets back). */
export function apmSaleResponse(p: PaymentView): Record<string, unknown> {
  const head = (result: string, status: string) => apmAnswerHead('SALE', result, status, p);
  switch (p.phase) {
    case 'declined':
      return { ...head('DECLINED', 'DECLINED'), decline_reason: p.declineReason ?? 'Declined' };
    case 'awaiting_redirect':
    case 'awaiting_3ds':
      return { ...head('REDIRECT', p.status), ...redirectFields(p) };
    case 'awaiting_provider':
      return { ...head('INIT', 'PENDING'), ...(p.providerInstructions ?? {}) };
    case 'initiated':
    case 'outcome_unknown':
      // The provider has not answered yet: the outcome follows by callback and status lookup.
      return head('UNDEFINED', 'PREPARE');
    default:
      // Settled, held, or (for a repeat arriving after later operations) where the payment stands now.
      return head('SUCCESS', p.status);
  }
}

/** APM GET_TRANS_STATUS: action, result, status, order_id, trans_id, decline_reason when declined, then the Protocol Mapping fields. */
export function apmStatusResponse(p: PaymentView, mapping: ProtocolMapping, action: 'GET_TRANS_STATUS' | 'GET_TRANS_STATUS_BY_ORDER' = 'GET_TRANS_STATUS'): Record<string, unknown> {
  const body: Record<string, unknown> = { action, result: 'SUCCESS', status: p.status, order_id: p.orderId, trans_id: p.paymentId };
  if (p.status === 'DECLINED' && p.declineReason) body.decline_reason = p.declineReason;
  if (p.conversion) Object.assign(body, p.conversion);
  for (const [name, value] of protocolMappingFields(p.mappingSource, mapping, 'status')) body[name] = value;
  return body;
}
