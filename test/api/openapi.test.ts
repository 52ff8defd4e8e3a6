/**
 * The OpenAPI document (GET /openapi.json) and its page (GET /docs/api): a valid OpenAPI 3.1
 * document, every route of the app in it (or left out for a stated reason) and every path in it
 * routed, every S2S action of the allowlist described with the schema the server validates it
 * with (SALE in both its shapes, card and APM, and CREDIT2VIRTUAL), request bodies the document
 * accepts being the ones the server accepts, and the callbacks the gateway sends (S2S CARD, S2S APM,
 * payouts) fitting the webhooks that describe them.
 */
import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { routerOf } from '../../src/api/app';
import { UNDOCUMENTED_ROUTES } from '../../src/api/openapi/document';
import { DOCS_PAGE_CSP } from '../../src/api/openapi/routes';
import { apmSaleSchema, credit2VirtualSchema, saleSchema } from '../../src/api/s2s/schemas';
import { APM_SALE_COMPONENT } from '../../src/api/openapi/s2s';
import { toOpenApiSchema } from '../../src/api/openapi/json-schema';
import { integerTextPattern } from '../../src/api/openapi/schedule-schemas';
import { parseScheduleCreate } from '../../src/api/schedule-fields';
import { s2sActions } from '../../src/api/s2s/actions';
import type { S2sDeps } from '../../src/api/s2s/s2s-action';
import { sharedAjv } from '../../src/api/validation';
import { BRANDS_PATH } from '../../src/api/sdk/pay-session-script';
import { apmCallbackBodyHash, payoutCallbackHash } from '../../src/domain/signatures';
import { apmByTransId, apmSale } from '../support/apm-client';
import { CallbackReceiver, type ReceivedCallback } from '../support/callback-receiver';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';
import { payout, topUp } from '../support/payout-client';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
  webhooks: Record<string, unknown>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `/admin/callbacks/:id` as OpenAPI writes it: `/admin/callbacks/{id}`. */
