/**
 * What a merchant is told about a Checkout payment event (docs/reference/callbacks.md#checkout-callbacks):
 * what callback-table.ts says of the event, as checkout-callback.ts lays it out. `order_status` is
 * where the payment stands after the event, unless the table says the event reports an attempt.
 * `order_amount` is always the order's amount as the merchant sent it: it is hash input.
 *
 * `recurring` is a chain's later charge (Checkout recurring request or scheduled payment). Every
 * callback carries what recurringFields says of the payment's chain: a successful initial payment
 * its own id as `recurring_init_trans_id` and its `recurring_token`, a later charge its chain's
 * first payment, a payment that started a schedule `schedule_id` and `first_recurring_date`.
 */
import { orderStatusOf } from '../checkout/order-status';
import type { ExistingPayment } from '../payment/state';
import type { CallbackContext } from './callback-context';
import type { CheckoutOutcome } from './callback-outcomes';
import { chainInputOf, checkoutCallbackFields, type CheckoutCustomer } from './checkout-callback';
import { conversionCallbackFields } from './conversion-fields';
import type { FormFields } from './form-fields';
import { protocolMappingFields } from './protocol-mapping-fields';
import { recurringFields } from './recurring-fields';

/** The payer as Checkout names them: `customer_*` fields. */
export function checkoutCustomerOf(p: ExistingPayment): CheckoutCustomer {
  const payer = p.payer;
  const name = p.checkout?.customerName ?? ([payer.firstName, payer.lastName].filter(Boolean).join(' ') || undefined);
  return {
    name,
    email: payer.email,
    birthDate: payer.birthDate,
    country: payer.country,
    state: payer.state,
    city: payer.city,
    address: payer.address,
    zip: payer.zip,
    phone: payer.phone,
    ip: payer.ip,
  };
}

/**
 * The card token a Checkout callback carries: in every debit callback (spec Events item 4), and
 * whenever the payment stored the card (`req_token`, `recurring_init`) or paid with a stored one.
 */
export const checkoutCardToken = (p: ExistingPayment): string | undefined => p.card?.token ?? undefined;

/** The ordered fields of the callback; `after` is the payment state right after the event. */
export function checkoutCallbackContent(outcome: CheckoutOutcome, after: ExistingPayment, ctx: CallbackContext): FormFields {
  return checkoutCallbackFields(
    {
      id: after.paymentId,
      orderNumber: after.orderId,
      orderAmount: after.amountText,
      orderCurrency: after.currency,
      orderDescription: after.orderDescription,
      orderStatus: outcome.orderStatus ?? orderStatusOf(after.phase),
      type: outcome.type,
      status: outcome.status,
      ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
      card: after.card ? { mask: after.card.mask, expMonth: after.card.expMonth, expYear: after.card.expYear } : undefined,
      cardToken: checkoutCardToken(after),
      customer: checkoutCustomerOf(after),
      date: outcome.at,
      ...chainInputOf(recurringFields(after, 'checkout')),
      customData: after.customData,
      conversionFields: conversionCallbackFields(after),
      protocolMappingFields: protocolMappingFields(after, ctx.protocolMapping, 'callback'),
    },
    ctx.password,
  );
}
