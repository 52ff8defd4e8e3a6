/**
 * Refusals of `POST /post`: the action allowlist, authentication (hash, key environment, IP
 * allowlist), field validation (always before the hash), amounts, payment modes, and bodies that
 * are malformed in every way a client can get wrong (never a 500).
 */
import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import { TEST_PAN, forEachStore, signSale, transIdHash, type Fields, type HttpResult, type TestMerchant } from '../support/gateway-harness';

const NOT_SUPPORTED = { result: 'ERROR', error_code: 0, error_message: 'Route or parameters is not supported' };
const INVALID = 'Request data is invalid.';

function fieldMessages(res: HttpResult): string[] {
  return ((res.body.errors ?? []) as { error_message: string }[]).map((e) => e.error_message);
}

function expectInvalid(res: HttpResult, ...fields: string[]): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body).to.include({ result: 'ERROR', error_code: 100000, error_message: INVALID });
  const messages = fieldMessages(res);
  for (const field of fields) {
    expect(messages.some((m) => m.startsWith(`${field}: `)), `an error for ${field} in ${JSON.stringify(messages)}`).to.equal(true);
  }
}

function expectRefusedCleanly(res: HttpResult, label: string): void {
  expect(res.status, `${label}: ${res.text}`).to.be.within(400, 499);
  expect(res.body, label).to.be.an('object');
  expect(res.body.result, label).to.equal('ERROR');
}

