/**
 * PAN and CVV hygiene (decisions 5): after a run of payments through the API (card number, card
 * token, 3DS, redirect, follow-ups, refusals), the full card number appears in no event, no
 * read-model row and no log line, and no CVV is kept anywhere. The mask does appear in events.
 * Wallet payments get the same check (the last suite).
 */
import { expect } from 'chai';
import { allProjectionNames } from '../../projections';
import { CallbackReceiver } from '../support/callback-receiver';
import { sql } from 'kysely';
import { TEST_CVV, TEST_PAN, forEachStore, type TestGateway } from '../support/gateway-harness';
import { apmSale } from '../support/apm-client';
import { createSession } from '../support/checkout-client';
import { giveWalletKeys, mintToken, sandboxWallets, walletSaleFields, type MintOptions } from '../support/wallet-payments';

const READ_MODEL_TABLES = [
  'payments',
  'transactions',
  'merchants',
  'callback_deliveries',
  'callback_attempts',
  'ledger_postings',
  'ledger_payments',
  'ledger_daily_totals',
  'ledger_daily_decisions',
  'projection_checkpoints',
] as const;
const MASK = '411111******1111';

/** Every key of every object inside `value` (JSON strings inside are parsed and walked too). */
function collectKeys(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    const t = value.trim();
    if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
      try {
        collectKeys(JSON.parse(t), out);
      } catch {
        // not JSON
      }
    }
    return out;
  }
  if (Array.isArray(value)) {
    for (const v of value) collectKeys(v, out);
    return out;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      collectKeys(v, out);
    }
  }
  return out;
}

/** Every string value inside `value`, JSON inside strings included. */
function collectStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    out.push(value);
    const t = value.trim();
    if (t.startsWith('{') || t.startsWith('[')) {
      try {
        collectStrings(JSON.parse(t), out);
      } catch {
        // not JSON
      }
    }
  } else if (Array.isArray(value)) {
    for (const v of value) collectStrings(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) collectStrings(v, out);
  }
  return out;
}

const stringify = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

async function everything(h: TestGateway) {
  const events = await h.gateway.store.readAll();
  const rows: Record<string, unknown[]> = {};
  for (const table of READ_MODEL_TABLES) {
    rows[table] = (await sql`select * from ${sql.table(table)}`.execute(h.gateway.readDb)).rows;
  }
  return { events, rows, logs: h.logLines };
}