const openApiPath = (koaPath: string) => koaPath.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI document', function () {
  let t: TestGateway;
  let doc: Doc;
  before(async () => {
    t = await startTestGateway({ kind: 'sqlite' });
    const answer = await t.request('/openapi.json');
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    doc = answer.body as Doc;
  });
  after(async () => t?.stop());

  it('Given /openapi.json, then it is a valid OpenAPI 3.1 document naming this gateway as its server', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
    expect((doc as unknown as { servers: { url: string }[] }).servers).to.deep.equal([{ url: t.baseUrl }]);
  });

  it('Given the app\'s router, then every route is in the document or under a prefix left out for a stated reason', () => {
    const missing: string[] = [];
    for (const layer of routerOf(t.gateway.app).stack) {
      for (const method of layer.methods.map((m) => m.toLowerCase()).filter((m) => METHODS.includes(m))) {
        const documented = doc.paths[openApiPath(String(layer.path))]?.[method] !== undefined;
        const leftOut = UNDOCUMENTED_ROUTES.some((u) => String(layer.path).startsWith(u.prefix));
        if (!documented && !leftOut) missing.push(`${method.toUpperCase()} ${String(layer.path)}`);
      }
    }
    expect(missing).to.deep.equal([]);
  });

  it('Given the document, then every path and method in it is routed, and every left-out prefix still has routes', () => {
    const routed = new Set(
      routerOf(t.gateway.app).stack.flatMap((layer) => layer.methods.map((m) => `${m.toLowerCase()} ${openApiPath(String(layer.path))}`)),
    );
    const unrouted = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((m) => METHODS.includes(m))
        .filter((m) => !routed.has(`${m} ${p}`))
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(unrouted).to.deep.equal([]);
    const stale = UNDOCUMENTED_ROUTES.filter((u) => !routerOf(t.gateway.app).stack.some((layer) => String(layer.path).startsWith(u.prefix)));
    expect(stale.map((u) => u.prefix)).to.deep.equal([]);
  });

  it('Given the /post allowlist, then the form body is a oneOf over exactly its actions, discriminated by action', () => {
    const names = Object.keys(s2sActions({ ajv: sharedAjv() } as S2sDeps)).sort();
    const post = doc.paths['/post'].post;
    const form = post.requestBody!.content['application/x-www-form-urlencoded'].schema as {
      oneOf: { $ref: string }[];
      discriminator: { propertyName: string; mapping: Record<string, string> };
    };
    expect(form.discriminator.propertyName).to.equal('action');
    expect(Object.keys(form.discriminator.mapping).sort()).to.deep.equal(names);
    for (const name of names) {
      const component = doc.components.schemas[form.discriminator.mapping[name].split('/').pop()!];
      expect((component.properties as Record<string, unknown>).action, name).to.deep.equal({ const: name });
      expect(component.required, name).to.include.members(['action', 'client_key', 'hash']);
      expect(component.description, name).to.match(/hash = /);
    }
    // SALE's second shape, the APM SALE, is in the oneOf beside the discriminator's card SALE.
    expect(form.oneOf.map((r) => r.$ref).sort()).to.deep.equal([...Object.values(form.discriminator.mapping), `#/components/schemas/${APM_SALE_COMPONENT}`].sort());
    expect(post.requestBody!.content).to.have.keys('application/x-www-form-urlencoded', 'multipart/form-data');
  });

  it('Given the SALE schema the server validates with, then the document describes exactly its fields and requirements', () => {
    const component = doc.components.schemas.S2sSaleRequest;
    const server = toOpenApiSchema(saleSchema) as { properties: Record<string, unknown>; required: string[] };
    const { action, ...documented } = component.properties as Record<string, unknown>;
    const { action: _anyAction, ...validated } = server.properties;
    expect(action).to.deep.equal({ const: 'SALE' });
    expect(documented).to.deep.equal(validated);
    expect(component.required).to.have.members([...server.required, 'action']);
    expect((documented.term_url_3ds as { format: string }).format).to.equal('uri');
  });

  it('Given SALE bodies, then the document accepts the ones the server\'s validator accepts and refuses the others', () => {
    const validate = new Ajv2020({ strict: false, allErrors: true });
    addFormats(validate);
    const documented = validate.compile(doc.components.schemas.S2sSaleRequest);
    const server = s2sActions({ ajv: sharedAjv() } as S2sDeps).SALE.validate;
    const good: Record<string, string> = {
      action: 'SALE',
      client_key: 'test_ck_x',
      order_id: 'o-1',
      order_amount: '10.50',
      order_currency: 'USD',
      order_description: 'Books',
      card_number: '4111111111111111',
      payer_first_name: 'John',
      payer_last_name: 'Doe',
      payer_ip: '203.0.113.10',
      term_url_3ds: 'https://shop.example/return',
      hash: 'a'.repeat(32),
    };
    const cases: Record<string, string | undefined>[] = [
      good,
      { ...good, order_amount: '10,50' },
      { ...good, order_currency: 'usd' },
      { ...good, payer_ip: 'localhost' },
      { ...good, term_url_3ds: 'not a url' },
      { ...good, order_id: undefined },
      { ...good, hash: 'zz' },
    ];
    for (const body of cases) {
      const clean = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
      expect(documented(clean), JSON.stringify(clean)).to.equal(server(clean).length === 0);
    }
  });

  /** The documented component and the server's validator agree on every body (accepted by both or refused by both). */
  function expectAgreement(component: string, server: (form: unknown) => unknown[], cases: Record<string, string | undefined>[]) {
    const validate = new Ajv2020({ strict: false, allErrors: true });
    addFormats(validate);
    const documented = validate.compile(doc.components.schemas[component]);
    for (const body of cases) {
      const clean = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
      expect(documented(clean), `${component} ${JSON.stringify(clean)}`).to.equal(server(clean).length === 0);
    }
  }

  /** The component names exactly the fields and requirements of `schema`, and action is `name`. */
  function expectSameFields(component: string, schema: object, name: string) {
    const documented = doc.components.schemas[component]!;
    const server = toOpenApiSchema(schema) as { properties: Record<string, unknown>; required: string[] };
    const { action, ...fields } = documented.properties as Record<string, unknown>;
    const { action: _anyAction, ...validated } = server.properties;
    expect(action).to.deep.equal({ const: name });
    expect(fields).to.deep.equal(validated);
    expect(documented.required).to.have.members([...server.required, 'action']);
  }

  it('Given the APM SALE, then its component describes exactly the fields of apmSaleSchema, brand and parameters[...] included, and agrees with the server', () => {
    expectSameFields(APM_SALE_COMPONENT, apmSaleSchema, 'SALE');
    const component = doc.components.schemas[APM_SALE_COMPONENT]!;
    expect(component.required).to.include('brand');
    expect(component.description).to.contain('hash = md5(upper(strrev(identifier + order_id + order_amount + order_currency + password)))');
    expect((component.properties as Record<string, { type?: string }>).parameters!.type).to.equal('object');
    const server = s2sActions({ ajv: sharedAjv() } as S2sDeps).SALE.validate;
    const good = {
      action: 'SALE',
      client_key: 'test_ck_x',
      brand: 'sb-redirect',
      order_id: 'o-1',
      order_amount: '10.00',
      order_currency: 'USD',
      order_description: 'Books',
      identifier: 'payer-42',
      payer_ip: '203.0.113.10',
      return_url: 'https://shop.example/return',
      hash: 'a'.repeat(32),
    };
    expectAgreement(APM_SALE_COMPONENT, server, [
      good,
      { ...good, identifier: undefined },
      { ...good, return_url: 'nowhere' },
      { ...good, order_amount: '10,00' },
      { ...good, brand: 'b'.repeat(37) },
      { ...good, auth: 'maybe' },
    ]);
  });

  it('Given the card SALE, then the wallet fields (digital_wallet, payment_token) and their Formula 8 hash are documented, and a wallet body is accepted by both', () => {
    const sale = doc.components.schemas.S2sSaleRequest!;
    expect(sale.properties).to.include.keys('digital_wallet', 'payment_token');
    expect(sale.description).to.contain('with digital_wallet and payment_token (Formula 8): md5(upper(strrev(payer_email) + password))');
    const server = s2sActions({ ajv: sharedAjv() } as S2sDeps).SALE.validate;
    const wallet = {
      action: 'SALE',
      client_key: 'test_ck_x',
      order_id: 'o-1',
      order_amount: '10.50',
      order_currency: 'USD',
      order_description: 'Books',
      digital_wallet: 'googlepay',
      payment_token: '{"signature":"x","protocolVersion":"ECv2","signedMessage":"{}"}',
      payer_first_name: 'John',
      payer_last_name: 'Doe',
      payer_ip: '203.0.113.10',
      term_url_3ds: 'https://shop.example/return',
      hash: 'a'.repeat(32),
    };
    expectAgreement('S2sSaleRequest', server, [wallet, { ...wallet, digital_wallet: 'w'.repeat(33) }]);
  });

  it('Given CREDIT2VIRTUAL, then its component describes exactly credit2VirtualSchema with the payout hash and answer, and agrees with the server', () => {
    const mapping = (doc.paths['/post'].post.requestBody!.content['application/x-www-form-urlencoded'].schema as { discriminator: { mapping: Record<string, string> } }).discriminator.mapping;
    const component = mapping.CREDIT2VIRTUAL!.split('/').pop()!;
    expectSameFields(component, credit2VirtualSchema, 'CREDIT2VIRTUAL');
    expect(doc.components.schemas[component]!.description).to.contain('hash = md5(upper(strrev(order_id + order_amount + order_currency)) + password)');
    expect(doc.components.schemas.S2sPayoutAnswer!.properties).to.include.keys('action', 'result', 'status', 'order_id', 'trans_id', 'trans_date', 'amount', 'currency', 'decline_reason');
    const server = s2sActions({ ajv: sharedAjv() } as S2sDeps).CREDIT2VIRTUAL.validate;
    const good = {
      action: 'CREDIT2VIRTUAL',
      client_key: 'test_ck_x',
      brand: 'sb-momo',
      order_id: 'p-1',
      order_amount: '25.00',
      order_currency: 'GHS',
      'parameters[mobile_money_operator]': 'mtn-gh',
      payee_email: 'ama@example.com',
      hash: 'a'.repeat(32),
    };
    expectAgreement(component, (form) => server(form), [
      good,
      { ...good, brand: undefined },
      { ...good, order_currency: 'ghs' },
      { ...good, payee_email: 'not-an-email' },
      { ...good, order_amount: '1.2.3' },
    ]);
  });

  it('Given schedule fields read by code, then the document\'s schedule schema agrees with that code on what it accepts', () => {
    const validate = new Ajv2020({ strict: false });
    addFormats(validate);
    const documented = validate.compile(doc.components.schemas.S2sCreateScheduleRequest);
    const base = { action: 'CREATE_SCHEDULE', client_key: 'k', hash: 'a'.repeat(32), name: 'Monthly', interval_length: '1', interval_unit: 'month', payments_count: '12' };
    const cases = [
      base,
      { ...base, interval_length: '365', interval_unit: 'day' },
      { ...base, interval_length: '007' },
      { ...base, interval_unit: 'fortnight' },
      { ...base, interval_length: '0' },
      { ...base, interval_length: '366' },
      { ...base, payments_count: '1001' },
      { ...base, name: '' },
      { ...base, delayed_first_payment: 'to_day_of_month', first_payment_day_of_month: '15' },
      { ...base, delayed_first_payment: 'someday' },
    ];
    for (const body of cases) {
      const accepted = parseScheduleCreate(body, 'form').ok;
      expect(documented(body), JSON.stringify(body)).to.equal(accepted);
    }
  });

  it('Given integer ranges written as text patterns, then each matches exactly the numbers of its range', () => {
    for (const [min, max] of [[1, 7], [1, 31], [1, 365], [1, 1000], [0, 9], [5, 123]]) {
      const pattern = new RegExp(integerTextPattern(min, max));
      const wrong = Array.from({ length: 2001 }, (_, n) => n).filter((n) => pattern.test(String(n)) !== (n >= min && n <= max));
      expect(wrong, `${min}..${max}`).to.deep.equal([]);
    }
  });

  it('Given callbacks, then the document describes each kind as a webhook with its signature headers and hash formula', () => {
    expect(doc.webhooks).to.have.keys('s2sCardCallback', 's2sApmCallback', 'payoutCallback', 'checkoutCallback');
    for (const name of Object.keys(doc.webhooks)) {
      const post = (doc.webhooks[name] as { post: { parameters: { name: string }[] } }).post;
      expect(post.parameters.map((p) => p.name), name).to.include.members(['X-Signature', 'X-Delivery-Id', 'X-Delivery-Attempt']);
    }
    const hashOf = (name: string) => (webhookSchema(name).properties.hash as { description: string }).description;
    expect(hashOf('payoutCallback')).to.contain('md5(upper(strrev(trans_id + order_id + status)) + password)');
    expect(hashOf('s2sApmCallback')).to.contain('names sorted at every level in byte order');
    expect(hashOf('s2sCardCallback')).to.contain('md5(upper(strrev(payer_email) + password + trans_id + strrev(first6 + last4)))');
  });

  /** The form schema a webhook posts. */
  function webhookSchema(name: string): { required: string[]; properties: Record<string, unknown> } {
    const post = (doc.webhooks[name] as { post: { requestBody: { content: Record<string, { schema: { required: string[]; properties: Record<string, unknown> } }> } } }).post;
    return post.requestBody.content['application/x-www-form-urlencoded'].schema;
  }

  /** A form body as the webhook's schema reads it: `custom_data[a]=1` is `{custom_data: {a: '1'}}`. */
  function formObject(body: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, value] of new URLSearchParams(body)) {
      const [head, ...keys] = name.split(/\[|\]\[|\]$/).filter((k) => k !== '');
      let node = out;
      const path = [head, ...keys];
      path.slice(0, -1).forEach((key) => {
        node[key] ??= {};
        node = node[key] as Record<string, unknown>;
      });
      node[path[path.length - 1]] = value;
    }
    return out;
  }

  /** What is wrong with a callback the gateway sent, read against the webhook that describes it. */
  function webhookProblems(name: string, callback: ReceivedCallback): string[] {
    const schema = webhookSchema(name);
    const validate = new Ajv2020({ strict: false, allErrors: true });
    addFormats(validate);
    const body = formObject(callback.body);
    const problems = Object.keys(body)
      .filter((field) => !(field in schema.properties))
      .map((field) => `${name}: ${field} is sent but not described`);
    if (!validate.validate(schema, body)) problems.push(...(validate.errors ?? []).map((e) => `${name}: ${e.instancePath || '/'} ${e.message}`));
    return problems;
  }

  describe('the callbacks the gateway sends, read against their webhooks', () => {
    const receiver = new CallbackReceiver();
    before(async () => {
      await receiver.start();
      await t.gateway.notifier.start();
    });
    after(() => receiver.stop());

    async function callbacksOf(transId: string, count: number): Promise<ReceivedCallback[]> {
      const deadline = Date.now() + 10_000;
      while (receiver.ofTransaction(transId).length < count) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} callback(s) of ${transId}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return receiver.ofTransaction(transId);
    }

    it("Given an S2S APM payment waiting at its provider's page and one settled at once, both with custom_data, then each callback fits s2sApmCallback and its hash is the APM formula", async () => {
      const merchant = await t.createMerchant({ notificationUrl: receiver.url });
      const redirected = await apmSale(t, merchant, { 'custom_data[basket]': 'b-1' });
      expect(redirected.body, redirected.text).to.include({ result: 'REDIRECT', status: 'REDIRECT' });
      const settled = await apmSale(t, merchant, { identifier: 'success@gmail.com', 'custom_data[basket]': 'b-2' });
      expect(settled.body, settled.text).to.include({ result: 'SUCCESS', status: 'SETTLED' });
      const callbacks = [...(await callbacksOf(redirected.body.trans_id, 1)), ...(await callbacksOf(settled.body.trans_id, 1))];
      expect(callbacks.map((c) => c.fields.get('result'))).to.deep.equal(['REDIRECT', 'SUCCESS']);
      for (const callback of callbacks) {
        expect(webhookProblems('s2sApmCallback', callback)).to.deep.equal([]);
        expect(callback.fields.get('hash')).to.equal(apmCallbackBodyHash(callback.body, merchant.password));
      }
    });

    it('Given a payout paid out and one declined for its balance, then each callback fits payoutCallback and its hash is the payout formula', async () => {
      const merchant = await t.createMerchant({ notificationUrl: receiver.url });
      await topUp(t, merchant, 'GHS', 1500);
      const paid = await payout(t, merchant);
      expect(paid.body, paid.text).to.include({ result: 'SUCCESS', status: 'SETTLED' });
      const declined = await payout(t, merchant, { order_amount: '100.00' });
      expect(declined.body, declined.text).to.include({ result: 'DECLINED', decline_reason: 'Insufficient payout balance' });
      const callbacks = [...(await callbacksOf(paid.body.trans_id, 1)), ...(await callbacksOf(declined.body.trans_id, 1))];
      for (const callback of callbacks) {
        expect(webhookProblems('payoutCallback', callback)).to.deep.equal([]);
        const f = Object.fromEntries(callback.fields);
        expect(f.hash).to.equal(payoutCallbackHash({ transId: f.trans_id, orderId: f.order_id, status: f.status, password: merchant.password }));
      }
    });

    it('Given an S2S CARD sale with custom_data, then its callback fits s2sCardCallback', async () => {
      const merchant = await t.createMerchant({ notificationUrl: receiver.url });
      const sale = await t.sale(merchant, { 'custom_data[ref]': 'r-1' });
      const [callback] = await callbacksOf(sale.body.trans_id, 1);
      expect(webhookProblems('s2sCardCallback', callback)).to.deep.equal([]);
    });

    it('Given a callback with a field its webhook does not describe, then the check names it', async () => {
      const merchant = await t.createMerchant({ notificationUrl: receiver.url });
      const sale = await t.sale(merchant);
      const [callback] = await callbacksOf(sale.body.trans_id, 1);
      expect(webhookProblems('payoutCallback', callback)).to.include.members(['payoutCallback: descriptor is sent but not described', 'payoutCallback: /action must be equal to constant']);
    });
  });

  it('Given S2S answers of card and APM payments and payouts, then each fits the answer schema the document gives its action', async () => {
    const validate = new Ajv2020({ strict: false, allErrors: true });
    addFormats(validate);
    const fits = (component: string, answer: { body: unknown; text: string }) => {
      const ok = validate.validate(doc.components.schemas[component], answer.body);
      expect(ok, `${component}: ${answer.text} ${JSON.stringify(validate.errors)}`).to.equal(true);
    };
    const merchant = await t.createMerchant();
    const sale = await t.sale(merchant);
    fits('S2sPaymentAnswer', sale);
    fits('S2sStatusAnswer', await t.status(merchant, sale.body.trans_id));
    const refund = await t.creditVoid(merchant, sale.body.trans_id, '1.00');
    expect(refund.body).to.include({ result: 'ACCEPTED' });
    fits('S2sAcceptedAnswer', refund);
    const apm = await apmSale(t, merchant, { identifier: 'success@gmail.com' });
    fits('S2sPaymentAnswer', apm);
    fits('S2sStatusAnswer', await apmByTransId(t, 'GET_TRANS_STATUS', merchant, apm.body.trans_id));
    await topUp(t, merchant, 'GHS', 1500);
    const paid = await payout(t, merchant);
    fits('S2sPayoutAnswer', paid);
    fits('S2sStatusAnswer', await apmByTransId(t, 'GET_TRANS_STATUS', merchant, paid.body.trans_id));
  });

  it("Given the Checkout SDK's brands endpoint, then the document describes it with its two credentials and its answer, and the gateway answers in that shape", async () => {
    const item = doc.paths[BRANDS_PATH] as unknown as { get: { parameters: { name: string }[]; responses: Record<string, { content?: Record<string, { schema: object }> }> } };
    expect(item.get.parameters.map((p) => p.name)).to.have.members(['session', 'token']);
    const refused = await t.request(`${BRANDS_PATH}?session=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`);
    expect(refused.status).to.equal(400);
    expect(refused.body.errors).to.deep.equal([{ error_code: 100000, error_message: 'session: The session does not exist.' }]);
    const schema = item.get.responses['200'].content!['application/json'].schema;
    const validate = new Ajv2020({ strict: false });
    expect(validate.validate(schema, { brands: ['googlepay', 'applepay'], simulated: true })).to.equal(true);
    expect(validate.validate(schema, { brands: ['card'], simulated: true })).to.equal(false);
  });

  it('Given /docs/api, then the reference page loads swagger-ui from the gateway itself under a CSP without inline script', async () => {
    const page = await t.request('/docs/api');
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy')).to.equal(DOCS_PAGE_CSP);
    expect(DOCS_PAGE_CSP).to.include("script-src 'self'").and.not.include('unsafe-eval');
    expect(page.text).not.to.match(/<script(?![^>]*\bsrc=)[^>]*>/);
    for (const src of page.text.matchAll(/(?:src|href)="(\/docs\/api\/assets\/[^"]+)"/g)) {
      const asset = await t.request(src[1]);
      expect(asset.status, src[1]).to.equal(200);
    }
    expect((await t.request('/docs/api/assets/package.json')).status).to.equal(404);
  });
});
