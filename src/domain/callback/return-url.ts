/**
 * Where the payer's browser goes once a payment is decided (spec Events item 8): the merchant's
 * return URL with `payment_id`, `trans_id`, `order_id` and `hash` always appended, then the
 * "return additional parameters" the merchant chose. The same for 3DS and non-3DS payments.
 */
import type { ProtocolMapping } from '../merchant/protocol-mapping';
import type { ExistingPayment } from '../payment/state';
import { s2sCardHashOf } from './callback-content';
import type { FormFields } from './form-fields';

/**
 * Adds `params` to `url`, keeping whatever query and fragment the merchant's URL already has; a
 * parameter of ours replaces a merchant one of the same name, so the ids cannot be spoofed by it.
 */
export function withQueryParameters(url: string, params: FormFields): string {
  const target = new URL(url);
  for (const [name, value] of params) target.searchParams.set(name, value);
  return target.toString();
}

/** The chosen "return additional parameters" of a card payment. */
export function returnParameters(payment: Pick<ExistingPayment, 'card'>, mapping: ProtocolMapping): FormFields {
  return mapping.returnParameters.map((name): [string, string] => {
    switch (name) {
      case 'payment_method':
        return ['payment_method', 'card'];
      case 'brand':
        return ['brand', payment.card.brand];
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
