/**
 * Errors docs/reference/errors.md lists that no other suite asks the gateway for in these exact
 * words, asked of a running gateway here: a follow-up while another one waits for the acquirer, the
 * card and amount field errors of a SALE, and the admin API's refusals. Together with the suites of
 * test/api this makes every pair the page lists one a test expects (test/docs/reference-errors.test.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { SandboxConnector } from '../../src/adapters/connectors/sandbox/connector';
import type { Connector } from '../../src/application/ports/connector';
import { CallbackReceiver } from '../support/callback-receiver';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';

/** The sandbox acquirer, except that the answer to every capture is lost on the wire. */
function captureAnswerLost(): Connector {
  const sandbox = new SandboxConnector({ secret: randomBytes(32), simulatorBaseUrl: 'http://127.0.0.1:1' });
  return Object.assign(Object.create(sandbox) as Connector, {
    capture: async () => {
      throw new Error('socket hang up');
    },
  });
}

const refusal = (error_code: number, error_message: string) => ({ result: 'ERROR', error_code, error_message });
const invalid = (...fieldErrors: string[]) => ({
  ...refusal(100000, 'Request data is invalid.'),
  errors: fieldErrors.map((error_message) => ({ error_code: 100000, error_message })),
});

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Reference errors, asked of a running gateway', function () {
  let t: TestGateway;
  const receiver = new CallbackReceiver();
  before(async () => {
    await receiver.start();
    t = await startTestGateway({ kind: 'sqlite', connectors: [captureAnswerLost()], env: { CALLBACK_TIMEOUT: '3s' } });
  });
  after(async () => {
    await t?.stop();
    await receiver.stop();
  });

  const admin = (path: string, init: RequestInit = {}) =>
    t.request(path, { ...init, headers: { Authorization: `Bearer ${t.gateway.adminToken}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) } });

  it('Given a capture whose acquirer answer was lost, When the payment is captured again, Then 100000 Another operation (capture) is still in progress for this payment', async () => {
    const merchant = await t.createMerchant();
    const auth = await t.sale(merchant, { auth: 'Y' });
    expect(auth.body, auth.text).to.include({ result: 'SUCCESS', status: 'PENDING' });
    const first = await t.capture(merchant, auth.body.trans_id);
    expect(first.body, first.text).to.include({ action: 'CAPTURE', result: 'ACCEPTED', status: 'PENDING' });

    const again = await t.capture(merchant, auth.body.trans_id);
    expect(again.status).to.equal(400);
    expect(again.body).to.deep.equal(refusal(100000, 'Another operation (capture) is still in progress for this payment'));
  });

  it('Given SALEs with a card or amount the gateway cannot take, Then each is named in the words of the reference', async () => {
    const merchant = await t.createMerchant();
    const cases: Array<[Record<string, string>, string]> = [
      [{ order_amount: '99999999999999999' }, 'order_amount: Amount is too large'],
      [{ card_number: '4111111111111112' }, 'card_number: This value is not a valid card number.'],
      [{ card_exp_year: '2020' }, 'card_exp_year: Card has expired'],
      [{ card_exp_year: String(new Date().getUTCFullYear() + 60) }, 'card_exp_year: Expiry year is more than 50 years ahead'],
      [{ card_token: `ct_${'0'.repeat(32)}` }, 'card_token: Send either card_number or card_token, not both.'],
    ];
    for (const [overrides, fieldError] of cases) {
      const answer = await t.sale(merchant, overrides);
      expect(answer.status, fieldError).to.equal(400);
      expect(answer.body, fieldError).to.deep.equal(invalid(fieldError));
    }
  });

  it('Given the admin callbacks list and lookup with bad parameters, Then 100000 Request data is invalid. naming each', async () => {
    const list = await admin('/admin/callbacks?failed=maybe&limit=0');
    expect(list.status).to.equal(400);
    expect(list.body).to.deep.equal(invalid('failed: must be true or false', 'limit: must be an integer in 1..1000'));
    const one = await admin('/admin/callbacks/not-a-uuid');
    expect(one.body).to.deep.equal(invalid('delivery_id: This is not a valid UUID.'));
  });

  it('Given a callback whose attempt is still waiting for the merchant, When it is redelivered, Then 409 100000 An attempt of this callback is in progress', async () => {
    receiver.defaultAnswer = 'hang';
    await t.gateway.notifier.start();
    const merchant = await t.createMerchant({ notificationUrl: receiver.url });
    const sale = await t.sale(merchant);
    await until(() => receiver.ofTransaction(sale.body.trans_id).length > 0, 'the callback to arrive');
    const deliveryId = receiver.ofTransaction(sale.body.trans_id)[0].deliveryId;

    const redeliver = await admin(`/admin/callbacks/${deliveryId}/redeliver`, { method: 'POST' });
    expect(redeliver.status).to.equal(409);
    expect(redeliver.body).to.deep.equal(refusal(100000, 'An attempt of this callback is in progress; try again when it has finished.'));
  });

  it('Given ledger balances asked with bad parameters, Then 100000 Request data is invalid. naming each', async () => {
    const bad = await admin(`/admin/ledger/balances?merchant_id=${'m'.repeat(65)}&currency=usd&as_of=yesterday`);
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal(
      invalid('merchant_id: is too long', 'currency: must be an ISO 4217 code such as EUR', 'as_of: must be an ISO-8601 date-time with a zone, e.g. 2024-05-01T23:59:59Z'),
    );
    const twice = await admin('/admin/ledger/balances?currency=EUR&currency=USD');
    expect(twice.body).to.deep.equal(invalid('currency: must be given once'));
  });

  it("Given a payment's history asked with as_of twice or unreadable, Then 100000 with the reference's words; an unknown payment 404", async () => {
    const id = randomUUID();
    const twice = await admin(`/admin/payments/${id}/history?as_of=1&as_of=2`);
    expect(twice.status).to.equal(400);
    expect(twice.body).to.deep.equal(refusal(100000, 'as_of: Give it once.'));
    const unreadable = await admin(`/admin/payments/${id}/history?as_of=soon`);
    expect(unreadable.body).to.deep.equal(refusal(100000, 'as_of: Must be a stream version (0, 1, ...) or an ISO-8601 timestamp with a zone.'));
    const unknown = await admin(`/admin/payments/${id}/history`);
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal(refusal(100000, 'Payment not found.'));
  });

  it('Given an unknown chain, Then 404 100000 Scheduled chain not found.; a clock advance without a duration, 100000 naming by', async () => {
    const chain = await admin(`/admin/chains/${randomUUID()}`);
    expect(chain.status).to.equal(404);
    expect(chain.body).to.deep.equal(refusal(100000, 'Scheduled chain not found.'));
    const advance = await admin('/admin/clock/advance', { method: 'POST', body: JSON.stringify({ by: 'forever' }) });
    expect(advance.status).to.equal(400);
    expect(advance.body).to.deep.equal(invalid('by: Give a duration such as 30d, 12h, 90m, 45s or 2w, at most 3653 days.'));
  });

  it('Given a production gateway, When its test clock is asked for, Then 403 100000 The test clock exists in the sandbox only.', async () => {
    const production = await startTestGateway({ kind: 'sqlite', env: { GATEWAY_ENV: 'production' } });
    try {
      const clock = await production.request('/admin/clock', { headers: { Authorization: `Bearer ${production.gateway.adminToken}` } });
      expect(clock.status).to.equal(403);
      expect(clock.body).to.deep.equal(refusal(100000, 'The test clock exists in the sandbox only.'));
    } finally {
      await production.stop();
    }
  });
});
