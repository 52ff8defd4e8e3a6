/**
 * The sandbox's 09/2038 card settles in another currency at a fixed rate, so merchants can see the
 * `exchange_*` callback fields: into EUR at 0.9, into USD at 1.1 when the payment is in EUR,
 * rounded half up to the target currency's minor unit, whatever the payment currency's exponent.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { PaymentRequest } from '../../../src/application/ports/connector';
import { SandboxConnector } from '../../../src/adapters/connectors/sandbox';
import { sandboxConversion } from '../../../src/adapters/connectors/sandbox/scenarios';

const NOW = new Date('2026-05-15T12:00:00Z');
const sandbox = new SandboxConnector({ secret: randomBytes(32), simulatorBaseUrl: 'https://gateway.test', now: () => NOW });
const request = (amount: number, currency: string, kind: PaymentRequest['kind'] = 'sale'): PaymentRequest => ({
  paymentId: '0b9c7a1e-7d2c-4f1e-9a57-2f4b1c3d5e6f',
  merchantId: 'm-1',
  kind,
  amount,
  currency,
  instrument: { kind: 'card', card: { number: '4111111111111111', expMonth: '09', expYear: '2038', cvv: '123' } },
  returnUrl: 'https://gateway.test/payments/x/3ds-return',
});

describe('sandbox: the 09/2038 card settles converted', () => {
  it('a sale in USD settles, reporting EUR at 0.9 and the sandbox\'s own extended data', async () => {
    const outcome = await sandbox.authorize(request(1050, 'USD'));
    expect(outcome).to.deep.include({
      outcome: 'success',
      conversion: { currency: 'EUR', amount: 945, rate: '0.9', rateBase: 'USD' },
      extendedData: { fx_provider: 'SANDBOX-FX', fx_rate_date: '2026-05-15' },
    });
  });

  it('an authorization and a payout are converted alike', async () => {
    expect(await sandbox.authorize(request(1050, 'USD', 'authorization'))).to.have.nested.property('conversion.amount', 945);
    expect(await sandbox.payout(request(1050, 'USD', 'credit'))).to.have.nested.property('conversion.currency', 'EUR');
  });

  it('rounds half up to the target\'s minor unit, across exponents', () => {
    expect(sandboxConversion(1000, 'JPY')).to.deep.equal({ currency: 'EUR', amount: 90000, rate: '0.9', rateBase: 'JPY' });
    expect(sandboxConversion(1005, 'EUR')).to.deep.equal({ currency: 'USD', amount: 1106, rate: '1.1', rateBase: 'EUR' });
    expect(sandboxConversion(1, 'USD').amount).to.equal(1);
    expect(sandboxConversion(12345, 'BHD')).to.deep.include({ currency: 'EUR', amount: 1111 });
  });

  it('other cards settle in the payment\'s currency', async () => {
    const outcome = await sandbox.authorize({ ...request(1050, 'USD'), instrument: { kind: 'card', card: { number: '4111111111111111', expMonth: '01', expYear: '2038', cvv: '123' } } });
    expect(outcome).to.not.have.property('conversion');
  });
});
