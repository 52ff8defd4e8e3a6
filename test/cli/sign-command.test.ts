/** `npm run gateway -- sign`: every hash a merchant computes or verifies, checked against the vectors of docs/reference/hashes.md#test-vectors. */
import { expect } from 'chai';
import {
  apmCreditvoidHash,
  apmSaleHash,
  apmTransIdHash,
  checkoutCallbackHash,
  createScheduleHash,
  credit2VirtualHash,
  orderIdHash,
  s2sCardCallbackHash,
  scheduleIdHash,
  transIdHash,
  walletSaleHash,
} from '../../src/domain/signatures';
import { runCli } from '../support/cli-in-process';

const PW = '13a4822c5907ed235f3a068c76184fc3';
const TRANS = 'c3b0f6a2-7d5e-11ef-9f3a-0242ac120002';
const APM_BODY =
  'action=SALE&result=SUCCESS&status=SETTLED&order_id=ORDER-1001&trans_id=c3b0f6a2-7d5e-11ef-9f3a-0242ac120002' +
  '&trans_date=2025-03-01+12%3A00%3A00&descriptor=SANDBOX&amount=10.00&currency=USD' +
  '&custom_data%5Bclient%5D=abc&custom_data%5Bbasket%5D=42';

async function sign(...argv: string[]): Promise<string> {
  const r = await runCli(['sign', ...argv]);
  expect(r.code, r.stderr).to.equal(0);
  return r.stdout.trim();
}

describe('npm run gateway -- sign', () => {
  it('sale: the Formula 1 test vector', async () => {
    expect(await sign('sale', '--password', PW, '--card', '4111111111111111', '--email', 'doe@example.com')).to.equal('2702ae0c4f99506dc29b5615ba9ee3c0');
  });

  it('apm-callback: the §7 test vector, from the raw body', async () => {
    expect(await sign('apm-callback', '--password', PW, '--body', APM_BODY)).to.equal('18922d38039c11030f448594b8c5bf5a');
  });

  it('payout-callback: the §8 test vector', async () => {
    expect(await sign('payout-callback', '--password', PW, '--trans-id', TRANS, '--order-id', 'ORDER-2001', '--status', 'SETTLED')).to.equal(
      '2e9ad43836d4fbae5059662854083dd4',
    );
  });

  const table: Array<[string, string[], string]> = [
    ['wallet-sale', ['--email', 'doe@example.com'], walletSaleHash({ payerEmail: 'doe@example.com', password: PW })],
    ['trans', ['--value', TRANS], transIdHash(TRANS, PW)],
    ['order', ['--value', 'ORDER-1'], orderIdHash('ORDER-1', PW)],
    ['create-schedule', [], createScheduleHash(PW)],
    ['schedule', ['--value', TRANS], scheduleIdHash(TRANS, PW)],
    ['apm-sale', ['--identifier', 'id-1', '--order-id', 'O-1', '--amount', '10.00', '--currency', 'USD'], apmSaleHash({ identifier: 'id-1', orderId: 'O-1', orderAmount: '10.00', orderCurrency: 'USD', password: PW })],
    ['apm-trans', ['--value', TRANS], apmTransIdHash(TRANS, PW)],
    ['apm-creditvoid', ['--value', TRANS], apmCreditvoidHash(TRANS, PW)],
    ['credit2virtual', ['--order-id', 'O-2', '--amount', '5', '--currency', 'XOF'], credit2VirtualHash({ orderId: 'O-2', orderAmount: '5', orderCurrency: 'XOF', password: PW })],
    [
      's2s-callback',
      ['--trans-id', TRANS, '--card', '411111******1111', '--email', 'doe@example.com'],
      s2sCardCallbackHash({ payerEmail: 'doe@example.com', password: PW, transId: TRANS, cardNumberFirst6Last4: '4111111111' }),
    ],
    [
      'checkout-callback',
      ['--id', TRANS, '--order-number', 'order-2', '--amount', '10.00', '--currency', 'USD', '--description', 'Test order'],
      checkoutCallbackHash({ id: TRANS, orderNumber: 'order-2', orderAmount: '10.00', orderCurrency: 'USD', orderDescription: 'Test order', password: PW }),
    ],
  ];
  for (const [what, args, expected] of table) {
    it(`${what}: the gateway's own formula`, async () => {
      expect(await sign(what, '--password', PW, ...args)).to.equal(expected);
    });
  }

  it('s2s-callback takes the full card number or the mask of the callback alike', async () => {
    const args = ['--password', PW, '--trans-id', TRANS, '--email', 'doe@example.com'];
    expect(await sign('s2s-callback', ...args, '--card', '4111111111111111')).to.equal(await sign('s2s-callback', ...args, '--card', '411111******1111'));
  });

  it('a missing input is a usage error with the usage of that subcommand', async () => {
    const r = await runCli(['sign', 'apm-sale', '--password', PW, '--identifier', 'x']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/^sign apm-sale needs --order-id\n\nusage: npm run gateway -- sign apm-sale /);
  });
});
