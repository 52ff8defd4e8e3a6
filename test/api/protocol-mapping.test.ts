/**
 * Protocol Mapping over HTTP: the optional fields a merchant switches on in status responses, what
 * the payer's return from the ACS and redirect pages records (3-D Secure result, browser), and the
 * return URL parameters. Then the merchants read model of an older database, and the CLI switches.
 */
import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createReadModelDb, migrateReadModels, type ReadModelDbConfig } from '../../projections/database';
import { ReadModels } from '../../projections/read-models';
import { merchantsProjection } from '../../projections/merchants/module';
import { Projector } from '../../projections/projector';
import { forEachStore, type HttpResult, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { MemoryEventStore } from '../support/memory-event-store';
import { appendMerchantEvents, merchantRegistered, merchantSettingsChanged } from '../support/payment-fixtures';
import { requirePostgres } from '../support/postgres';
import { inProcessCliWithDataDir } from '../support/cli-in-process';
import { scratchReadModelDb } from '../support/scratch-read-model-db';

const OPTIONAL_FIELDS = [
  'card',
  'card_expiration_date',
  'brand',
  'arn',
  'rrn',
  'initiator',
  'source',
  'sequence',
  'checkout_payment_method',
  'threeDSServerTransID',
  'transStatus',
  'eci',
  'browser_user_agent',
  'digital_wallet',
  'pan_type',
  'payer_first_name',
  'payer_email',
  'payer_ip',
];

const BROWSER = {
  browser_color_depth: '24',
  browser_screen_height: '1080',
  browser_screen_width: '1920',
  browser_java_enabled: 'false',
  browser_javascript_enabled: 'true',
  browser_language: 'en-GB',
  browser_timezone_offset: '-60',
  browser_platform: 'Linux x86_64',
};
const HEADERS = {
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) TestBrowser/1.0',
  Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'Accept-Language': 'de-CH,de;q=0.9',
};

/** The S2S CARD callback / return URL hash, written out (docs/reference/hashes.md#s2s-card-callback-and-return-url), for the test card. */
function expectedHash(email: string, password: string, transId: string): string {
  const rev = (s: string) => Buffer.from(s).reverse();
  const input = Buffer.concat([rev(email), Buffer.from(password), Buffer.from(transId), rev('4111111111')]);
  return createHash('md5').update(input.toString('latin1').toUpperCase()).digest('hex');
}

/** The page's one form, as a browser would post it: its hidden fields, the button pressed, and what the page script fills in. */
function submitPage(
  h: TestGateway,
  page: HttpResult,
  button: Record<string, string>,
  script: Record<string, string> | null = BROWSER,
): Promise<HttpResult> {
  const action = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1];
  expect(action, 'form action').to.be.a('string');
  const fields = new URLSearchParams();
  for (const [, name, value] of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(name, script && name in script ? script[name] : value.replace(/&amp;/g, '&'));
  }
  for (const [k, v] of Object.entries(button)) fields.set(k, v);
  return h.request(action!.replace(/&amp;/g, '&'), { method: 'POST', body: fields, headers: HEADERS });
}

