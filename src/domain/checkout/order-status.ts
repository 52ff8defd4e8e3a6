/**
 * Checkout's words for where a payment stands (docs/reference/callbacks.md#checkout-callbacks): `order_status` of callbacks and
 * status responses, and the operation `type` a payment kind is reported as. Checkout releases a
 * hold with its void, so a released hold reads `void` here whatever API released it; the S2S API
 * keeps its own word (`REVERSAL`).
 */
import type { CheckoutCallbackType, CheckoutOrderStatus } from '../callback/checkout-callback';
import { isChainCharge } from '../callback/recurring-fields';
import type { PaymentKind } from '../payment/events';
import type { ExistingPayment, PaymentPhase } from '../payment/state';

export function orderStatusOf(phase: PaymentPhase): CheckoutOrderStatus {
  switch (phase) {
    case 'initiated':
    case 'outcome_unknown':
      return 'prepare';
    case 'awaiting_3ds':
      return '3ds';
    case 'awaiting_redirect':
      return 'redirect';
    case 'authorized':
    case 'awaiting_provider':
      // A DMS hold, or a payment the provider has still to confirm (docs/reference/callbacks.md#checkout-callbacks: `pending`).
      return 'pending';
    case 'settled':
      // A partial refund leaves the payment settled (docs/reference/callbacks.md#checkout-callbacks).
      return 'settled';
    case 'declined':
      return 'decline';
    case 'voided':
      return 'void';
    case 'reversed':
      // Checkout has no reversal of its own: a released hold is its void (docs/api-notes.md).
      return 'void';
    case 'refunded':
      return 'refund';
    default: {
      const unreachable: never = phase;
      return unreachable;
    }
  }
}

/** A DMS authorization is reported as a sale (docs/reference/callbacks.md#checkout-callbacks). */
export function operationTypeOf(kind: PaymentKind): CheckoutCallbackType {
  switch (kind) {
    case 'sale':
    case 'authorization':
      return 'sale';
    case 'debit':
      return 'debit';
    case 'credit':
      return 'credit';
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

/**
 * The `type` a payment's own outcome (and its status lookup) is reported as: a chain's later
 * charge, merchant- or scheduler-initiated, is `recurring` whether the chain is of sales or debits.
 */
export function paymentTypeOf(p: ExistingPayment): CheckoutCallbackType {
  return isChainCharge(p) ? 'recurring' : operationTypeOf(p.kind);
}
