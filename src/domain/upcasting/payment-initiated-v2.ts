/**
 * PaymentInitiated 1 → 2: version 2 names the connector the payment went to. Every version 1
 * payment went to the sandbox, the only connector there was, and no answer of it recorded the
 * sandbox's reference: what the sandbox of that release told its transactions apart by was the
 * card's expiry, so that becomes the reference its follow-ups quote.
 */
import type { Upcaster } from './registry';

export const paymentInitiatedV1ToV2: Upcaster = {
  type: 'PaymentInitiated',
  fromVersion: 1,
  upcast(data) {
    const card = (data.card ?? {}) as { expMonth?: unknown; expYear?: unknown };
    const expiry = typeof card.expMonth === 'string' && typeof card.expYear === 'string' ? `${card.expMonth}/${card.expYear}` : null;
    return { ...data, connector: 'sandbox', ...(expiry ? { acquirerReference: `card-expiry:${expiry}` } : {}) };
  },
};
