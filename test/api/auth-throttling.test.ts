/**
 * Limits on failed authentication over HTTP, with low limits (3 per merchant and address, 6 per
 * address, 8 per merchant across addresses, per hour). Clients appear from different addresses
 * through X-Forwarded-For (TRUST_PROXY=true); each test uses addresses of its own, and the
 * window is passed by moving the gateway's clock, never by waiting.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createSessionToken, operationHash, postJson, sessionBody, type Json } from '../support/checkout-client';
import { forEachStore, TestClock, type Fields, type HttpResult, type TestGateway, type TestMerchant } from '../support/gateway-harness';

const LIMIT = 3;
const IP_LIMIT = 6;
const KEY_LIMIT = 8;
// Long, so that a slow machine cannot spread a test's burst over enough time for the buckets to
// refill; tests pass it by moving the clock.
const WINDOW_MS = 60 * 60_000;

const TOO_MANY = {
  result: 'ERROR',
  error_code: 429,
  error_message: 'Too many failed authentication attempts. Try again later.',
};
const BAD_HASH = { result: 'ERROR', error_code: 100000, error_message: 'Hash is not valid' };

let lastOctet = 0;
/** An address no other test uses. */
function freshIp(): string {
  lastOctet += 1;
  return `198.18.${lastOctet >> 8}.${lastOctet & 255}`;
}

function expectTooMany(res: HttpResult, what: string): void {
  expect(res.status, `${what}: ${res.text}`).to.equal(429);
  expect(res.body, what).to.deep.equal(TOO_MANY);
  const retryAfter = res.headers.get('Retry-After');
  expect(retryAfter, `${what}: Retry-After`).to.match(/^\d+$/);
  expect(Number(retryAfter), `${what}: Retry-After`).to.be.within(1, WINDOW_MS / 1000);
}

function expectSettled(res: HttpResult, what: string): void {
  expect(res.status, `${what}: ${res.text}`).to.equal(200);
  expect(res.body, what).to.include({ result: 'SUCCESS' });
}

