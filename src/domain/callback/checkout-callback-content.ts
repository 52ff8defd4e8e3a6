/**
 * What a merchant is told about a Checkout payment event (docs/reference/callbacks.md#checkout-callbacks). Pure, like the S2S
 * CARD table in callback-content.ts:
 *
 * | Event | type | status | order_status |
 * |---|---|---|---|
 * | PaymentSettled | sale, debit, credit or recurring | success | settled |
 * | PaymentAuthorized | sale | success | pending |
 * | PaymentDeclined | sale, debit, credit or recurring | fail | decline |
 * | PaymentCascaded, the first of a payment (its first declined attempt) | sale, debit, credit or recurring | fail | decline |
 * | ThreeDSChallengeRequired | 3ds | waiting | 3ds |
 * | PayerRedirectRequired | redirect | waiting | redirect |
 * | CaptureSucceeded / CaptureDeclined | capture | success / fail | settled / pending |
 * | PaymentVoided / VoidDeclined | void | success / fail | void / settled |
 * | RefundSucceeded / RefundDeclined | refund | success / fail | refund (settled after a partial refund) / unchanged |
 * | AuthorizationReversed / ReversalDeclined | void | success / fail | void / pending |
 *
 * Checkout releases a hold with its void (`/api/v1/payment/void`) and the clients wait for
 * `type=void`: a released hold is a void in Checkout's words, whatever released it.
 *
 * No callback for PaymentInitiated, the *Requested intents and PaymentOutcomeUnknown.
 * `order_amount` is always the order's amount as the merchant sent it: it is hash input.
 *
 * `recurring` is a chain's later charge (Checkout recurring request or scheduled payment). Every
 * callback carries what recurringFields says of the payment's chain: a successful initial payment
 * its own id as `recurring_init_trans_id` and its `recurring_token`, a later charge its chain's
 * first payment, a payment that started a schedule `schedule_id` and `first_recurring_date`.
 */
import type { ProtocolMapping } from '../merchant/protocol-mapping';
import { orderStatusOf, paymentTypeOf } from '../checkout/order-status';
import type { PaymentEvent } from '../payment/events';
import type { ExistingPayment } from '../payment/state';
import {
  chainInputOf,
  checkoutCallbackFields,
  type CheckoutCallbackStatus,
  type CheckoutCallbackType,
  type CheckoutCustomer,
} from './checkout-callback';
import { conversionCallbackFields } from './conversion-fields';
import type { FormFields } from './form-fields';
import { protocolMappingFields } from './protocol-mapping-fields';
import { recurringFields } from './recurring-fields';

interface Outcome {
  type: CheckoutCallbackType;
  status: CheckoutCallbackStatus;
  at: string;
  reason?: string;
  /** When the event reports an attempt rather than where the payment stands now. */
  orderStatus?: 'decline';
}

function outcomeOf(event: PaymentEvent, after: ExistingPayment): Outcome | null {
  const op = paymentTypeOf(after);
  switch (event.type) {
    case 'PaymentSettled':
      return { type: op, status: 'success', at: event.data.settledAt };
    case 'PaymentAuthorized':
      return { type: op, status: 'success', at: event.data.authorizedAt };
    case 'PaymentDeclined':
      return { type: op, status: 'fail', at: event.data.declinedAt, reason: event.data.reason };
    case 'PaymentCascaded':
      // Merchants hear of the first declined attempt and of the final outcome, not of each attempt between.
      return after.cascadedFrom?.length === 1
        ? { type: op, status: 'fail', at: event.data.cascadedAt, reason: event.data.reason, orderStatus: 'decline' }
        : null;
    case 'ThreeDSChallengeRequired':
      return { type: '3ds', status: 'waiting', at: event.data.requiredAt };
    case 'PayerRedirectRequired':
      return { type: 'redirect', status: 'waiting', at: event.data.requiredAt };
    case 'CaptureSucceeded':
      return { type: 'capture', status: 'success', at: event.data.capturedAt };
    case 'CaptureDeclined':
      return { type: 'capture', status: 'fail', at: event.data.declinedAt, reason: event.data.reason };
    case 'PaymentVoided':
      return { type: 'void', status: 'success', at: event.data.voidedAt };
    case 'VoidDeclined':
      return { type: 'void', status: 'fail', at: event.data.declinedAt, reason: event.data.reason };
    case 'RefundSucceeded':
      return { type: 'refund', status: 'success', at: event.data.refundedAt };
    case 'RefundDeclined':
      return { type: 'refund', status: 'fail', at: event.data.declinedAt, reason: event.data.reason };
    case 'AuthorizationReversed':
      return { type: 'void', status: 'success', at: event.data.reversedAt };
    case 'ReversalDeclined':
      return { type: 'void', status: 'fail', at: event.data.declinedAt, reason: event.data.reason };
    case 'PaymentInitiated':
    case 'PaymentPending':
    case 'PaymentOutcomeUnknown':
    case 'CaptureRequested':
    case 'VoidRequested':
    case 'CreditVoidRequested':
      return null;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

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

export function checkoutCallbackFieldsFor(
  event: PaymentEvent,
  after: ExistingPayment,
  ctx: { password: string; protocolMapping: ProtocolMapping },
): FormFields | null {
  if (after.channel !== 'checkout') return null;
  const outcome = outcomeOf(event, after);
  if (!outcome) return null;
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
