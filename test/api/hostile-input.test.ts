/**
 * Input a merchant's integration would never send but an attacker or a broken client does: bodies
 * nested thousands deep or with thousands of keys, NUL and other control characters in values and
 * in field names, JSON or arrays where the S2S form API takes flat strings, methods no route has.
 * Each is refused in the spec's error shape before anything is stored, on SQLite and PostgreSQL
 * alike; a seeded fuzz loop then checks that no mutation of a real request ever gets a 500.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import type { StoredEvent } from '../../src/application/ports/event-store';
import { expectFieldError } from '../support/api-errors';
import { createSession, postJson, sessionBody, type Json } from '../support/checkout-client';
import { forEachStore, type Fields, type HttpResult, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { rawRequest } from '../support/raw-request';

/** The limits docs/api-notes.md promises. */
const MAX_LEVELS = 8;
const MAX_ENTRIES = 1000;
const DEEP = 8000;

const TOO_DEEP = `Nesting is too deep. It should have ${MAX_LEVELS} levels or less.`;
const TOO_MANY = `body: This collection should contain ${MAX_ENTRIES} elements or less.`;
const CONTROL = 'This value contains control characters.';
const FORM_ONLY = 'body: The request body must be application/x-www-form-urlencoded or multipart/form-data.';
const NOT_SUPPORTED = { result: 'ERROR', error_code: 0, error_message: 'Route or parameters is not supported' };
const NOT_ALLOWED = { result: 'ERROR', error_code: 0, error_message: 'Method not allowed' };

type Entries = [string, string][];

const urlencoded = (entries: Entries) => ({
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(entries).toString(),
});

