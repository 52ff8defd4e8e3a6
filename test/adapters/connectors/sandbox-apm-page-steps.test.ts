/**
 * What the sandbox APM provider's page shows or takes, handed to the gateway with the page so the
 * hosted Checkout page can stand in for it: the one-time code's entry (sb-otp), which the connector
 * verifies itself, and the payment details of sb-details and sb-bank.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { SandboxApmConnector } from '../../../src/adapters/connectors/sandbox-apm';
import type { PayerReturn, PaymentRequest } from '../../../src/application/ports/connector';

const PAYMENT_ID = '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b';
const connector = new SandboxApmConnector({ secret: randomBytes(32), simulatorBaseUrl: 'https://gw.test', now: () => new Date('2030-05-01T12:00:00Z') });

const ask = (method: string, parameters: Record<string, unknown> = {}, over: Partial<PaymentRequest> = {}): PaymentRequest => ({
  paymentId: PAYMENT_ID,
  merchantId: 'm',
  kind: 'sale',
  amount: 1050,
  currency: 'USD',
  instrument: { kind: 'method', method, parameters },
  payerEmail: 'doe@example.com',
  returnUrl: `https://gw.test/payments/${PAYMENT_ID}/3ds-return`,
  ...over,
});

async function page(request: PaymentRequest) {
  const answer = await connector.authorize(request);
  if (answer.outcome !== 'redirect') throw new Error(JSON.stringify(answer));
  return answer.redirect;
}

const payerReturn = (method: string | undefined, body: Record<string, string>): PayerReturn => ({
  paymentId: PAYMENT_ID,
  reference: 'sbapm_redirect_0011223344556677',
  kind: 'redirect',
  raw: { query: {}, body },
  amount: 1050,
  currency: 'USD',
  saleKind: 'sale',
  ...(method ? { method } : {}),
});

describe('sandbox APM provider, what its page shows or takes', () => {
  it('Given sb-otp, Then its page takes a one-time code, sent to parameters[phone] (else the payer\'s phone), the sandbox telling its code', async () => {
    expect(await page(ask('sb-otp', { phone: '+441234567890' }))).to.deep.include({ collects: 'otp', instructions: { phone: '+441234567890', test_code: '123456' } });
    expect((await page(ask('sb-otp', {}, { payerPhone: '+15551234567' }))).instructions).to.deep.equal({ phone: '+15551234567', test_code: '123456' });
  });

  it('Given sb-details, Then its page shows the bank transfer\'s details: beneficiary, IBAN, the payment as reference, the amount', async () => {
    const redirect = await page(ask('sb-details'));
    expect(redirect.instructions).to.deep.equal({ beneficiary: 'SANDBOX PROVIDER', iban: 'XX00 SBOX 0000 0000 0000 00', reference: PAYMENT_ID, amount: '10.50 USD' });
    expect(redirect.collects).to.equal(undefined);
  });

  it('Given sb-bank, Then its page shows the account the merchant named and the reference', async () => {
    const redirect = await page(ask('sb-bank', { bank_code: '001', bank_account_number: '1234567' }));
    expect(redirect.instructions).to.deep.equal({ bank_code: '001', bank_account_number: '1234567', reference: PAYMENT_ID });
  });

  it('Given a plain redirect method, Then its page shows and takes nothing of the kind', async () => {
    const redirect = await page(ask('sb-redirect'));
    expect(redirect.instructions).to.equal(undefined);
    expect(redirect.collects).to.equal(undefined);
  });

  it('Given an sb-otp payment, When the payer hands over the one-time code, Then the connector approves the right code and decides nothing on a wrong one', async () => {
    expect(await connector.completePayerAction(payerReturn('sb-otp', { otp: '123456' }))).to.deep.equal({
      verified: true,
      outcome: { outcome: 'success', reference: 'sbapm_redirect_0011223344556677', descriptor: 'SANDBOX*APM' },
    });
    expect(await connector.completePayerAction(payerReturn('sb-otp', { otp: ' 123456 ' }))).to.have.property('verified', true);
    for (const wrong of ['654321', '12345', '', '1234567']) {
      expect(await connector.completePayerAction(payerReturn('sb-otp', { otp: wrong })), wrong).to.deep.equal({ verified: false });
    }
  });

  it('Given a method whose page takes no code, When a return carries one, Then it proves nothing: only the signed decision counts', async () => {
    for (const method of ['sb-redirect', undefined]) {
      expect(await connector.completePayerAction(payerReturn(method, { otp: '123456' })), String(method)).to.deep.equal({ verified: false });
    }
  });
});
