/**
 * Where the payer's browser goes once a payment is decided (spec Events item 8): the merchant's
 * return URL with `payment_id`, `trans_id`, `order_id` and `hash` always appended, then the
 * "return additional parameters" the merchant chose. The same for 3DS and non-3DS payments.
 */
import type { ProtocolMapping } from '../merchant/protocol-mapping';
import type { ExistingPayment } from '../payment/state';
import { s2sCardHashOf } from './s2s-card-callback-content';
import type { FormFields } from './form-fields';

/** The decoded name of one `name=value` segment of a query, as a form decoder reads it. */
function segmentName(segment: string): string {
  const raw = segment.split('=', 1)[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Appends `params` to `url` exactly as the merchant wrote it: its path, query and fragment keep
 * their bytes (a query is never decoded and re-encoded: `route=checkout/success` stays so), ours
 * follow with `&` (or `?` when there is no query), before any `#fragment`. A merchant parameter of
 * the same name as one of ours is dropped, so the ids and the hash cannot be spoofed by it and every
 * query parser reads ours.
 */
export function withQueryParameters(url: string, params: FormFields): string {
  if (params.length === 0) return url;
  const hashAt = url.indexOf('#');
  const beforeFragment = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const fragment = hashAt >= 0 ? url.slice(hashAt) : '';
  const queryAt = beforeFragment.indexOf('?');
  const path = queryAt >= 0 ? beforeFragment.slice(0, queryAt) : beforeFragment;
  const ours = new Set(params.map(([name]) => name));
  const kept = queryAt >= 0 ? beforeFragment.slice(queryAt + 1).split('&').filter((segment) => !ours.has(segmentName(segment))).join('&') : '';
  const added = new URLSearchParams(params).toString();
  const query = kept === '' ? added : kept.endsWith('&') ? `${kept}${added}` : `${kept}&${added}`;
  return `${path}?${query}${fragment}`;
}

/**
 * The chosen "return additional parameters": a payment made with an alternative method (or a
 * wallet's virtual flow) names that method in both, a card payment `card` and its card brand.
 */
export function returnParameters(payment: Pick<ExistingPayment, 'card' | 'method'>, mapping: ProtocolMapping): FormFields {
  const method = payment.method?.brand;
  return mapping.returnParameters.map((name): [string, string] => {
    switch (name) {
      case 'payment_method':
        return ['payment_method', method ?? 'card'];
      case 'brand':
        return ['brand', method ?? payment.card?.brand ?? ''];
      default: {
        const unreachable: never = name;
        return unreachable;
      }
    }
  });
}

/**
 * S2S CARD: `term_url_3ds` plus the ids and the S2S CARD callback hash (`payment_id` and `trans_id`
 * are the same UUID on this channel). Null when the SALE gave no return URL.
 */
export function s2sCardReturnUrl(
  payment: ExistingPayment,
  merchant: { password: string; protocolMapping: ProtocolMapping },
): string | null {
  if (!payment.termUrl3ds) return null;
  return withQueryParameters(payment.termUrl3ds, [
    ['payment_id', payment.paymentId],
    ['trans_id', payment.paymentId],
    ['order_id', payment.orderId],
    ['hash', s2sCardHashOf(payment, merchant.password)],
    ...returnParameters(payment, merchant.protocolMapping),
  ]);
}