forEachStore(
  'S2S CARD card data hygiene',
  (h) => {
    const receiver = new CallbackReceiver();
    before(async function () {
      // Callbacks flow too: what the merchant is told must be as clean as what is stored.
      await receiver.start();
      await h().gateway.notifier.start();
      const merchant = await h().createMerchant({ notificationUrl: receiver.url });
      const dms = await h().createMerchant({ paymentMode: 'DMS', notificationUrl: receiver.url });
      const tokenised = await h().sale(merchant, { req_token: 'Y' });
      const token: string = tokenised.body.card_token;
      const noCard = { card_number: undefined, card_exp_month: undefined, card_exp_year: undefined, card_cvv2: undefined };
      await h().sale(merchant, { ...noCard, card_token: token });
      await h().sale(merchant, { card_exp_month: '02' });
      await h().sale(merchant, { card_exp_month: '12' });
      const threeDs = await h().sale(merchant, { card_exp_month: '05', req_token: 'Y' });
      await h().request(
        `${threeDs.body.redirect_url}?${new URLSearchParams(threeDs.body.redirect_params as Record<string, string>)}`,
      );
      await h().postForm(threeDs.body.redirect_params.TermUrl, {
        PaRes: 'approve',
        PaReq: threeDs.body.redirect_params.PaReq,
        MD: threeDs.body.redirect_params.MD,
      });
      const auth = await h().sale(dms, { auth: 'Y', card_exp_month: '03' });
      await h().capture(dms, auth.body.trans_id);
      const auth2 = await h().sale(dms, { auth: 'Y' });
      await h().capture(dms, auth2.body.trans_id, '5.00');
      await h().creditVoid(dms, auth2.body.trans_id, '1.00');
      // Refusals must not log what they refused either.
      await h().sale(merchant, { hash: 'f'.repeat(32) });
      await h().sale(merchant, { auth: 'yes' });
      await h().sale(merchant, { order_amount: '0' });
      await h().sale(merchant, { card_exp_year: '2020' });
      await h().postMultipart(h().saleFields(merchant, { action: 'sale' }));
      await h().gateway.notifier.catchUp();
      await h().gateway.readModels.catchUpToHead(2000, allProjectionNames());
    });
    after(async () => {
      await receiver.stop();
    });

    it('callbacks carry the mask, never the card number or the CVV', () => {
      expect(receiver.received.length).to.be.greaterThan(5);
      for (const callback of receiver.received) {
        expect(callback.body).not.to.include(TEST_PAN);
        expect([...callback.fields.keys()].filter((k) => /cvv|cvc/i.test(k))).to.deep.equal([]);
        expect([...callback.fields.values()]).not.to.include(TEST_CVV);
        expect(callback.fields.get('card')).to.equal(MASK);
      }
    });

    it('the run produced events, rows and log lines to look at', async () => {
      const { events, rows, logs } = await everything(h());
      expect(events.length).to.be.greaterThan(20);
      expect(rows.payments.length).to.be.greaterThan(5);
      expect(logs.length).to.be.greaterThan(10);
    });

    it('the full card number is in no event, read-model row or log line', async () => {
      const { events, rows, logs } = await everything(h());
      events.forEach((e) => expect(stringify(e), `event ${e.type}`).not.to.include(TEST_PAN));
      for (const [table, list] of Object.entries(rows)) {
        list.forEach((row) => expect(stringify(row), `row of ${table}`).not.to.include(TEST_PAN));
      }
      logs.forEach((line) => expect(line).not.to.include(TEST_PAN));
    });

    it('no CVV is kept: no cvv-like key and no CVV value anywhere', async () => {
      const { events, rows, logs } = await everything(h());
      const containers: [string, unknown][] = [
        ...events.map((e): [string, unknown] => [`event ${e.type}`, { data: e.data, metadata: e.metadata }]),
        ...Object.entries(rows).flatMap(([table, list]) => list.map((row): [string, unknown] => [`row of ${table}`, row])),
        ...logs.map((line): [string, unknown] => ['log line', JSON.parse(line)]),
      ];
      for (const [where, value] of containers) {
        expect(collectKeys(value).filter((k) => /cvv|cvc|cav/i.test(k)), where).to.deep.equal([]);
        expect(collectStrings(value), where).not.to.include(TEST_CVV);
      }
    });

    it('the mask is what events carry', async () => {
      const { events, rows } = await everything(h());
      const initiated = events.filter((e) => e.type === 'PaymentInitiated');
      expect(initiated.length).to.be.greaterThan(5);
      for (const e of initiated) expect((e.data.card as { mask: string }).mask).to.equal(MASK);
      expect(rows.payments.every((r) => (r as { card_mask: string }).card_mask === MASK)).to.equal(true);
    });
  },
  { captureLogs: true },
);

/**
 * The same hygiene for wallet payments (docs/wallets.md#two-flows): a wallet token holds the card number (a
 * DPAN, or an FPAN for Google Pay's PAN_ONLY); the card flow decrypts it into the vault only. After
 * wallet payments on S2S CARD, S2S APM (both flows) and Checkout's simulated sheet, with 3-D Secure,
 * a decline and refused tokens, no decrypted number is in any event, read-model row, log line or
 * callback, and the token itself is kept nowhere; the events carry the mask, the wallet and pan_type.
 */