forEachStore('S2S CARD refusals', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  async function expectNoPaymentFor(orderId: string | undefined): Promise<void> {
    expect(await h().initiatedForOrder(merchant, orderId!)).to.have.length(0);
  }

  describe('action allowlist', () => {
    for (const action of ['REFUND', 'sale', 'Sale', 'CREDIT', 'SCHEDULE_INFO', 'SALE ', 'credit2virtual']) {
      it(`action ${JSON.stringify(action)} is HTTP 404, error_code 0`, async () => {
        const fields = h().saleFields(merchant, { action });
        const res = await h().post(fields);
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal(NOT_SUPPORTED);
        await expectNoPaymentFor(fields.order_id);
      });
    }

    it('a missing action is HTTP 404, error_code 0', async () => {
      const res = await h().post(h().saleFields(merchant, { action: undefined }));
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(NOT_SUPPORTED);
    });

    it('an unknown path answers in the same shape', async () => {
      const res = await h().request('/nowhere', { method: 'POST' });
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(NOT_SUPPORTED);
    });
  });

  describe('hash', () => {
    it('a wrong hash is Hash is not valid and records nothing', async () => {
      const fields = h().saleFields(merchant, { hash: 'a'.repeat(32) });
      const res = await h().post(fields);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Hash is not valid' });
      await expectNoPaymentFor(fields.order_id);
    });

    it('a hash over a formatted amount or another card is not valid', async () => {
      const other = h().saleFields(merchant, { card_number: '5555555555554444' });
      const res = await h().post({ ...h().saleFields(merchant), hash: other.hash });
      expect(res.body).to.include({ error_message: 'Hash is not valid' });
    });

    it('the hash may be sent in uppercase hex', async () => {
      const fields = h().saleFields(merchant);
      const res = await h().post({ ...fields, hash: fields.hash!.toUpperCase() });
      expect(res.body).to.include({ result: 'SUCCESS' });
    });

    it('a SALE without payer_email is signed without it', async () => {
      const res = await h().sale(merchant, { payer_email: undefined });
      expect(res.body).to.include({ result: 'SUCCESS' });
    });

    it('a non-ASCII payer_email is signed with ASCII-only uppercasing (decisions 2), not toUpperCase', async () => {
      const email = 'jörg.müller@example.com';
      const naiveInput = `${[...email].reverse().join('')}${merchant.password}${[...(TEST_PAN.slice(0, 6) + TEST_PAN.slice(-4))].reverse().join('')}`;
      const naive = createHash('md5').update(naiveInput.toUpperCase(), 'utf8').digest('hex');
      expect(naive).not.to.equal(signSale({ payer_email: email, card_number: TEST_PAN }, merchant.password));

      const refused = await h().post(h().saleFields(merchant, { payer_email: email, hash: naive }));
      const accepted = await h().sale(merchant, { payer_email: email });

      expect(refused.body, 'signed with toUpperCase').to.include({ error_code: 100000, error_message: 'Hash is not valid' });
      expect(accepted.body, 'signed like strtoupper').to.include({ result: 'SUCCESS', status: 'SETTLED' });
    });

    it('follow-ups are signed with trans_id + password', async () => {
      const sale = await h().sale(merchant);
      const res = await h().post({
        action: 'GET_TRANS_STATUS',
        client_key: merchant.client_key,
        trans_id: sale.body.trans_id,
        hash: transIdHash(sale.body.trans_id.toUpperCase() + 'x', merchant.password),
      });
      expect(res.body).to.include({ error_message: 'Hash is not valid' });
    });
  });

  describe('field validation', () => {
    it('missing required fields are named in errors', async () => {
      const res = await h().post({ action: 'SALE', client_key: merchant.client_key, hash: 'a'.repeat(32) });
      expectInvalid(
        res,
        'order_id',
        'order_amount',
        'order_currency',
        'order_description',
        'payer_first_name',
        'payer_last_name',
        'payer_ip',
        'term_url_3ds',
      );
      expect(fieldMessages(res)).to.include('order_id: This value should not be blank.');
    });

    it('a SALE without a card is invalid', async () => {
      const res = await h().sale(merchant, { card_number: undefined });
      expectInvalid(res, 'card_number');
    });

    it('missing card expiry and CVV are named', async () => {
      const res = await h().sale(merchant, { card_exp_month: undefined, card_cvv2: undefined });
      expectInvalid(res, 'card_exp_month', 'card_cvv2');
    });

    it('a Luhn-invalid card number is a validation error', async () => {
      const fields = h().saleFields(merchant, { card_number: '4111111111111112' });
      const res = await h().post(fields);
      expectInvalid(res, 'card_number');
      await expectNoPaymentFor(fields.order_id);
    });

    it('a past expiry is a validation error', async () => {
      const res = await h().sale(merchant, { card_exp_month: '01', card_exp_year: '2020' });
      expectInvalid(res, 'card_exp_year');
      expect(fieldMessages(res).join(' ')).to.match(/expired/i);
    });

    it('validation comes before the hash', async () => {
      const luhn = await h().post(h().saleFields(merchant, { card_number: '4111111111111112', hash: 'b'.repeat(32) }));
      const shape = await h().post(h().saleFields(merchant, { payer_ip: 'not-an-ip', hash: 'b'.repeat(32) }));
      const past = await h().post(h().saleFields(merchant, { card_exp_year: '2001', hash: 'b'.repeat(32) }));
      expectInvalid(luhn, 'card_number');
      expectInvalid(shape, 'payer_ip');
      expectInvalid(past, 'card_exp_year');
    });

    for (const auth of ['y', 'yes', 'true', '1', 'n', 'Y ']) {
      it(`auth=${JSON.stringify(auth)} is refused (only Y or N)`, async () => {
        const fields = h().saleFields(merchant, { auth });
        const res = await h().post(fields);
        expectInvalid(res, 'auth');
        await expectNoPaymentFor(fields.order_id);
      });
    }

    it('auth=N is a plain sale', async () => {
      const res = await h().sale(merchant, { auth: 'N' });
      expect(res.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
    });

    it('malformed term_url_3ds, currency and country are named', async () => {
      const res = await h().sale(merchant, { term_url_3ds: 'javascript:alert(1)', order_currency: 'usd', payer_country: 'USA' });
      expectInvalid(res, 'term_url_3ds', 'order_currency', 'payer_country');
    });

    it('an unknown currency is refused', async () => {
      const res = await h().sale(merchant, { order_currency: 'XXY' });
      expectInvalid(res, 'order_currency');
    });
  });

  describe('amounts', () => {
    for (const amount of ['0', '0.00']) {
      it(`a zero amount (${amount}) on a plain SALE is amount: This value should be greater than 0.`, async () => {
        const fields = h().saleFields(merchant, { order_amount: amount });
        const res = await h().post(fields);
        expect(res.status).to.equal(400);
        expect(res.body).to.include({ result: 'ERROR', error_code: 100000, error_message: 'amount: This value should be greater than 0.' });
        await expectNoPaymentFor(fields.order_id);
      });
    }

    it("'10.001' USD (a significant third decimal) is refused", async () => {
      const res = await h().sale(merchant, { order_amount: '10.001' });
      expectInvalid(res, 'order_amount');
    });

    for (const amount of ['10,50', '-1.00', '1e3', '10.', '.5', ' 10.50', '0x10']) {
      it(`amount ${JSON.stringify(amount)} is refused`, async () => {
        const res = await h().sale(merchant, { order_amount: amount });
        expectInvalid(res, 'order_amount');
      });
    }

    it("JPY with decimals ('100.5') is refused, '100.0' is not", async () => {
      expectInvalid(await h().sale(merchant, { order_amount: '100.5', order_currency: 'JPY' }), 'order_amount');
      const ok = await h().sale(merchant, { order_amount: '100.0', order_currency: 'JPY' });
      expect(ok.body).to.include({ result: 'SUCCESS', amount: '100.0' });
    });
  });

  describe('payment mode', () => {
    it('a DMS merchant refuses a plain SALE with 204005 and accepts auth=Y', async () => {
      const dms = await h().createMerchant({ paymentMode: 'DMS' });
      const fields = h().saleFields(dms);
      const plain = await h().post(fields);
      expect(plain.status).to.equal(400);
      expect(plain.body).to.deep.equal({ result: 'ERROR', error_code: 204005, error_message: 'Payment action not supported' });
      expect(await h().initiatedForOrder(dms, fields.order_id!)).to.have.length(0);

      const auth = await h().sale(dms, { auth: 'Y' });
      expect(auth.body).to.include({ result: 'SUCCESS', status: 'PENDING' });
    });

    it('an SMS merchant refuses auth=Y with 204005 and accepts a plain SALE', async () => {
      const sms = await h().createMerchant({ paymentMode: 'SMS' });
      const auth = await h().sale(sms, { auth: 'Y' });
      expect(auth.body).to.deep.equal({ result: 'ERROR', error_code: 204005, error_message: 'Payment action not supported' });

      const plain = await h().sale(sms);
      expect(plain.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
    });
  });

  describe('who may call', () => {
    it('a merchant whose allowlist is 10.0.0.0/8 is refused from 127.0.0.1', async () => {
      const fenced = await h().createMerchant({ ipAllowlist: ['10.0.0.0/8'] });
      const fields = h().saleFields(fenced);

      const res = await h().post(fields);

      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Request from this ip is not allowed.' });
      expect(await h().initiatedForOrder(fenced, fields.order_id!)).to.have.length(0);
    });

    it('a forged X-Forwarded-For does not get round the allowlist', async () => {
      const fenced = await h().createMerchant({ ipAllowlist: ['10.0.0.0/8'] });
      const res = await h().request('/post', {
        method: 'POST',
        headers: { 'X-Forwarded-For': '10.1.2.3' },
        body: new URLSearchParams(Object.entries(h().saleFields(fenced)) as [string, string][]),
      });
      expect(res.body).to.include({ error_message: 'Request from this ip is not allowed.' });
    });

    it('an allowlist of 127.0.0.1/32 lets the request through', async () => {
      const local = await h().createMerchant({ ipAllowlist: ['127.0.0.1/32'] });
      const res = await h().sale(local);
      expect(res.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
    });

    it('a live_ client key on the sandbox is 220002 Use merchant test key.', async () => {
      const res = await h().post(h().saleFields(merchant, { client_key: merchant.client_key.replace(/^test_/, 'live_') }));
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 220002, error_message: 'Use merchant test key.' });
    });

    it('an unknown client key is refused', async () => {
      const res = await h().post(h().saleFields(merchant, { client_key: `test_ck_${randomUUID().replace(/-/g, '')}` }));
      expectInvalid(res, 'client_key');
    });

    it('a missing client key is refused', async () => {
      const res = await h().post(h().saleFields(merchant, { client_key: undefined }));
      expectInvalid(res, 'client_key');
    });
  });

  describe('bodies', () => {
    it('multipart/form-data gives the same answers as url-encoded', async () => {
      const sale = await h().sale(merchant);
      const statusFields: Fields = {
        action: 'GET_TRANS_STATUS',
        client_key: merchant.client_key,
        trans_id: sale.body.trans_id,
        hash: transIdHash(sale.body.trans_id, merchant.password),
      };
      const encoded = await h().post(statusFields);
      const multipart = await h().postMultipart(statusFields);
      expect(multipart.status).to.equal(200);
      expect(multipart.body).to.deep.equal(encoded.body);

      const invalidFields = h().saleFields(merchant, { card_number: '4111111111111112', auth: 'yes' });
      const a = await h().post(invalidFields);
      const b = await h().postMultipart(invalidFields);
      expect(b.status).to.equal(a.status);
      expect(b.body).to.deep.equal(a.body);
    });

    it('parameters[...] and custom_data[...] arrive nested from both encodings', async () => {
      for (const multipart of [false, true]) {
        const res = await h().sale(merchant, { 'parameters[descriptor]': 'SHOP', 'custom_data[ref]': 'r-1' }, { multipart });
        expect(res.body, multipart ? 'multipart' : 'url-encoded').to.include({ result: 'SUCCESS' });
        const initiated = (await h().paymentEvents(res.body.trans_id))[0];
        expect(initiated.data.parameters).to.deep.equal({ descriptor: 'SHOP' });
        expect(initiated.data.customData).to.deep.equal({ ref: 'r-1' });
      }
    });

    const raw: [string, RequestInit][] = [
      ['broken JSON', { headers: { 'content-type': 'application/json' }, body: '{"action":"SALE",' }],
      ['a JSON array', { headers: { 'content-type': 'application/json' }, body: '[1,2,3]' }],
      ['JSON with wrong types', { headers: { 'content-type': 'application/json' }, body: '{"action":"SALE","client_key":{"a":1},"order_amount":10.5}' }],
      ['a multipart body without its boundary', { headers: { 'content-type': 'multipart/form-data; boundary=xyz' }, body: 'garbage' }],
      ['a multipart body with no boundary parameter', { headers: { 'content-type': 'multipart/form-data' }, body: 'garbage' }],
      ['bad percent-encoding', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=SALE&client_key=%E0%A4%A&hash=%' }],
      ['plain text', { headers: { 'content-type': 'text/plain' }, body: 'action=SALE' }],
      ['an unknown content type', { headers: { 'content-type': 'application/x-unknown' }, body: '\u0000\u0001' }],
      ['no body', {}],
      ['names nested too deep', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=SALE&a[b][c][d][e][f][g][h]=1' }],
      ['a 300 kB form', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `action=SALE&x=${'a'.repeat(300 * 1024)}` }],
    ];
    for (const [label, init] of raw) {
      it(`${label} is refused cleanly, never a 500`, async () => {
        const res = await h().request('/post', { method: 'POST', ...init });
        expectRefusedCleanly(res, label);
      });
    }

    it('a multipart body carrying a file is refused cleanly', async () => {
      const form = new FormData();
      form.append('action', 'SALE');
      form.append('client_key', merchant.client_key);
      form.append('upload', new Blob(['x'.repeat(1000)]), 'card.txt');
      const res = await h().request('/post', { method: 'POST', body: form });
      expectRefusedCleanly(res, 'file');
    });

    it('every SALE field sent twice, or as a nested name, is refused cleanly', async () => {
      const fields = h().saleFields(merchant);
      for (const name of Object.keys(fields)) {
        const twice = new URLSearchParams(Object.entries(fields) as [string, string][]);
        twice.append(name, fields[name]!);
        const nested = new URLSearchParams(Object.entries(fields).filter(([k]) => k !== name) as [string, string][]);
        nested.append(`${name}[x]`, fields[name]!);
        for (const [label, body] of [['twice', twice], ['nested', nested]] as const) {
          const res = await h().request('/post', { method: 'POST', body });
          expectRefusedCleanly(res, `${name} ${label}`);
        }
      }
      expect(await h().initiatedForOrder(merchant, fields.order_id!)).to.have.length(0);
    });

    it('field names cannot reach Object.prototype (url-encoded or multipart)', async () => {
      const probe = `probe_${randomUUID().replace(/-/g, '')}`;
      try {
        const encoded = await h().request('/post', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `action=SALE&__proto__[${probe}]=1&constructor[prototype][${probe}]=1`,
        });
        const multipart = await h().postMultipart({
          action: 'SALE',
          client_key: merchant.client_key,
          [`__proto__[${probe}]`]: 'polluted',
          [`constructor[prototype][${probe}]`]: 'polluted',
        });
        expect(({} as Record<string, unknown>)[probe], 'Object.prototype polluted').to.equal(undefined);
        expectRefusedCleanly(encoded, 'url-encoded');
        expectRefusedCleanly(multipart, 'multipart');
      } finally {
        delete (Object.prototype as Record<string, unknown>)[probe];
      }
      const after = await h().sale(merchant);
      expect(after.body).to.include({ result: 'SUCCESS' });
    });
  });
});
