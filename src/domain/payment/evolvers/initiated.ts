/** PaymentInitiated: the payment as its first event records it, nothing decided yet. */
import type { PaymentInitiated } from '../events';
import type { ExistingPayment } from '../payment-state';

export function paymentInitiated(event: PaymentInitiated): ExistingPayment {
  const d = event.data;
  return {
    exists: true,
    paymentId: d.paymentId,
    merchantId: d.merchantId,
    channel: d.channel,
    kind: d.kind,
    phase: 'initiated',
    status: d.method ? 'PREPARE' : 'PENDING',
    orderId: d.orderId,
    orderDescription: d.orderDescription,
    currency: d.currency,
    amount: d.amount,
    amountText: d.amountText,
    ...(d.card ? { card: d.card } : {}),
    ...(d.method ? { method: d.method } : {}),
    payer: d.payer,
    termUrl3ds: d.termUrl3ds,
    notificationUrl: d.notificationUrl,
    customData: d.customData,
    recurringInit: d.recurringInit,
    descriptor: null,
    declineReason: null,
    payerAction: null,
    heldAmount: 0,
    settledAmount: 0,
    refundedAmount: 0,
    reversedAmount: 0,
    pendingOperation: null,
    initiatedAt: d.initiatedAt,
    updatedAt: d.initiatedAt,
    ...(d.cardSource ? { cardSource: d.cardSource } : {}),
    ...(d.checkout ? { checkout: d.checkout } : {}),
    ...(d.browser ? { browser: d.browser } : {}),
    ...(d.recurring ? { recurring: d.recurring } : {}),
    ...(d.payerPresent !== undefined ? { payerPresent: d.payerPresent } : {}),
    connector: d.connector,
    ...(d.route ? { route: d.route } : {}),
    ...(d.acquirerReference ? { acquirerReference: d.acquirerReference } : {}),
    ...(d.termUrlTarget ? { termUrlTarget: d.termUrlTarget } : {}),
    ...(d.parameters ? { parameters: d.parameters } : {}),
  };
}