forEachStore(
  'Wallet payments card data hygiene',
  (h) => {
    const receiver = new CallbackReceiver();
    // Numbers no other test of this gateway uses, so finding one anywhere is a leak.
    const DPAN = '4000056655665556';
    const FPAN = '5200828282828210';
    const SHEET_PANS = ['4111111111111111', '5555555555554444'];
    const tokens: string[] = [];
    before(async function () {
      await receiver.start();
      await h().gateway.notifier.start();
      const material = await sandboxWallets(h());
      const merchant = await h().createMerchant({ notificationUrl: receiver.url, protocolMapping: { fields: ['card', 'wallet', 'checkout_payment_method'] } });
      const keys = await giveWalletKeys(h(), merchant);
      const mint = async (wallet: 'applepay' | 'googlepay', options: MintOptions) => {
        const token = await mintToken(h(), material, merchant, keys, wallet, options);
        tokens.push(token);
        return token;
      };
      const settling = { pan: DPAN, expMonth: '01', expYear: '2038' };
      await h().post(walletSaleFields(merchant, 'applepay', await mint('applepay', { card: settling })));
      await h().post(walletSaleFields(merchant, 'googlepay', await mint('googlepay', { card: { ...settling, expMonth: '02' } })));
      const threeDs = await h().post(walletSaleFields(merchant, 'googlepay', await mint('googlepay', { authMethod: 'PAN_ONLY', card: { pan: FPAN, expMonth: '05', expYear: '2038' } })));
      const acs = threeDs.body.redirect_params as Record<string, string>;
      await h().postForm(acs.TermUrl, { PaRes: 'approve', PaReq: acs.PaReq, MD: acs.MD });
      // Refused: a replay, and a token of a key the merchant does not hold.
      await h().post(walletSaleFields(merchant, 'applepay', tokens[0]));
      await h().post(walletSaleFields(merchant, 'applepay', await mint('applepay', { card: settling, foreignKey: true })));
      // S2S APM: the card flow, then the virtual flow (a merchant without keys).
      await apmSale(h(), merchant, { brand: 'applepay', 'parameters[paymentToken]': await mint('applepay', { card: settling }) });
      const noKeys = await h().createMerchant({ notificationUrl: receiver.url });
      await apmSale(h(), noKeys, { brand: 'googlepay', payer_email: 'success@gmail.com', 'parameters[paymentToken]': await mint('googlepay', { card: settling }) });
      // Checkout: the simulated sheet, card flow and virtual flow.
      for (const who of [merchant, noKeys]) {
        const { sessionId } = await createSession(h(), who, { methods: ['card', 'applepay'] });
        await h().postForm(`${h().baseUrl}/checkout/${sessionId}/wallet/applepay`, { card: 'settles' });
      }
      await h().gateway.notifier.catchUp();
      await h().gateway.readModels.catchUpToHead(2000, allProjectionNames());
    });
    after(async () => {
      await receiver.stop();
    });

    it('the run made wallet payments in both flows, logged them and told the merchant of them', async () => {
      const { events, logs } = await everything(h());
      expect(logs.some((line) => line.includes('wallet token refused'))).to.equal(true);
      const initiated = events.filter((e) => e.type === 'PaymentInitiated');
      expect(initiated.filter((e) => (e.data.card as { wallet?: string } | undefined)?.wallet).length).to.be.greaterThan(4);
      expect(initiated.some((e) => e.data.connector === 'sandbox-wallet')).to.equal(true);
      expect(receiver.received.some((c) => c.fields.get('digital_wallet') === 'googlepay' && c.fields.get('pan_type') === 'FPAN')).to.equal(true);
    });

    it('no decrypted card number is in any event, read-model row, log line or callback', async () => {
      const { events, rows, logs } = await everything(h());
      const places: [string, string][] = [
        ...events.map((e): [string, string] => [`event ${e.type}`, stringify({ data: e.data, metadata: e.metadata })]),
        ...Object.entries(rows).flatMap(([table, list]) => list.map((row): [string, string] => [`row of ${table}`, stringify(row)])),
        ...logs.map((line): [string, string] => ['log line', line]),
        ...receiver.received.map((c): [string, string] => ['callback', c.body]),
      ];
      for (const [where, text] of places) {
        for (const pan of [DPAN, FPAN, ...SHEET_PANS]) expect(text, where).not.to.include(pan);
      }
    });

    it('no token (nor its signature) is kept: the virtual flow hands it on, the card flow keeps its one-time record', async () => {
      const { events, rows, logs } = await everything(h());
      const signatures = tokens.map((t) => {
        const parsed = JSON.parse(t);
        return (parsed.paymentData?.signature ?? parsed.signature) as string;
      });
      const all = [...events.map((e) => stringify(e.data)), ...Object.values(rows).flatMap((list) => list.map(stringify)), ...logs];
      for (const text of all) for (const signature of signatures) expect(text).not.to.include(signature.slice(0, 40));
    });

    it('the card flow\'s events carry the mask, the wallet and pan_type', async () => {
      const { events } = await everything(h());
      const cards = events.filter((e) => e.type === 'PaymentInitiated').map((e) => e.data.card as { mask: string; wallet?: string; panType?: string } | undefined);
      expect(cards.some((c) => c?.mask === '400005******5556' && c.wallet === 'applepay' && c.panType === 'DPAN')).to.equal(true);
      expect(cards.some((c) => c?.mask === '520082******8210' && c.wallet === 'googlepay' && c.panType === 'FPAN')).to.equal(true);
    });
  },
  { captureLogs: true },
);
