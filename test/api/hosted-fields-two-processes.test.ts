/**
 * Hosted payment fields behind a load balancer: two API processes on one PostgreSQL schema and one
 * vault key, sharing one public base URL like a real load-balanced deployment. The card frame's
 * request may reach one process and the merchant's processing request the other; the card data the
 * payer typed must be found either way, used once, forgotten after 15 minutes, and never stored in
 * clear.
 */
import { expect } from 'chai';
import { Client } from 'pg';
import { createSessionToken, postJson, type Json } from '../support/checkout-client';
import { startTestGateway, TestClock, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { requirePostgres } from '../support/postgres';

const PAN = '4111111111111111';
const CVV = '739';
const PURCHASE = '/api/v1/processing/purchase/card';
/** The load balancer's address: both processes are configured with it, neither listens on it. */
const PUBLIC_BASE_URL = 'https://pay.gateway.test';
const TTL_MS = 15 * 60_000;

/** What the card frame posts; a browser names the frame's origin, which is the gateway's public one. */
function postCardData(t: TestGateway, token: string) {
  return postJson(
    t,
    '/hosted-fields/card-data',
    { token, number: PAN, expiry: '01 / 38', cvv: CVV },
    { Origin: PUBLIC_BASE_URL, 'Sec-Fetch-Site': 'same-origin' },
  );
}

function processing(t: TestGateway, token: string) {
  return postJson(t, PURCHASE, { name: 'John Doe', with_hosted_fields: true }, { Token: token });
}

const NO_CARD = /^card: No card data was collected for this session/;

describe('Hosted payment fields across two API processes [PostgreSQL]', function () {
  requirePostgres(this);

  let a: TestGateway;
  let b: TestGateway;
  let clock: TestClock;
  let merchant: TestMerchant;

  before(async () => {
    clock = new TestClock();
    a = await startTestGateway({ kind: 'postgres', clock, env: { PUBLIC_BASE_URL } });
    b = await a.startPeer();
  });
  after(async () => {
    await a?.stop();
  });
  beforeEach(async () => {
    merchant = await a.createMerchant();
  });

  /** A session created on A whose payer typed the card into the frame served by B. */
  async function tokenWithCardHeldOnB(overrides: Json = {}): Promise<string> {
    const { token } = await createSessionToken(a, merchant, { session_expiry: 120, ...overrides });
    const held = await postCardData(b, token);
    expect(held.status, held.text).to.equal(200);
    expect(held.body).to.deep.equal({ result: 'success', message: 'Card data saved.' });
    return token;
  }

  async function rawRows(): Promise<Array<Record<string, unknown>>> {
    const client = new Client({ connectionString: a.gateway.config.databaseUrl! });
    await client.connect();
    try {
      return (await client.query('select * from pending_card_data')).rows;
    } finally {
      await client.end();
    }
  }

  it('both processes are configured with the one public base URL of the load balancer', () => {
    expect(a.gateway.config.publicBaseUrl).to.equal(PUBLIC_BASE_URL);
    expect(b.gateway.config.publicBaseUrl).to.equal(PUBLIC_BASE_URL);
    expect(a.baseUrl).not.to.equal(b.baseUrl);
  });

  it('Given card data posted to process B, when the merchant processes the payment on process A, then it settles', async () => {
    const token = await tokenWithCardHeldOnB();
    const res = await processing(a, token);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.result).to.equal('success');
    const events = await a.paymentEvents(res.body.public_id);
    expect(events.map((e) => e.type)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);
  });

  it('uses the card data once: after a decline on A, a second processing request on B finds none', async () => {
    // 02/2038 declines in the sandbox; the session stays open for another attempt.
    const { token } = await createSessionToken(a, merchant, { session_expiry: 120 });
    const typed = await postJson(b, '/hosted-fields/card-data', { token, number: PAN, expiry: '02 / 38', cvv: CVV }, {
      Origin: PUBLIC_BASE_URL,
      'Sec-Fetch-Site': 'same-origin',
    });
    expect(typed.body.result, typed.text).to.equal('success');
    const declined = await processing(a, token);
    expect(declined.status, declined.text).to.equal(200);
    const again = await processing(b, token);
    expect(again.status).to.equal(400);
    expect(again.body.errors[0].error_message).to.match(NO_CARD);
  });

  it('forgets card data 15 minutes after the payer typed it', async () => {
    const token = await tokenWithCardHeldOnB();
    clock.advance(TTL_MS + 1000);
    const res = await processing(a, token);
    expect(res.status, res.text).to.equal(400);
    expect(res.body.errors[0].error_message).to.match(NO_CARD);
  });

  it('keeps card data that is not yet 15 minutes old', async () => {
    const token = await tokenWithCardHeldOnB();
    clock.advance(TTL_MS - 60_000);
    const res = await processing(a, token);
    expect(res.body.result, res.text).to.equal('success');
  });

  it('never holds the card number or the CVV in clear, and deletes the row once it is used', async () => {
    const token = await tokenWithCardHeldOnB();
    const sessionId = token.split('.')[0];
    const rows = (await rawRows()).filter((r) => r.session_id === sessionId);
    expect(rows).to.have.length(1);
    for (const [column, value] of Object.entries(rows[0])) {
      if (column === 'session_id') continue;
      // Binary columns are read byte for byte: the CVV is short enough to turn up in a hex dump by chance.
      const text = Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
      expect(text, column).not.to.include(PAN);
      expect(text, column).not.to.include(CVV);
      expect(text.toLowerCase(), column).not.to.include('cvv');
    }
    await processing(a, token);
    expect((await rawRows()).filter((r) => r.session_id === sessionId)).to.have.length(0);
  });
});
