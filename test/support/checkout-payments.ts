/**
 * Checkout payments without a browser: a session created over HTTP, then the payer's submit of the
 * hosted page played through CheckoutService.pay, as the page does. For API tests of what follows
 * a payment (status, capture, void, refund, callbacks).
 */
import { expect } from 'chai';
import type { ExistingPayment } from '../../src/domain/payment/state';
import { createSession, type Json } from './checkout-client';
import type { TestGateway, TestMerchant } from './gateway-harness';

/** Sandbox outcomes by expiry month of 2038 (docs/reference/sandbox.md#cards-by-expiry). */
export type SandboxExpiry = '01' | '02' | '03';

export const PAYER_IP = '203.0.113.7';

/** The payer submits the hosted page of `sessionId` with the sandbox card expiring `month`/2038. */
export async function payOnPage(t: TestGateway, sessionId: string, month: SandboxExpiry = '01'): Promise<ExistingPayment> {
  const outcome = await t.gateway.checkout.pay(
    sessionId,
    { card: { number: '4111111111111111', expMonth: month, expYear: '2038', cvv: '123', holder: 'John Doe' }, payerIp: PAYER_IP },
    'test',
  );
  if (outcome?.kind !== 'done' || !outcome.payment) throw new Error(`payment not made: ${JSON.stringify(outcome)}`);
  return outcome.payment;
}

/** A session over HTTP, paid at once. */
export async function checkoutPayment(
  t: TestGateway,
  merchant: TestMerchant,
  overrides: Json = {},
  month: SandboxExpiry = '01',
): Promise<{ payment: ExistingPayment; sessionId: string; body: Json }> {
  const { sessionId, body } = await createSession(t, merchant, overrides);
  return { payment: await payOnPage(t, sessionId, month), sessionId, body };
}

/** A card token of `merchant`'s vault: a debit always stores the card it was paid with. */
export async function storedCardToken(t: TestGateway, merchant: TestMerchant): Promise<string> {
  const { payment } = await checkoutPayment(t, merchant, { operation: 'debit' });
  expect(payment.card!.token, 'card token of the debit').to.be.a('string');
  return payment.card!.token!;
}