/** Written by hand so names and values go on the wire byte for byte (NUL, quotes and all). */
function multipart(entries: Entries): { headers: Record<string, string>; body: Buffer } {
  const boundary = `----hostile${randomUUID().replace(/-/g, '')}`;
  const parts = entries.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/"/g, '%22')}"\r\n\r\n${value}\r\n`,
  );
  return {
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'utf8'),
  };
}

const json = (text: string) => ({ headers: { 'Content-Type': 'application/json' }, body: text });

/** `{"a":{"a":…"x"…}}`, built as text: JSON.stringify itself overflows the stack at this depth. */
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;
const deepArray = (levels: number) => `${'['.repeat(levels)}"x"${']'.repeat(levels)}`;
/** A JSON object text with one more member, given as raw JSON text. */
const withMember = (body: Json, name: string, rawValue: string) => `${JSON.stringify(body).slice(0, -1)},${JSON.stringify(name)}:${rawValue}}`;

const entriesOf = (fields: Fields): Entries => Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined);

forEachStore('Hostile input', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  const send = (target: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer }) =>
    rawRequest(h().baseUrl, target, { method: 'POST', ...init });

  /** Every event that names this merchant, other than its own registration. */
  async function merchantEvents(t: TestGateway, m: TestMerchant): Promise<StoredEvent[]> {
    const all = await t.gateway.store.readAll();
    return all.filter(
      (e) =>
        !e.streamId.startsWith('merchant-') &&
        (e.streamId.includes(m.merchant_id) || (e.data as { merchantId?: string }).merchantId === m.merchant_id),
    );
  }

  async function expectNothingStored(): Promise<void> {
    expect((await merchantEvents(h(), merchant)).map((e) => e.type)).to.deep.equal([]);
  }

  function expectRefused(res: HttpResult, fieldMessage: string): void {
    expect(res.status, res.text).to.equal(400);
    expectFieldError(res, fieldMessage);
  }

  describe('nesting and size are limited where the body is parsed', () => {
    const saleEntries = () => entriesOf(h().saleFields(merchant));
    const cases: [string, () => { target: string; init: { headers: Record<string, string>; body: string | Buffer } }, string][] = [
      ['a url-encoded custom_data name 8,000 brackets deep', () => ({ target: '/post', init: urlencoded([...saleEntries(), [`custom_data${'[a]'.repeat(DEEP)}`, 'x']]) }), `custom_data: ${TOO_DEEP}`],
      ['a multipart parameters name 8,000 brackets deep', () => ({ target: '/post', init: multipart([...saleEntries(), [`parameters${'[a]'.repeat(DEEP)}`, 'x']]) }), `parameters: ${TOO_DEEP}`],
      ['a url-encoded name one level over the limit', () => ({ target: '/post', init: urlencoded([...saleEntries(), [`custom_data${'[a]'.repeat(MAX_LEVELS)}`, 'x']]) }), `custom_data: ${TOO_DEEP}`],
      ['a JSON custom_data object 8,000 deep (Checkout session)', () => ({ target: '/api/v1/session', init: json(withMember(sessionBody(merchant), 'custom_data', deepObject(DEEP))) }), `custom_data: ${TOO_DEEP}`],
      ['a JSON parameters object 8,000 deep (Checkout session)', () => ({ target: '/api/v1/session', init: json(withMember(sessionBody(merchant), 'parameters', deepObject(DEEP))) }), `parameters: ${TOO_DEEP}`],
      ['a JSON array 8,000 deep (Checkout session methods)', () => ({ target: '/api/v1/session', init: json(withMember(sessionBody(merchant), 'methods', deepArray(DEEP))) }), `methods: ${TOO_DEEP}`],
      ['a JSON object 8,000 deep sent to /post', () => ({ target: '/post', init: json(withMember(h().saleFields(merchant), 'custom_data', deepObject(DEEP))) }), `custom_data: ${TOO_DEEP}`],
      ['a JSON object one level over the limit', () => ({ target: '/api/v1/session', init: json(withMember(sessionBody(merchant), 'custom_data', deepObject(MAX_LEVELS))) }), `custom_data: ${TOO_DEEP}`],
      ['a url-encoded body of 1,001 fields', () => ({ target: '/post', init: urlencoded([...saleEntries(), ...Array.from({ length: MAX_ENTRIES }, (_, i): [string, string] => [`f${i}`, '1'])]) }), TOO_MANY],
      ['a multipart body of 1,001 fields', () => ({ target: '/post', init: multipart([...saleEntries(), ...Array.from({ length: MAX_ENTRIES }, (_, i): [string, string] => [`f${i}`, '1'])]) }), TOO_MANY],
      ['one field repeated 1,001 times', () => ({ target: '/post', init: urlencoded([...saleEntries(), ...Array.from({ length: MAX_ENTRIES + 1 }, (): [string, string] => ['order_amount', '1'])]) }), TOO_MANY],
      [
        'a JSON custom_data with 1,001 keys',
        () => ({ target: '/api/v1/session', init: json(withMember(sessionBody(merchant), 'custom_data', JSON.stringify(Object.fromEntries(Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => [`k${i}`, 'v']))))) }),
        TOO_MANY,
      ],
    ];
    for (const [label, build, message] of cases) {
      it(`Given ${label}, then 400 naming the field and nothing is stored`, async () => {
        const { target, init } = build();
        const res = await send(target, init);
        expectRefused(res, message);
        await expectNothingStored();
      });
    }

    it(`Given names exactly ${MAX_LEVELS} levels deep, then the depth is accepted and the schema judges the value`, async () => {
      const res = await send('/post', urlencoded([...saleEntries(), [`custom_data${'[a]'.repeat(MAX_LEVELS - 1)}`, 'x']]));
      expectRefused(res, 'custom_data[a]: This value should be of type string.');
      const session = await postJson(h(), '/api/v1/session', withMember(sessionBody(merchant), 'custom_data', deepObject(MAX_LEVELS - 1)));
      expect(session.status, session.text).to.equal(200);
    });
  });

  describe('control characters are refused in every string and every name', () => {
    const sale = (overrides: Fields) => entriesOf(h().saleFields(merchant, overrides));
    const cases: [string, () => { target: string; init: { headers: Record<string, string>; body: string | Buffer } }, string][] = [
      ['NUL in client_key', () => ({ target: '/post', init: urlencoded(sale({ client_key: `${merchant.client_key}\u0000` })) }), `client_key: ${CONTROL}`],
      ['NUL in client_key (multipart)', () => ({ target: '/post', init: multipart(sale({ client_key: `\u0000${merchant.client_key}` })) }), `client_key: ${CONTROL}`],
      ['NUL in order_id', () => ({ target: '/post', init: urlencoded(sale({ order_id: 'ord\u0000-1' })) }), `order_id: ${CONTROL}`],
      ['a line feed in order_id', () => ({ target: '/post', init: urlencoded(sale({ order_id: 'ord\n-1' })) }), `order_id: ${CONTROL}`],
      ['DEL in order_id', () => ({ target: '/post', init: urlencoded(sale({ order_id: 'ord\u007f' })) }), `order_id: ${CONTROL}`],
      ['NUL in payer_first_name', () => ({ target: '/post', init: urlencoded(sale({ payer_first_name: 'Jo\u0000hn' })) }), `payer_first_name: ${CONTROL}`],
      ['ESC in payer_last_name (multipart)', () => ({ target: '/post', init: multipart(sale({ payer_last_name: 'Doe\u001b[2J' })) }), `payer_last_name: ${CONTROL}`],
      ['a tab in payer_email', () => ({ target: '/post', init: urlencoded(sale({ payer_email: 'doe@exa\tmple.com' })) }), `payer_email: ${CONTROL}`],
      ['NUL in a custom_data value', () => ({ target: '/post', init: urlencoded(sale({ 'custom_data[ref]': 'r\u0000' })) }), `custom_data[ref]: ${CONTROL}`],
      ['NUL in a custom_data name', () => ({ target: '/post', init: urlencoded(sale({ 'custom_data[r\u0000]': 'r' })) }), `custom_data[r\\u0000]: ${CONTROL}`],
      ['NUL in a multipart field name', () => ({ target: '/post', init: multipart([...sale({}), ['x\u0000y', 'z']]) }), `x\\u0000y: ${CONTROL}`],
      ['NUL in order.number (Checkout session)', () => ({ target: '/api/v1/session', init: json(JSON.stringify(sessionBody(merchant, { order: { number: 'co\u0000-1' } }))) }), `order.number: ${CONTROL}`],
      ['NUL in merchant_key (Checkout session)', () => ({ target: '/api/v1/session', init: json(JSON.stringify({ ...sessionBody(merchant), merchant_key: `${merchant.merchant_key}\u0000` })) }), `merchant_key: ${CONTROL}`],
      ['BEL in customer.name (Checkout session)', () => ({ target: '/api/v1/session', init: json(JSON.stringify(sessionBody(merchant, { customer: { name: 'John\u0007' } }))) }), `customer.name: ${CONTROL}`],
      ['NUL in a JSON member name', () => ({ target: '/api/v1/session', init: json(JSON.stringify(sessionBody(merchant, { custom_data: { 'k\u0000': 'v' } }))) }), `custom_data.k\\u0000: ${CONTROL}`],
      ['NUL in methods[0]', () => ({ target: '/api/v1/session', init: json(JSON.stringify(sessionBody(merchant, { methods: ['card\u0000'] }))) }), `methods[0]: ${CONTROL}`],
      ['NUL in the hosted fields name', () => ({ target: '/api/v1/processing/purchase/card', init: json(JSON.stringify({ name: 'J\u0000', with_hosted_fields: true })) }), `name: ${CONTROL}`],
      ['NUL in order_id of a status lookup', () => ({ target: '/post', init: urlencoded([['action', 'GET_TRANS_STATUS_BY_ORDER'], ['client_key', merchant.client_key], ['order_id', '\u0000'], ['hash', 'a'.repeat(32)]]) }), `order_id: ${CONTROL}`],
    ];
    for (const [label, build, message] of cases) {
      it(`Given ${label}, then 400 naming the field and nothing is stored`, async () => {
        const { target, init } = build();
        const res = await send(target, init);
        expectRefused(res, message);
        await expectNothingStored();
      });
    }

    it('Given NUL in the cardholder of the hosted payment page, then 400 and the session starts no payment', async () => {
      const { sessionId } = await createSession(h(), merchant);
      const before = (await merchantEvents(h(), merchant)).length;
      const res = await send(
        `/checkout/${sessionId}/pay`,
        urlencoded([['card_number', '4111111111111111'], ['card_expiry', '01/38'], ['card_cvv', '123'], ['card_holder', 'John\u0000Doe']]),
      );
      expectRefused(res, `card_holder: ${CONTROL}`);
      expect(await merchantEvents(h(), merchant)).to.have.length(before);
    });

    it('Given NUL in a query parameter or in the path, then 400 (not a 500 from the database)', async () => {
      const auth = { Authorization: `Bearer ${h().gateway.adminToken}` };
      expectRefused(await rawRequest(h().baseUrl, `/checkout/${randomUUID()}?lang=%00`), `lang: ${CONTROL}`);
      expectRefused(await rawRequest(h().baseUrl, '/admin/chains/a%00b', { headers: auth }), `path: ${CONTROL}`);
      expectRefused(await rawRequest(h().baseUrl, '/admin/payments/%00/history', { headers: auth }), `path: ${CONTROL}`);
      expectRefused(await rawRequest(h().baseUrl, '/admin/ledger/balances?merchant_id=m%00', { headers: auth }), `merchant_id: ${CONTROL}`);
    });

    it('Given line breaks and tabs in free text (order_description, payer_address, custom_data), then the SALE is made and keeps them', async () => {
      const res = await h().sale(merchant, { order_description: 'Two lines\r\nof\ttext', payer_address: '1 Main St\nFlat 2', 'custom_data[note]': 'a\nb' });
      expect(res.body, res.text).to.include({ result: 'SUCCESS' });
      const initiated = (await h().paymentEvents(res.body.trans_id))[0];
      expect(initiated.data.customData).to.deep.equal({ note: 'a\nb' });
    });
  });

  describe('POST /post takes form bodies only, with one string per field', () => {
    it('Given a valid SALE sent as JSON, then 400 saying which content types /post takes, and no payment', async () => {
      const fields = h().saleFields(merchant);
      const res = await send('/post', json(JSON.stringify(fields)));
      expectRefused(res, FORM_ONLY);
      await expectNothingStored();
    });

    it('Given JSON whose order_amount is a one-element array, then it is refused, never unwrapped and settled', async () => {
      const fields = h().saleFields(merchant) as Json;
      const res = await send('/post', json(JSON.stringify({ ...fields, order_amount: [fields.order_amount] })));
      expectRefused(res, FORM_ONLY);
      await expectNothingStored();
    });

    for (const [label, headers] of [
      ['text/plain', { 'Content-Type': 'text/plain' }],
      ['an unknown content type', { 'Content-Type': 'application/x-unknown' }],
      ['no content type', {} as Record<string, string>],
    ] as const) {
      it(`Given a form-shaped body sent as ${label}, then 400 saying which content types /post takes`, async () => {
        const res = await send('/post', { headers, body: urlencoded(entriesOf(h().saleFields(merchant))).body });
        expectRefused(res, FORM_ONLY);
        await expectNothingStored();
      });
    }

    for (const [encoding, encode] of [['url-encoded', urlencoded], ['multipart', multipart]] as const) {
      it(`Given order_amount sent twice (${encoding}), then order_amount: This field was sent more than once.`, async () => {
        const res = await send('/post', encode([...entriesOf(h().saleFields(merchant)), ['order_amount', '2.00']]));
        expectRefused(res, 'order_amount: This field was sent more than once.');
        await expectNothingStored();
      });

      it(`Given client_key sent twice (${encoding}), then client_key: This field was sent more than once.`, async () => {
        const res = await send('/post', encode([...entriesOf(h().saleFields(merchant)), ['client_key', merchant.client_key]]));
        expectRefused(res, 'client_key: This field was sent more than once.');
        await expectNothingStored();
      });

      it(`Given a method parameter sent twice (${encoding}), then it is named as sent more than once, and no other error is given for it`, async () => {
        const fields = { ...h().saleFields(merchant), brand: 'sb-otp', identifier: 'payer-1', return_url: 'https://shop.example/return' };
        const res = await send('/post', encode([...entriesOf(fields), ['parameters[phone]', '+441234567890'], ['parameters[phone]', '+441234567891']]));
        expectRefused(res, 'parameters[phone]: This field was sent more than once.');
        const messages = (res.body.errors as { error_message: string }[]).map((e) => e.error_message);
        expect(messages.filter((m) => m.startsWith('parameters[phone]'))).to.have.length(1);
        await expectNothingStored();
      });
    }

    it('Given a Checkout body whose order.amount is a one-element array, then it is refused as not a string', async () => {
      const body = sessionBody(merchant);
      const res = await postJson(h(), '/api/v1/session', { ...body, order: { ...body.order, amount: [body.order.amount] } });
      expectRefused(res, 'order.amount: This value should be of type string.');
      await expectNothingStored();
    });
  });

  describe('methods', () => {
    const cases: [string, string, number, string | null][] = [
      ['TRACE', '/post', 405, 'POST'],
      ['PROPFIND', '/post', 405, 'POST'],
      ['GET', '/post', 405, 'POST'],
      ['PUT', '/post', 405, 'POST'],
      ['DELETE', '/api/v1/session', 405, 'POST'],
      ['PATCH', '/api/v1/payment/status', 405, 'POST'],
      ['TRACE', `/checkout/${randomUUID()}`, 405, 'HEAD, GET'],
      ['POST', '/sdk/hosted-fields.js', 405, 'HEAD, GET'],
      ['TRACE', '/nowhere', 404, null],
      ['PROPFIND', '/nowhere', 404, null],
    ];
    for (const [method, path, status, allow] of cases) {
      it(`Given ${method} ${path}, then ${status} in the spec's shape${allow ? ` with Allow: ${allow}` : ''}`, async () => {
        const res = await rawRequest(h().baseUrl, path, { method });
        expect(res.status, res.text).to.equal(status);
        expect(res.body, res.text).to.deep.equal(status === 405 ? NOT_ALLOWED : NOT_SUPPORTED);
        if (allow) expect(res.headers.get('allow')).to.equal(allow);
      });
    }

    it('Given OPTIONS on a route, then 200 and the Allow header, no body', async () => {
      const res = await rawRequest(h().baseUrl, '/post', { method: 'OPTIONS' });
      expect(res.status).to.equal(200);
      expect(res.headers.get('allow')).to.equal('POST');
    });

    it('Given a path in another case or with a trailing slash, then 404: a route has one spelling', async () => {
      for (const path of ['/POST', '/Post', '/post/', '/API/v1/session', '/api/v1/session/']) {
        const res = await send(path, urlencoded(entriesOf(h().saleFields(merchant))));
        expect(res.status, `${path}: ${res.text}`).to.equal(404);
        expect(res.body).to.deep.equal(NOT_SUPPORTED);
      }
      await expectNothingStored();
    });
  });

  describe('fuzzing', () => {
    it('Given a few hundred seeded mutations of real requests, then no answer is a 500 and every refusal has the spec shape', async function () {
      this.timeout(120_000);
      const base = entriesOf(h().saleFields(merchant));
      const session = sessionBody(merchant);
      const nasty = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 12 }),
        fc.constantFrom('\u0000', '\u0001\u001f', '\u007f', '[', ']', '[]', '[a][b]', '%00', '%', '\ud800', '__proto__', 'constructor', '"', '\r\n'),
      );
      const mutation = fc.oneof(
        fc.record({ kind: fc.constant('set' as const), index: fc.nat(), value: nasty }),
        fc.record({ kind: fc.constant('rename' as const), index: fc.nat(), value: nasty }),
        fc.record({ kind: fc.constant('repeat' as const), index: fc.nat() }),
        fc.record({ kind: fc.constant('drop' as const), index: fc.nat() }),
        fc.record({ kind: fc.constant('deepen' as const), index: fc.nat(), levels: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(DEEP)) }),
      );
      const request = fc.record({
        method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'GET', 'PUT', 'TRACE', 'PROPFIND'),
        path: fc.constantFrom('/post', '/post', '/post', '/api/v1/session', '/api/v1/payment/status', '/api/v1/processing/purchase/card', '/POST', '/post/', '/%70ost', `/checkout/${randomUUID()}/pay`),
        encoding: fc.constantFrom('urlencoded', 'multipart', 'json', 'text', 'none'),
        mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
      });

      const seen = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          let entries: Entries = r.path.startsWith('/api/') ? entriesOf(Object.fromEntries(Object.entries(session).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))) : [...base];
          for (const m of r.mutations) {
            if (entries.length === 0) break;
            const i = m.index % entries.length;
            const [name, value] = entries[i];
            if (m.kind === 'set') entries[i] = [name, m.value];
            else if (m.kind === 'rename') entries[i] = [`${name}${m.value}`, value];
            else if (m.kind === 'repeat') entries.push([name, value]);
            else if (m.kind === 'drop') entries = entries.filter((_, j) => j !== i);
            else entries[i] = [`${name}${'[a]'.repeat(m.levels)}`, value];
          }
          let init: { headers?: Record<string, string>; body?: string | Buffer };
          if (r.encoding === 'urlencoded') init = urlencoded(entries);
          else if (r.encoding === 'multipart') init = multipart(entries);
          else if (r.encoding === 'json') {
            // Bracketed names become nesting in JSON, so depth is fuzzed there as well.
            init = json(
              `{${entries
                .map(([name, value]) => {
                  const [head, ...rest] = name.split('[');
                  return `${JSON.stringify(head)}:${'{"a":'.repeat(rest.length)}${JSON.stringify(value)}${'}'.repeat(rest.length)}`;
                })
                .join(',')}}`,
            );
          } else if (r.encoding === 'text') init = { headers: { 'Content-Type': 'text/plain' }, body: entries.map((e) => e.join('=')).join('&') };
          else init = {};
          const res = await rawRequest(h().baseUrl, r.path, { method: r.method, ...init });
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          expect(res.status, `${r.method} ${r.path} ${r.encoding}: ${res.text.slice(0, 300)}`).to.be.below(500);
          if (res.status >= 400 && (res.headers.get('content-type') ?? '').includes('json')) {
            expect(res.body.result, res.text).to.equal('ERROR');
            expect(res.body.error_message, res.text).to.be.a('string');
          }
        }),
        { seed: 20_260_501, numRuns: 300, endOnFailure: true },
      );
      // The mutations reached field validation, not only the front door.
      expect(seen.get(400) ?? 0, JSON.stringify([...seen])).to.be.greaterThan(0);
    });
  });
});
