import type { ExistingSession } from '../../domain/checkout/session-state';
import { returnParameters, withQueryParameters } from '../../domain/callback/return-url';
import type { FormFields } from '../../domain/callback/form-fields';
import type { ExistingPayment } from '../../domain/payment/state';
import { checkoutCallbackHash } from '../../domain/signatures';
import type { MerchantAccount } from '../merchant-service';

/**
 * `payment_id`, `trans_id`, `order_id` and `hash` (spec Events item 8: always appended), then the
 * merchant's return parameters. Before any attempt (a cancel, an expiry) there is no payment: the
 * two ids are appended empty, and the `hash` is computed over those very values (the empty id,
 * then the session's order), so the merchant checks it as for any return; the return parameters
 * describe a payment and are left out with it.
 */
export function withReturnParameters(url: string, session: ExistingSession, payment: ExistingPayment | null, merchant: MerchantAccount): string {
  const order = payment
    ? { number: payment.orderId, amountText: payment.amountText, currency: payment.currency, description: payment.orderDescription }
    : session.order;
  const hash = checkoutCallbackHash({
    id: payment?.paymentId ?? '',
    orderNumber: order.number,
    orderAmount: order.amountText,
    orderCurrency: order.currency,
    orderDescription: order.description,
    password: merchant.password,
  });
  const params: FormFields = payment
    ? [
        ['payment_id', payment.paymentId],
        ['trans_id', payment.paymentId],
        ['order_id', payment.orderId],
        ['hash', hash],
        ...returnParameters(payment, merchant.protocolMapping),
      ]
    : [
        ['payment_id', ''],
        ['trans_id', ''],
        ['order_id', session.order.number],
        ['hash', hash],
      ];
  return withQueryParameters(url, params);
}