forEachStore('Protocol Mapping', (h) => {
  describe('status responses', () => {
    it('carry none of the optional fields while every switch is off (the default)', async () => {
      const merchant = await h().createMerchant();
      const sale = await h().sale(merchant);

      const byId = await h().status(merchant, sale.body.trans_id);
      const byOrder = await h().statusByOrder(merchant, sale.fields.order_id!);

      expect(byId.body.status).to.equal('SETTLED');
      expect(Object.keys(byId.body)).not.to.include.any.members(OPTIONAL_FIELDS);
      expect(Object.keys(byOrder.body)).not.to.include.any.members(OPTIONAL_FIELDS);
    });

    it('carry what is switched on, and leave out a switched-on field the payment has no value for', async () => {
      const merchant = await h().createMerchant({
        protocolMapping: {
          fields: ['card', 'brand', 'arn_rrn', 'card_on_file', 'checkout_payment_method', 'three_ds', 'wallet', 'payer_email', 'payer_house_number', 'payer_phone_country_code', 'payer_district'],
        },
      });
      const sale = await h().sale(merchant, { payer_house_number: '12a', payer_phone_country_code: '+41', req_token: 'Y' });

      for (const res of [await h().status(merchant, sale.body.trans_id), await h().statusByOrder(merchant, sale.fields.order_id!)]) {
        expect(res.body).to.include({
          card: '411111******1111',
          card_expiration_date: '01/2038',
          brand: 'VISA',
          initiator: 'cardholder',
          source: 'new_card',
          sequence: 'initial',
          checkout_payment_method: 'card',
          payer_email: 'doe@example.com',
          payer_house_number: '12a',
          payer_phone_country_code: '+41',
        });
        expect(res.body.rrn).to.match(/^[0-9]{12}$/);
        expect(res.body.arn).to.match(/^[0-9]{23}$/);
        // No challenge, no wallet, no district: left out of a status response.
        expect(Object.keys(res.body)).not.to.include.any.members(['transStatus', 'eci', 'digital_wallet', 'pan_type', 'payer_district', 'payer_ip']);
      }
    });

    it('show the RRN of an authorization, and its ARN once captured', async () => {
      const merchant = await h().createMerchant({ protocolMapping: { fields: ['arn_rrn'] } });
      const auth = await h().sale(merchant, { auth: 'Y' });

      const pending = await h().status(merchant, auth.body.trans_id);
      expect(pending.body.status).to.equal('PENDING');
      expect(pending.body.rrn).to.match(/^[0-9]{12}$/);
      expect(pending.body).not.to.have.property('arn');

      await h().capture(merchant, auth.body.trans_id);
      const captured = await h().status(merchant, auth.body.trans_id);
      expect(captured.body.rrn).to.equal(pending.body.rrn);
      expect(captured.body.arn).to.match(/^[0-9]{23}$/);
      const events = await h().paymentEvents(auth.body.trans_id);
      expect(events.find((e) => e.type === 'PaymentAuthorized')!.data.rrn).to.equal(pending.body.rrn);
      expect(events.find((e) => e.type === 'CaptureSucceeded')!.data.arn).to.equal(captured.body.arn);
    });

    it('make the SALE address fields required only for a merchant that marks them Required', async () => {
      const strict = await h().createMerchant({
        protocolMapping: { fields: [], returnParameters: [], requiredFields: ['payer_country', 'payer_zip'] },
      });
      const lenient = await h().createMerchant();
      const without = { payer_country: undefined, payer_zip: undefined, payer_address: undefined, payer_city: undefined };

      const refused = await h().sale(strict, without);
      expect(refused.status).to.equal(400);
      expect(refused.body).to.include({ result: 'ERROR', error_code: 100000, error_message: 'Request data is invalid.' });
      expect(refused.body.errors).to.deep.equal([
        { error_code: 100000, error_message: 'payer_country: This value should not be blank.' },
        { error_code: 100000, error_message: 'payer_zip: This value should not be blank.' },
      ]);
      expect((await h().sale(strict, { payer_country: 'US', payer_zip: '90001' })).body.result).to.equal('SUCCESS');
      expect((await h().sale(lenient, without)).body.result).to.equal('SUCCESS');
    });

    it('follow a change of switches from the very next lookup', async () => {
      const merchant = await h().createMerchant();
      const sale = await h().sale(merchant);
      expect(await h().status(merchant, sale.body.trans_id)).to.have.nested.property('body.status', 'SETTLED');

      await h().gateway.merchants.update(merchant.merchant_id, { protocolMapping: { fields: ['payer_first_name', 'brand'], returnParameters: [], requiredFields: [] } });
      const after = await h().status(merchant, sale.body.trans_id);

      expect(after.body).to.include({ brand: 'VISA', payer_first_name: 'John' });
    });
  });

  describe('the payer back from the ACS', () => {
    const TERM = 'https://merchant.example/3ds-return?cart=7';

    async function throughAcs(merchant: TestMerchant, button: 'approve' | 'decline', expMonth = '05') {
      const sale = await h().sale(merchant, { card_exp_month: expMonth, term_url_3ds: TERM });
      expect(sale.body).to.include({ result: 'REDIRECT', status: '3DS' });
      const page = await h().postForm(sale.body.redirect_url, sale.body.redirect_params);
      expect(page.status).to.equal(200);
      const back = await submitPage(h(), page, { PaRes: button });
      return { sale, page, back };
    }

    it('the ACS page collects the browser with the hosted script, no inline script', async () => {
      const merchant = await h().createMerchant();
      const sale = await h().sale(merchant, { card_exp_month: '05' });
      const page = await h().postForm(sale.body.redirect_url, sale.body.redirect_params);
      const script = await h().request('/assets/auto-submit.js');

      expect(page.text).to.match(/<form [^>]*data-browser-info/);
      expect(page.text).to.include('<script src="/assets/auto-submit.js" defer></script>');
      expect(page.text).not.to.match(/<script>/);
      expect(page.text).to.include('name="browser_javascript_enabled" value="false"');
      expect(script.text).to.include('browser_screen_width');
    });

    it('goes to term_url_3ds with payment_id, trans_id, order_id, hash and the chosen return parameters, keeping its query', async () => {
      const merchant = await h().createMerchant({ protocolMapping: { returnParameters: ['payment_method', 'brand'] } });
      const { sale, back } = await throughAcs(merchant, 'approve');

      expect(back.status).to.equal(303);
      const location = new URL(back.headers.get('location')!);
      expect(location.origin + location.pathname).to.equal('https://merchant.example/3ds-return');
      expect(Object.fromEntries(location.searchParams)).to.deep.equal({
        cart: '7',
        payment_id: sale.body.trans_id,
        trans_id: sale.body.trans_id,
        order_id: sale.fields.order_id,
        hash: expectedHash('doe@example.com', merchant.password, sale.body.trans_id),
        payment_method: 'card',
        brand: 'VISA',
      });
    });

    it('records the 3-D Secure result and the browser with the decision, for the auditor and for status lookups', async () => {
      const merchant = await h().createMerchant({ protocolMapping: { fields: ['three_ds', 'browser'] } });
      const { sale } = await throughAcs(merchant, 'approve');

      const settled = (await h().paymentEvents(sale.body.trans_id)).at(-1)!;
      expect(settled.type).to.equal('PaymentSettled');
      expect(settled.data.threeDS).to.include({ transStatus: 'Y', eci: '05', authenticationFlow: 'Challenge', protocolVersion: '2.2.0' });
      expect(settled.data.browser).to.deep.equal({
        colorDepth: 24,
        screenHeight: 1080,
        screenWidth: 1920,
        javaEnabled: false,
        javascriptEnabled: true,
        language: 'en-GB',
        timezoneOffset: -60,
        userAgent: HEADERS['User-Agent'],
        acceptHeaders: HEADERS.Accept,
        platform: 'Linux x86_64',
      });

      const status = await h().status(merchant, sale.body.trans_id);
      expect(status.body).to.include({
        transStatus: 'Y',
        eci: '05',
        authenticationFlow: 'Challenge',
        threeDSServerTransID: (settled.data.threeDS as Record<string, string>).threeDSServerTransID,
        browser_user_agent: HEADERS['User-Agent'],
        browser_accept_headers: HEADERS.Accept,
        browser_screen_width: '1920',
        browser_javascript_enabled: 'true',
        browser_language: 'en-GB',
      });
      // transStatusReason is empty for an authenticated payer: left out of a status response.
      expect(status.body).not.to.have.property('transStatusReason');
    });

    it('a declined challenge records transStatus N, and the payer still goes back with the ids and hash', async () => {
      const merchant = await h().createMerchant({ protocolMapping: { fields: ['three_ds'] } });
      const { sale, back } = await throughAcs(merchant, 'decline');

      const location = new URL(back.headers.get('location')!);
      expect(location.searchParams.get('hash')).to.equal(expectedHash('doe@example.com', merchant.password, sale.body.trans_id));
      expect(location.searchParams.has('payment_method')).to.equal(false);
      const status = await h().status(merchant, sale.body.trans_id);
      expect(status.body).to.include({ status: 'DECLINED', transStatus: 'N', transStatusReason: '01', eci: '07' });
    });

    it('without the page script, the browser is still recorded from its headers, JavaScript off', async () => {
      const merchant = await h().createMerchant();
      const sale = await h().sale(merchant, { card_exp_month: '05' });
      const page = await h().postForm(sale.body.redirect_url, sale.body.redirect_params);

      await submitPage(h(), page, { PaRes: 'approve' }, null);

      const settled = (await h().paymentEvents(sale.body.trans_id)).at(-1)!;
      expect(settled.data.browser).to.deep.equal({
        javascriptEnabled: false,
        language: 'de-CH',
        userAgent: HEADERS['User-Agent'],
        acceptHeaders: HEADERS.Accept,
      });
    });
  });

  describe('the payer back from the redirect page (non-3DS)', () => {
    it('goes back with the same parameters and its browser recorded, without a 3-D Secure result', async () => {
      const merchant = await h().createMerchant({ protocolMapping: { fields: ['three_ds', 'browser'], returnParameters: ['brand'] } });
      const sale = await h().sale(merchant, { card_exp_month: '12' });
      expect(sale.body).to.include({ result: 'REDIRECT', status: 'REDIRECT' });
      const page = await h().request(sale.body.redirect_url);
      expect(page.text).to.match(/<form [^>]*data-browser-info/);

      const back = await submitPage(h(), page, { decision: 'continue' });

      expect(back.status).to.equal(303);
      const location = new URL(back.headers.get('location')!);
      expect(Object.fromEntries(location.searchParams)).to.deep.equal({
        payment_id: sale.body.trans_id,
        trans_id: sale.body.trans_id,
        order_id: sale.fields.order_id,
        hash: expectedHash('doe@example.com', merchant.password, sale.body.trans_id),
        brand: 'VISA',
      });
      const settled = (await h().paymentEvents(sale.body.trans_id)).at(-1)!;
      expect(settled.type).to.equal('PaymentSettled');
      expect(settled.data).not.to.have.property('threeDS');
      expect(settled.data.browser).to.include({ screenHeight: 1080, userAgent: HEADERS['User-Agent'] });
      const status = await h().status(merchant, sale.body.trans_id);
      expect(status.body).to.include({ browser_screen_height: '1080' });
      expect(status.body).not.to.have.property('transStatus');
    });
  });
});

