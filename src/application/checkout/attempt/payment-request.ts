import { merchantConnectors } from '../../../domain/merchant/connectors';
import { sessionPaymentKind } from '../../../domain/checkout/session-decide';
import { storesCard } from '../../../domain/payment/policy';
import type { MerchantAccount } from '../../merchant-service';
import type { PaymentService, ScheduleRequest } from '../../payments';
import type { StartAttempt } from './command';

export type CheckoutPaymentRequest = Parameters<PaymentService['startCheckoutPayment']>[0];

/** The attempt's payment: the session's order, customer and settings, paid as the payer chose. */
export function checkoutPaymentRequest(
  { session, paying, payer, correlationId, browser, payerPresent = true }: StartAttempt,
  merchant: MerchantAccount,
  started: { paymentId: string; attempt: number; schedule: ScheduleRequest | undefined },
): CheckoutPaymentRequest {
  const kind = sessionPaymentKind(session);
  const { schedule } = started;
  return {
    paymentId: started.paymentId,
    merchantId: session.merchantId,
    kind,
    orderId: session.order.number,
    orderDescription: session.order.description,
    currency: session.order.currency,
    amount: session.order.amount,
    amountText: session.order.amountText,
    ...paying,
    payer,
    termUrl3ds: null,
    notificationUrl: session.notificationUrl,
    customData: session.customData,
    // The session's parameters go with the card; a method's own set travels with the method.
    parameters: 'card' in paying ? session.parameters : null,
    recurringInit: session.recurringInit,
    ...(schedule ? { schedule } : {}),
    cardOnFileSupport: merchant.cardOnFileSupport === true,
    connectors: merchantConnectors(merchant),
    // A wallet's decrypted card is vaulted (the card flow); its token in the virtual flow keeps nothing.
    storeCard:
      'card' in paying &&
      (paying.card.kind === 'wallet' ||
        storesCard({ cardSource: paying.card.kind === 'number' ? 'card_number' : 'card_token', kind, reqToken: session.reqToken, recurringInit: session.recurringInit })),
    correlationId,
    ...(browser ? { browser } : {}),
    ...(payerPresent ? {} : { payerPresent: false }),
    checkout: {
      sessionId: session.sessionId,
      operation: session.operation,
      attempt: started.attempt,
      hostedFields: session.hostedFields,
      ...(session.customer.name ? { customerName: session.customer.name } : {}),
    },
  };
}
