/**
 * PAN and CVV hygiene (decisions 5): after a run of payments through the API (card number, card
 * token, 3DS, redirect, follow-ups, refusals), the full card number appears in no event, no
 * read-model row and no log line, and no CVV is kept anywhere. The mask does appear in events.
 */
import { expect } from 'chai';
import { CallbackReceiver } from '../support/callback-receiver';
import { sql } from 'kysely';
import { TEST_CVV, TEST_PAN, forEachStore, type TestGateway } from '../support/gateway-harness';

const READ_MODEL_TABLES = [
  'payments',
  'transactions',
  'merchants',
  'callback_deliveries',
  'callback_attempts',
  'ledger_postings',
  'ledger_payments',
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
      await h().gateway.readModels.catchUpToHead();
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