forEachStore(
  'Limits on failed authentication',
  (h) => {
    let t: TestGateway;
    beforeEach(() => {
      t = h();
    });

    const clock = () => t.clock as TestClock;

    /** POST /post from `ip`. */
    function postFrom(ip: string, fields: Fields): Promise<HttpResult> {
      const entries = Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined);
      return t.request('/post', { method: 'POST', body: new URLSearchParams(entries), headers: { 'X-Forwarded-For': ip } });
    }
    const goodSale = (merchant: TestMerchant, ip: string) => postFrom(ip, t.saleFields(merchant));
    const badSale = (merchant: TestMerchant, ip: string) => postFrom(ip, t.saleFields(merchant, { hash: 'f'.repeat(32) }));

    describe('S2S client_key', () => {
      it('Given wrong hashes for merchant A from one address, then after the limit that address gets 429 with Retry-After, even for a valid hash', async () => {
        const a = await t.createMerchant();
        const attacker = freshIp();
        for (let i = 0; i < LIMIT; i++) {
          const res = await badSale(a, attacker);
          expect(res.status, `guess ${i + 1}`).to.equal(400);
          expect(res.body, `guess ${i + 1}`).to.deep.equal(BAD_HASH);
        }
        expectTooMany(await badSale(a, attacker), 'the guess after the limit');
        // A refusal that let a right guess through would tell the guesser it was right.
        expectTooMany(await goodSale(a, attacker), 'a valid hash from the locked address');
      });

      it("Given a flood of wrong hashes for A from one address, then B's SALEs and A's own SALEs from A's address keep succeeding", async () => {
        const [a, b] = [await t.createMerchant(), await t.createMerchant()];
        const [attacker, fromA, fromB] = [freshIp(), freshIp(), freshIp()];
        // The attacker's guesses go one after another (each one waits for its answer), while the
        // good requests run alongside them.
        const flood = (async () => {
          const answers: HttpResult[] = [];
          for (let i = 0; i < 30; i++) answers.push(await badSale(a, attacker));
          return answers;
        })();
        const good: Promise<HttpResult>[] = [];
        for (let i = 0; i < 5; i++) good.push(goodSale(b, fromB), goodSale(a, fromA));
        const answers = await flood;
        expect(answers.map((r) => r.status)).to.deep.equal([...Array(LIMIT).fill(400), ...Array(30 - LIMIT).fill(429)]);
        (await Promise.all(good)).forEach((res, i) => expectSettled(res, `good SALE ${i}`));
        // And after the flood, too.
        expectSettled(await goodSale(b, fromB), 'B after the flood');
        expectSettled(await goodSale(a, fromA), "A from its own address after the flood");
      });

      it('Given an address locked for A, when the window has passed, then A works again from it and a wrong hash is an ordinary refusal again', async () => {
        const a = await t.createMerchant();
        const attacker = freshIp();
        for (let i = 0; i < LIMIT; i++) await badSale(a, attacker);
        expectTooMany(await goodSale(a, attacker), 'while locked');
        clock().advance(WINDOW_MS);
        expectSettled(await goodSale(a, attacker), 'after the window');
        expect((await badSale(a, attacker)).body).to.deep.equal(BAD_HASH);
      });

      it('Given unknown client_keys from one address, then after the address limit it gets 429 for every merchant except those it authenticated for', async () => {
        const [proven, other] = [await t.createMerchant(), await t.createMerchant()];
        const ip = freshIp();
        expectSettled(await goodSale(proven, ip), 'a SALE that proves the address for its merchant');
        const unknownKey = () => postFrom(ip, { ...t.saleFields(proven), client_key: randomUUID() });
        for (let i = 0; i < IP_LIMIT; i++) {
          const res = await unknownKey();
          expect(res.body.errors, `unknown key ${i + 1}`).to.deep.equal([{ error_code: 100000, error_message: 'client_key: Merchant not found.' }]);
        }
        expectTooMany(await unknownKey(), 'an unknown key after the limit');
        expectTooMany(await goodSale(other, ip), 'a merchant the address never authenticated for');
        expectSettled(await goodSale(proven, ip), 'the merchant the address authenticated for');
      });

      it("Given wrong hashes for A from many addresses above A's ceiling, then new addresses get 429 for A, A's own address keeps working, and an error is logged", async () => {
        const a = await t.createMerchant();
        const own = freshIp();
        expectSettled(await goodSale(a, own), "A's own server");
        let sent = 0;
        while (sent < KEY_LIMIT) {
          const attacker = freshIp();
          for (let i = 0; i < LIMIT && sent < KEY_LIMIT; i++, sent++) expect((await badSale(a, attacker)).status).to.equal(400);
        }
        expectTooMany(await goodSale(a, freshIp()), 'a valid hash for A from a new address');
        expectSettled(await goodSale(a, own), "A's own server during the attack");
        expectSettled(await goodSale(await t.createMerchant(), freshIp()), 'another merchant');
        const alarms = t.logLines.map((line) => JSON.parse(line)).filter((l) => l.level === 'error' && String(l.subject).includes(a.merchant_id));
        expect(alarms, 'the error logged for the ceiling').to.have.length(1);
      });
    });

    describe('Checkout merchant_key', () => {
      const status = (merchant: TestMerchant, ip: string, hash?: string) => {
        const paymentId = randomUUID();
        return postJson(
          t,
          '/api/v1/payment/status',
          { merchant_key: merchant.merchant_key, payment_id: paymentId, hash: hash ?? operationHash([paymentId], merchant.password) },
          { 'X-Forwarded-For': ip },
        );
      };

      it('Given wrong hashes for a merchant from one address, then after the limit 429, while its sessions from another address are still created', async () => {
        const [a, b] = [await t.createMerchant(), await t.createMerchant()];
        const attacker = freshIp();
        for (let i = 0; i < LIMIT; i++) expect((await status(a, attacker, 'f'.repeat(40))).body, `guess ${i + 1}`).to.deep.equal(BAD_HASH);
        expectTooMany(await status(a, attacker, 'f'.repeat(40)), 'the guess after the limit');
        expectTooMany(await status(a, attacker), 'a valid hash from the locked address');
        for (const merchant of [a, b]) {
          const created = await postJson(t, '/api/v1/session', sessionBody(merchant), { 'X-Forwarded-For': freshIp() });
          expect(created.status, created.text).to.equal(200);
          expect(created.body.redirect_url).to.be.a('string');
        }
      });

      it("Given wrong hashes on S2S, then they count against the same merchant's Checkout requests (one password, one count)", async () => {
        const a = await t.createMerchant();
        const attacker = freshIp();
        for (let i = 0; i < LIMIT; i++) await badSale(a, attacker);
        expectTooMany(await status(a, attacker, 'f'.repeat(40)), 'a Checkout guess after S2S guesses');
      });
    });

    describe('admin token', () => {
      const clockFrom = (ip: string, token: string | null) =>
        t.request('/admin/clock', { headers: { 'X-Forwarded-For': ip, ...(token === null ? {} : { Authorization: `Bearer ${token}` }) } });

      it('Given wrong admin tokens from one address, then after the limit it gets 429 even with the right token, and other addresses are unaffected', async () => {
        const attacker = freshIp();
        for (let i = 0; i < LIMIT; i++) expect((await clockFrom(attacker, `guess-${i}-${'x'.repeat(30)}`)).status, `guess ${i + 1}`).to.equal(401);
        expectTooMany(await clockFrom(attacker, 'another-guess-xxxxxxxxxxxxxxxxxxxx'), 'the guess after the limit');
        expectTooMany(await clockFrom(attacker, t.gateway.adminToken), 'the right token from the locked address');
        expect((await clockFrom(freshIp(), t.gateway.adminToken)).status).to.equal(200);
        clock().advance(WINDOW_MS);
        expect((await clockFrom(attacker, t.gateway.adminToken)).status, 'after the window').to.equal(200);
      });

      it('Given admin paths requested without any token, then they stay 401: no credential, nothing guessed, nothing counted', async () => {
        const ip = freshIp();
        for (let i = 0; i < IP_LIMIT + 2; i++) expect((await clockFrom(ip, null)).status, `request ${i + 1}`).to.equal(401);
        expect((await clockFrom(ip, t.gateway.adminToken)).status).to.equal(200);
      });
    });

    describe('hosted-fields session tokens', () => {
      const processingFrom = (ip: string, token: string) =>
        postJson(t, '/api/v1/processing/purchase/card', { name: 'John Doe', with_hosted_fields: true }, { Token: token, 'X-Forwarded-For': ip });

      it('Given forged session tokens on the processing endpoint from one address, then after the limit 429, also for a real token from it, not from elsewhere', async () => {
        const merchant = await t.createMerchant();
        const { token } = await createSessionToken(t, merchant);
        const attacker = freshIp();
        for (let i = 0; i < LIMIT; i++) {
          const res = await processingFrom(attacker, `forged-${i}`);
          expect(res.status, `forged ${i + 1}`).to.equal(400);
          expect(res.body.errors, `forged ${i + 1}`).to.deep.equal([{ error_code: 100000, error_message: 'Token: The session token is not valid.' }]);
        }
        expectTooMany(await processingFrom(attacker, 'forged-after-limit'), 'a forged token after the limit');
        expectTooMany(await processingFrom(attacker, token), 'a real token from the locked address');
        const elsewhere = await processingFrom(freshIp(), token);
        expect(elsewhere.body.errors?.[0]?.error_message, elsewhere.text).to.match(/^card: No card data was collected/);
      });

      it("Given forged tokens on the card frame's endpoint, then after the limit 429 in that endpoint's own shape", async () => {
        const attacker = freshIp();
        const cardData = (token: string) =>
          postJson(
            t,
            '/hosted-fields/card-data',
            { token, number: '4111111111111111', expiry: '01/38', cvv: '123' },
            { Origin: t.baseUrl, 'Sec-Fetch-Site': 'same-origin', 'X-Forwarded-For': attacker },
          );
        for (let i = 0; i < LIMIT; i++) {
          expect((await cardData(`forged-${i}`)).body, `forged ${i + 1}`).to.deep.equal({ result: 'undefined', message: 'The session token is not valid.' });
        }
        const refused = await cardData('forged-after-limit');
        expect(refused.status).to.equal(429);
        expect(refused.body).to.deep.equal({ result: 'undefined', message: TOO_MANY.error_message } as Json);
        expect(Number(refused.headers.get('Retry-After'))).to.be.within(1, WINDOW_MS / 1000);
      });
    });
  },
  {
    captureLogs: true,
    env: {
      TRUST_PROXY: 'true',
      AUTH_FAILURE_LIMIT: String(LIMIT),
      AUTH_FAILURE_IP_LIMIT: String(IP_LIMIT),
      AUTH_FAILURE_KEY_LIMIT: String(KEY_LIMIT),
      AUTH_FAILURE_WINDOW: '1h',
    },
  },
);
