/**
 * One payment as a Checkout status lookup reports it: the callback's vocabulary (docs/reference/callbacks.md#checkout-callbacks:
 * `order_status` words, `type`, masked card, `customer`), plus the fields the merchant's Protocol
 * Mapping adds to status responses (switched-on fields without a value are left out there).
 * What it says about a recurring chain is what the payment's callbacks say (recurringFields).
 */
import { checkoutCardToken, checkoutCustomerOf } from '../../domain/callback/checkout-callback-content';
import { conversionStatusFields } from '../../domain/callback/conversion-fields';
import { formDate } from '../../domain/callback/form-fields';
import { cardExpirationDate, protocolMappingFields } from '../../domain/callback/protocol-mapping-fields';
import { recurringFields } from '../../domain/callback/recurring-fields';
import { orderStatusOf, paymentTypeOf } from '../../domain/checkout/order-status';
import type { ProtocolMapping } from '../../domain/merchant/protocol-mapping';
import type { ExistingPayment } from '../../domain/payment/state';

export function checkoutPaymentStatus(p: ExistingPayment, mapping: ProtocolMapping): Record<string, unknown> {
  const body: Record<string, unknown> = {
    payment_id: p.paymentId,
    date: formDate(p.updatedAt),
    status: orderStatusOf(p.phase),
    order: { number: p.orderId, amount: p.amountText, currency: p.currency, description: p.orderDescription },
    type: paymentTypeOf(p),
  };
  if (p.phase === 'declined') body.reason = p.declineReason ?? 'Declined';
  if (p.card) {
    body.card = p.card.mask;
    body.card_expiration_date = cardExpirationDate(p.card);
  }
  const token = checkoutCardToken(p);
  if (token) body.card_token = token;
  const c = checkoutCustomerOf(p);
  const customer: Record<string, string> = {};
  for (const [name, value] of [
    ['name', c.name],
    ['email', c.email],
    ['birth_date', c.birthDate],
    ['country', c.country],
    ['state', c.state],
    ['city', c.city],
    ['address', c.address],
    ['zip', c.zip],
    ['phone', c.phone],
    ['ip', c.ip],
  ] as const) {
    if (value) customer[name] = value;
  }
  if (Object.keys(customer).length) body.customer = customer;
  for (const [name, value] of recurringFields(p, 'checkout')) body[name] = value;
  if (p.customData) body.custom_data = p.customData;
  Object.assign(body, conversionStatusFields(p));
  for (const [name, value] of protocolMappingFields(p, mapping, 'status')) body[name] = value;
  return body;
}
