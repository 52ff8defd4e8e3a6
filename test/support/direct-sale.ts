/**
 * A SALE straight through the application service, for tests about what happens after a payment
 * (callbacks, restarts) rather than about the HTTP API. Settles with the sandbox's 01/2038 card.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Gateway } from '../../src/composition';

type SaleRequest = Parameters<Gateway['payments']['sale']>[0];

export async function settledSale(g: Gateway, merchantId: string, payer: { email?: string } = { email: 'doe@example.com' }): Promise<string> {
  const result = await directSale(g, merchantId, { payer } as Partial<SaleRequest>);
  expect(result.payment.status).to.equal('SETTLED');
  return result.payment.paymentId;
}

/** A SALE of 12.50 EUR with the sandbox's 01/2038 card unless `overrides` say otherwise. */
export function directSale(g: Gateway, merchantId: string, overrides: Partial<SaleRequest> = {}): ReturnType<Gateway['payments']['sale']> {
  return g.payments.sale({
    merchantId,
    kind: 'sale',
    orderId: `direct-${randomUUID()}`,
    orderDescription: 'Direct sale',
    currency: 'EUR',
    amount: 1250,
    amountText: '12.50',
    card: { kind: 'number', number: '4111111111111111', expMonth: '01', expYear: '2038', cvv: '123' },
    payer: { email: 'doe@example.com' },
    termUrl3ds: null,
    notificationUrl: null,
    customData: null,
    parameters: null,
    recurringInit: false,
    storeCard: false,
    correlationId: randomUUID(),
    ...overrides,
  } as SaleRequest);
}
