/** S2S CARD response bodies, built from the payment state (command side) or its read row; S2S APM's are in apm-responses.ts. */
import type { ExistingPayment } from '../../domain/payment/state';
import { noProtocolMapping, type ProtocolMapping } from '../../domain/merchant/protocol-mapping';
import { protocolMappingFields, type ProtocolMappingSource } from '../../domain/callback/protocol-mapping-fields';
import { isChainCharge, recurringFields } from '../../domain/callback/recurring-fields';
import { conversionStatusFields } from '../../domain/callback/conversion-fields';

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export function transDate(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ');
}

export interface PaymentView {
  paymentId: string;
  /** The protocol the payment was made through: its follow-ups and answers follow it. */
  channel: string;
  /** The alternative method, for a payment made with one. */
  brand?: string;
  /** What the payer needs while an alternative method's provider decides (crypto address, network). */
  providerInstructions?: Record<string, string>;
  orderId: string;
  status: ExistingPayment['status'];
  phase: ExistingPayment['phase'];
  amountText: string;
  currency: string;
  descriptor: string | null;
  declineReason: string | null;
  initiatedAt: string;
  cardToken: string | null;
  payerAction: ExistingPayment['payerAction'];
  /** What the payment's recurring chain adds to every answer about it, in order. */
  recurring: [string, string][];
  /** What the merchant's Protocol Mapping may add to a status response. */
  mappingSource: ProtocolMappingSource;
  /** `exchange_*` and `extended_data` of a payment settled in another currency (conversion-fields.ts). */
  conversion?: Record<string, unknown>;
}

export function viewOf(p: ExistingPayment): PaymentView {
  return {
    paymentId: p.paymentId,
    channel: p.channel,
    ...(p.method ? { brand: p.method.brand } : {}),
    ...(p.providerInstructions ? { providerInstructions: p.providerInstructions } : {}),
    orderId: p.orderId,
    status: p.status,
    phase: p.phase,
    amountText: p.amountText,
    currency: p.currency,
    descriptor: p.descriptor,
    declineReason: p.declineReason,
    initiatedAt: p.initiatedAt,
    // A chain's later charges never hand out its stored card's token: the chain is charged by recurring_token.
    cardToken: isChainCharge(p) ? null : (p.card?.token ?? null),
    payerAction: p.payerAction,
    recurring: recurringFields(p, 's2s'),
    ...(p.conversion ? { conversion: conversionStatusFields(p) } : {}),
    mappingSource: {
      card: p.card,
      method: p.method,
      payer: p.payer,
      recurringInit: p.recurringInit,
      cardSource: p.cardSource,
      rrn: p.rrn,
      arn: p.arn,
      threeDS: p.threeDS,
      browser: p.browser,
      recurring: p.recurring,
      payerPresent: p.payerPresent,
    },
  };
}

/**
 * The synchronous SALE answer (also what a repeat within the duplicate window gets back). `action`:
 * RECURRING_SALE and RECURRING_DEBIT answer in the same shape under their own name.
 */
export function saleResponse(p: PaymentView, action = 'SALE'): Record<string, unknown> {
  return { ...saleOutcome(p, action), ...Object.fromEntries(p.recurring) };
}

function saleOutcome(p: PaymentView, action: string): Record<string, unknown> {
  const ids = { order_id: p.orderId, trans_id: p.paymentId, trans_date: transDate(p.initiatedAt) };
  const money = { descriptor: p.descriptor ?? '', amount: p.amountText, currency: p.currency };
  const token = p.cardToken ? { card_token: p.cardToken } : {};
  switch (p.phase) {
    case 'settled':
    case 'authorized':
      return { action, result: 'SUCCESS', status: p.status, ...ids, ...money, ...token };
    case 'declined':
      return { action, result: 'DECLINED', status: 'DECLINED', ...ids, decline_reason: p.declineReason ?? 'Declined' };
    case 'awaiting_3ds':
    case 'awaiting_redirect': {
      const payerAction = p.payerAction!;
      return {
        action,
        result: 'REDIRECT',
        status: p.status,
        ...ids,
        ...money,
        redirect_url: payerAction.url,
        redirect_params: Object.keys(payerAction.params).length ? payerAction.params : [],
        redirect_method: 'POST',
        ...token,
      };
    }
    case 'initiated':
    case 'outcome_unknown':
      // The acquirer's answer is not known yet: the outcome follows by callback and status lookup.
      return { action, result: 'ACCEPTED', status: 'PENDING', ...ids, amount: p.amountText, currency: p.currency };
    default:
      // A repeat that arrives after later operations reports where the payment stands now.
      return { action, result: 'SUCCESS', status: p.status, ...ids, ...money, ...token };
  }
}

/** `mapping`: the merchant's Protocol Mapping; switched-on fields without a value are left out. */
export function statusResponse(action: string, p: PaymentView, mapping: ProtocolMapping = noProtocolMapping()): Record<string, unknown> {
  const body: Record<string, unknown> = {
    action,
    result: 'SUCCESS',
    status: p.status,
    order_id: p.orderId,
    trans_id: p.paymentId,
    trans_date: transDate(p.initiatedAt),
    amount: p.amountText,
    currency: p.currency,
  };
  if (p.descriptor) body.descriptor = p.descriptor;
  if (p.status === 'DECLINED' && p.declineReason) body.decline_reason = p.declineReason;
  if ((p.status === '3DS' || p.status === 'REDIRECT') && p.payerAction) {
    body.redirect_url = p.payerAction.url;
    body.redirect_params = Object.keys(p.payerAction.params).length ? p.payerAction.params : [];
    body.redirect_method = 'POST';
  }
  // The chain's fields come before the mapping's, as in callbacks.
  for (const [name, value] of p.recurring) body[name] = value;
  if (p.conversion) Object.assign(body, p.conversion);
  for (const [name, value] of protocolMappingFields(p.mappingSource, mapping, 'status')) body[name] = value;
  return body;
}
