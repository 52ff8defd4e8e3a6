/** What the connector is asked to authorize (or pay out), but the instrument: the same for every connector of the route. */
import type { RecurringLink } from '../../../domain/payment/events';
import type { PaymentRequest } from '../../ports/connector';
import { payerReturnUrl } from '../connector-calls';
import { definedFields } from '../defined-fields';
import { cardOnFileRequest } from './card-on-file';
import type { StartRequest } from './initiation';

export function connectorAskOf(baseUrl: string, request: StartRequest, paymentId: string, recurring: RecurringLink | undefined): Omit<PaymentRequest, 'instrument'> {
  const { payer } = request;
  return {
    paymentId,
    merchantId: request.merchantId,
    kind: request.kind,
    amount: request.amount,
    currency: request.currency,
    // Only what the payer gave: an empty field is not sent.
    ...definedFields({ payerIp: payer.ip || undefined, payerEmail: payer.email || undefined, payerPhone: payer.phone || undefined }),
    ...definedFields({ payerCountry: payer.country || undefined, browser: request.browser }),
    returnUrl: payerReturnUrl(baseUrl, paymentId),
    ...(request.card ? cardOnFileRequest(request, recurring) : {}),
    ...definedFields({ parameters: request.parameters ?? undefined }),
  };
}
