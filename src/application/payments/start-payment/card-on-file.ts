/** What the connector is told about stored-card use (card-on-file discriminators). */
import type { RecurringLink } from '../../../domain/payment/events';
import type { CardOnFileRequest } from '../../ports/connector';
import type { InternalSale } from '../types';

export function cardOnFileRequest(request: InternalSale, link: RecurringLink | undefined): { cardOnFile?: CardOnFileRequest } {
  if (link?.role === 'initial') {
    return { cardOnFile: { sequence: 'initial', initiator: 'cardholder', recurring: true, requestReference: request.cardOnFileSupport === true } };
  }
  if (link) {
    const chain = request.chain;
    // The chain's reference, when its first payment got one from the connector.
    const reference = chain && chain.recurringToken !== chain.recurring.token ? chain.recurringToken : undefined;
    return {
      cardOnFile: {
        sequence: 'subsequent',
        initiator: 'merchant',
        recurring: true,
        requestReference: false,
        ...(reference ? { reference } : {}),
      },
    };
  }
  if (request.card?.kind === 'token') {
    const initiator = request.payerPresent === false ? 'merchant' : 'cardholder';
    return { cardOnFile: { sequence: 'subsequent', initiator, recurring: false, requestReference: false } };
  }
  if (request.storeCard) return { cardOnFile: { sequence: 'initial', initiator: 'cardholder', recurring: false, requestReference: false } };
  return {};
}