/** A merchants table as the first release created it, before the protocol_mapping column. */
async function createOldMerchantsTable(config: ReadModelDbConfig): Promise<void> {
  const db = createReadModelDb(config);
  try {
    await db.schema
      .createTable('merchants')
      .addColumn('merchant_id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('environment', 'text', (c) => c.notNull())
      .addColumn('client_key', 'text', (c) => c.notNull().unique())
      .addColumn('merchant_key', 'text', (c) => c.notNull().unique())
      .addColumn('password_ciphertext', 'text', (c) => c.notNull())
      .addColumn('payment_mode', 'text', (c) => c.notNull())
      .addColumn('notification_url', 'text')
      .addColumn('ip_allowlist', 'text', (c) => c.notNull())
      .addColumn('refunds_enabled', 'integer', (c) => c.notNull())
      .addColumn('registered_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await sql`insert into merchants values ('m-old', 'Old shop', 'sandbox', 'ck-old', 'mk-old', 'x', 'SMS/DMS', null, '[]', 1, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')`.execute(db);
  } finally {
    await db.destroy();
  }
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`merchants read model of a database from before Protocol Mapping [${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}]`, function () {
    if (dialect === 'postgres') requirePostgres(this);
    const config = scratchReadModelDb(dialect, 'pm', createOldMerchantsTable);

    it('gains the column on start (twice is fine), reads old rows as all off, and projects a later change', async () => {
      const db = createReadModelDb(config());
      const store = new MemoryEventStore();
      const projector = new Projector({ store, db, projections: [merchantsProjection()] });
      try {
        await migrateReadModels(db);
        await migrateReadModels(db);
        const readModels = new ReadModels({ db, store, projector, projectionNames: ['merchants'] });
        expect((await readModels.merchantById('m-old'))!.protocolMapping).to.deep.equal({ fields: [], returnParameters: [], requiredFields: [] });

        await appendMerchantEvents(store, 'm-new', [
          merchantRegistered({ merchantId: 'm-new' }),
          merchantSettingsChanged('m-new', { protocolMapping: { fields: ['brand'], returnParameters: ['payment_method'], requiredFields: [] } }),
        ]);
        await projector.catchUp();
        expect((await readModels.merchantById('m-new'))!.protocolMapping).to.deep.equal({ fields: ['brand'], returnParameters: ['payment_method'], requiredFields: [] });
      } finally {
        await projector.stop();
        await db.destroy();
      }
    });
  });
}

describe('merchant CLI: Protocol Mapping switches', function () {
  this.timeout(120_000);
  const cli = inProcessCliWithDataDir('pm-cli-');

  it('create sets them, update changes one and keeps the other, show reports them, unknown names are refused', async () => {
    const created = await cli('merchant', 'create', '--name', `CLI ${randomUUID().slice(0, 6)}`, '--callback-fields', 'payer_ip,brand', '--return-params', 'payment_method', '--json');
    expect(created.code, created.stderr).to.equal(0);
    const merchant = JSON.parse(created.stdout);
    expect(merchant.callback_fields).to.deep.equal(['brand', 'payer_ip']);
    expect(merchant.return_params).to.deep.equal(['payment_method']);

    const updated = await cli('merchant', 'update', merchant.merchant_id, '--return-params', 'none', '--json');
    expect(updated.code, updated.stderr).to.equal(0);
    expect(JSON.parse(updated.stdout)).to.deep.include({ callback_fields: ['brand', 'payer_ip'], return_params: [] });

    const all = await cli('merchant', 'update', merchant.merchant_id, '--callback-fields', 'all', '--json');
    expect(JSON.parse(all.stdout).callback_fields).to.include.members(['three_ds', 'browser', 'payer_district']);

    const refused = await cli('merchant', 'update', merchant.merchant_id, '--callback-fields', 'brand,pan');
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.match(/--callback-fields is not valid: .*pan/);

    const shown = await cli('merchant', 'show', merchant.merchant_id, '--json');
    expect(JSON.parse(shown.stdout).return_params).to.deep.equal([]);
  });
});
