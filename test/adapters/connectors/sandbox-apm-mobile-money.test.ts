/**
 * The sandbox APM provider's mobile-money methods (docs/payouts.md#how-the-sandbox-decides, spec Limits): payouts decided by
 * the payee's email, collections with the Kora-style sender reference, and what each refuses.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { SandboxApmMobileMoneyConnector, sandboxMethod } from '../../../src/adapters/connectors/sandbox-apm';
import type { PaymentRequest } from '../../../src/application/ports/connector';
import { methodParameterProblems } from '../../../src/domain/payment/method-fields';

const connector = new SandboxApmMobileMoneyConnector({ secret: randomBytes(32), simulatorBaseUrl: 'https://gw.test', now: () => new Date('2025-03-01T10:00:00Z') });
const PAYMENT_ID = '5d2b8c1e-3f4a-4b5c-9d6e-7f8a9b0c1d2e';

function request(method: string, parameters: Record<string, unknown>, kind: PaymentRequest['kind'] = 'credit'): PaymentRequest {
  return {
    paymentId: PAYMENT_ID,
    merchantId: 'm-1',
    kind,
    amount: 1000,
    currency: 'KES',
    instrument: { kind: 'method', method, parameters },
    returnUrl: 'https://gw.test/payments/x/3ds-return',
  };
}
const momo = (email: string) => request('sb-momo', { mobile_money_operator: 'safaricom-ke', mobile_number: '254712345678', customer_email: email });

describe('sandbox APM provider: mobile money', () => {
  it('Given sb-momo and sb-payout-email, Then the provider pays out with them and offers them beside its other methods', () => {
    expect(connector.capabilities.payouts).to.equal(true);
    expect(connector.capabilities.methods).to.include.members(['sb-momo', 'sb-payout-email', 'sb-momo-collect', 'sb-redirect']);
    expect(sandboxMethod('sb-momo')).to.include({ payout: 'mobile_money' });
    expect(sandboxMethod('sb-payout-email')).to.include({ payout: 'email' });
    expect(sandboxMethod('sb-momo-collect')!.payout).to.equal(undefined);
  });

  it('Given a payout to success@gmail.com, Then it settles at once', async () => {
    expect(await connector.payout(momo('success@gmail.com'))).to.include({ outcome: 'success' });
  });

  it('Given a payout to fail@gmail.com, Then it is declined', async () => {
    expect(await connector.payout(momo('fail@gmail.com'))).to.include({ outcome: 'declined', reason: 'Declined by the payment provider' });
  });

  it('Given a payout to anyone else, Then the provider accepts it to decide later', async () => {
    const outcome = await connector.payout(momo('payee@example.com'));
    expect(outcome.outcome).to.equal('pending');
  });

  it("Given the email variant, Then parameters[Email] decides, not the customer's email", async () => {
    const outcome = await connector.payout(request('sb-payout-email', { Email: 'success@gmail.com', customer_email: 'fail@gmail.com' }));
    expect(outcome.outcome).to.equal('success');
  });

  it('Given a payout method in a SALE, Then it is declined: it only pays out', async () => {
    expect(await connector.authorize(momo('success@gmail.com'))).to.deep.equal({ outcome: 'declined', reason: 'This method only pays out (CREDIT2VIRTUAL)' });
  });

  it('Given a payout with a collection method, Then it is declined: that method takes money in', async () => {
    expect((await connector.payout(request('sb-redirect', {}))).outcome).to.equal('declined');
  });

  it('Given a payout the provider never answered, When it is looked up, Then it has no record of it: declined, so nothing was paid', async () => {
    const lookup = { paymentId: PAYMENT_ID, kind: 'credit' as const, amount: 1000, currency: 'KES', returnUrl: 'x', method: { method: 'sb-momo', parameters: { customer_email: 'success@gmail.com' } } };
    expect(await connector.status({ ...lookup, reference: null })).to.include({ outcome: 'declined' });
    expect(await connector.status({ ...lookup, reference: 'sbapm_app_0123456789abcdef' })).to.include({ outcome: 'success' });
  });

  it('Given a mobile-money collection, Then the payer approves on their phone: decided later', async () => {
    const outcome = await connector.authorize(
      request('sb-momo-collect', { mobile_money_operator: 'mtn-gh', mobile_number: '233241234567', sender_reference: 'REF-12345' }, 'sale'),
    );
    expect(outcome.outcome).to.equal('pending');
  });

  describe('the Kora-style sender reference of a collection (spec Limits: at least 8 characters)', () => {
    const problems = (reference: string | undefined) =>
      methodParameterProblems(sandboxMethod('sb-momo-collect')!, {
        mobile_money_operator: 'mtn-gh',
        mobile_number: '233241234567',
        ...(reference === undefined ? {} : { sender_reference: reference }),
      });

    for (const [reference, expected] of [
      ['1234567', ['parameters[sender_reference]: This value is too short. It should have 8 characters or more.']],
      ['12345678', []],
      ['ORDER-2025-000001', []],
      [undefined, ['parameters[sender_reference]: This value should not be blank.']],
    ] as const) {
      it(`Given sender_reference ${JSON.stringify(reference)}, Then ${expected.length ? 'it is refused' : 'it is taken'}`, () => {
        expect(problems(reference)).to.deep.equal(expected);
      });
    }
  });
});
