/** The InitiatePayment command of a payment about to start: the request, routed, with what it pays with. */
import type { InitiatePayment } from '../../../domain/payment/commands';
import type { BrowserAttributes, CheckoutPaymentData, PaymentChannel, RecurringLink } from '../../../domain/payment/events';
import { definedFields } from '../defined-fields';
import type { InternalSale } from '../types';
import type { Recorded } from './instrument';

export type StartRequest = InternalSale & { checkout?: CheckoutPaymentData; browser?: BrowserAttributes };

export interface Started {
  paymentId: string;
  channel: PaymentChannel;
  recorded: Recorded;
  recurring: RecurringLink | undefined;
  /** The connectors in order, the first asked first. */
  route: string[];
  now: string;
}

export function initiatePaymentOf(request: StartRequest, started: Started): InitiatePayment {
  const { route } = started;
  return {
    type: 'InitiatePayment',
    data: {
      paymentId: started.paymentId,
      merchantId: request.merchantId,
      channel: started.channel,
      kind: request.kind,
      orderId: request.orderId,
      orderDescription: request.orderDescription,
      currency: request.currency,
      amount: request.amount,
      amountText: request.amountText,
      ...started.recorded,
      payer: request.payer,
      termUrl3ds: request.termUrl3ds,
      ...definedFields({ termUrlTarget: request.termUrlTarget }),
      notificationUrl: request.notificationUrl,
      customData: request.customData,
      parameters: request.parameters,
      recurringInit: request.recurringInit,
      ...definedFields({
        cardSource: request.card ? (request.cardSource ?? (request.card.kind === 'token' ? 'card_token' : 'card_number')) : undefined,
        checkout: request.checkout,
        browser: request.browser,
        recurring: started.recurring,
        payerPresent: request.payerPresent === false ? false : undefined,
      }),
      connector: route[0]!,
      ...definedFields({ route: route.length > 1 ? route : undefined, merchantPaymentMode: request.merchantPaymentMode }),
      now: started.now,
    },
  };
}
