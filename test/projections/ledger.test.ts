import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { migrateLedger } from '../../projections/ledger/migrations';
import { ledgerBalances, paymentLedger, unbalancedPostingSets, zeroBalances, type AccountBalances } from '../../projections/ledger/queries';
import type { PaymentEvent, PaymentInitiated } from '../../src/domain/payment/events';
import {
  T0,
  T1,
  T2,
  T3,
  T4,
  appendPaymentEvents,
  captureDeclined,
  captureRequested,
  captureSucceeded,
  creditVoid,
  paymentAuthorized,
  paymentDeclined,
  paymentInitiated,
  paymentOutcomeUnknown,
  paymentSettled,
  paymentVoided,
  threeDSChallengeRequired,
  voidRequested,
} from '../support/payment-fixtures';
import { forEachDialect } from './harness';

const balances = (values: Partial<AccountBalances>): AccountBalances => ({ ...zeroBalances(), ...values });

forEachDialect('ledger projection', (fixture) => {
  /** Given these events of one payment, when the projector catches up. */
  async function given(events: PaymentEvent[]): Promise<string> {
    const paymentId = (events[0] as PaymentInitiated).data.paymentId;
    await appendPaymentEvents(fixture().store, paymentId, events);
    await catchUp();
    return paymentId;
  }

  /** When the projector catches up; whatever the events were, no posting set creates or loses money. */
  async function catchUp(): Promise<void> {
    await fixture().projector.catchUp();
    expect(await unbalancedPostingSets(fixture().db)).to.deep.equal([]);
  }

  const sale = (amount: number, o: Partial<PaymentInitiated['data']> = {}) => paymentInitiated({ amount, ...o });
  const authorization = (amount: number, o: Partial<PaymentInitiated['data']> = {}) =>
    paymentInitiated({ kind: 'authorization', amount, ...o });

  it('posts a settled sale as money from the payer to the merchant, one set keyed by the event id', async function () {
    const initiated = sale(1999);
    const id = await given([initiated, paymentSettled(initiated.data.paymentId, { amount: 1999 })]);

    const ledger = await paymentLedger(fixture().db, id);
    const settledEvent = (await fixture().store.readAll()).find((e) => e.type === 'PaymentSettled')!;
    expect(ledger.postings.map((p) => [p.postingSetId, p.line, p.account, p.amount, p.eventType, p.occurredAt, p.currency])).to.deep.equal([
      [settledEvent.id, 0, 'payer_funds', -1999, 'PaymentSettled', T1, 'USD'],
      [settledEvent.id, 1, 'merchant_receivable', 1999, 'PaymentSettled', T1, 'USD'],
    ]);
    expect(ledger.balances).to.deep.equal(balances({ payer_funds: -1999, merchant_receivable: 1999 }));
  });

  it('holds an authorized amount on the card without moving money', async function () {
    const initiated = authorization(1000);
    const id = await given([initiated, paymentAuthorized(initiated.data.paymentId, { amount: 1000 })]);
    expect((await paymentLedger(fixture().db, id)).balances).to.deep.equal(balances({ payer_holds: -1000, authorized_holds: 1000 }));
  });

  it('closes the whole hold on a partial capture: 600 of 1000 settles, 400 goes back to the card', async function () {
    const initiated = authorization(1000);
    const id = initiated.data.paymentId;
    const captureId = randomUUID();
    await given([
      initiated,
      paymentAuthorized(id, { amount: 1000 }),
      captureRequested(id, { operationId: captureId, amount: 600 }),
      captureSucceeded(id, { operationId: captureId, amount: 600 }),
    ]);

    const ledger = await paymentLedger(fixture().db, id);
    expect(ledger.balances).to.deep.equal(balances({ payer_funds: -600, merchant_receivable: 600 }));
    const capture = ledger.postings.filter((p) => p.eventType === 'CaptureSucceeded');
    expect(capture.map((p) => [p.account, p.amount, p.operationId])).to.deep.equal([
      ['payer_holds', 1000, captureId],
      ['authorized_holds', -1000, captureId],
      ['payer_funds', -600, captureId],
      ['merchant_receivable', 600, captureId],
    ]);
  });

  it('releases part of a hold on a partial reversal and the rest on a full one', async function () {
    const initiated = authorization(1000);
    const id = initiated.data.paymentId;
    await given([initiated, paymentAuthorized(id, { amount: 1000 }), ...creditVoid(id, 'reversal', 300)]);
    expect((await paymentLedger(fixture().db, id)).balances).to.deep.equal(balances({ payer_holds: -700, authorized_holds: 700 }));

    await appendPaymentEvents(fixture().store, id, creditVoid(id, 'reversal', 700));
    await catchUp();
    expect((await paymentLedger(fixture().db, id)).balances).to.deep.equal(balances({}));
  });

  it('captures what is left after a partial reversal', async function () {
    const initiated = authorization(1000);
    const id = initiated.data.paymentId;
    const captureId = randomUUID();
    await given([
      initiated,
      paymentAuthorized(id, { amount: 1000 }),
      ...creditVoid(id, 'reversal', 250),
      captureRequested(id, { operationId: captureId, amount: 750 }),
      captureSucceeded(id, { operationId: captureId, amount: 750 }),
    ]);
    expect((await paymentLedger(fixture().db, id)).balances).to.deep.equal(balances({ payer_funds: -750, merchant_receivable: 750 }));
  });

  it('gives the money back on a void of a settled sale', async function () {
    const initiated = sale(1000);
    const id = initiated.data.paymentId;
    const voidId = randomUUID();
    await given([
      initiated,
      paymentSettled(id, { amount: 1000 }),
      voidRequested(id, { operationId: voidId, amount: 1000 }),
      paymentVoided(id, { operationId: voidId, amount: 1000 }),
    ]);
    const ledger = await paymentLedger(fixture().db, id);
    expect(ledger.balances).to.deep.equal(balances({}));
    expect(ledger.postings.filter((p) => p.eventType === 'PaymentVoided').map((p) => [p.account, p.amount])).to.deep.equal([
      ['payer_funds', 1000],
      ['merchant_receivable', -1000],
    ]);
  });

  it('takes refunds from the merchant: partial, then the rest', async function () {
    const initiated = sale(1000);
    const id = initiated.data.paymentId;
    await given([initiated, paymentSettled(id, { amount: 1000 }), ...creditVoid(id, 'refund', 300)]);
    expect((await paymentLedger(fixture().db, id)).balances).to.deep.equal(balances({ payer_funds: -700, merchant_receivable: 700 }));

    await appendPaymentEvents(fixture().store, id, [...creditVoid(id, 'refund', 700), ...creditVoid(id, 'refund', 1, 'declined')]);
    await catchUp();
    expect((await paymentLedger(fixture().db, id)).balances).to.deep.equal(balances({}));
  });

  it('posts nothing for events that move no money: declines, 3DS, unknown outcomes, intents, declined operations', async function () {
    const declined = sale(1000);
    await given([declined, threeDSChallengeRequired(declined.data.paymentId), paymentDeclined(declined.data.paymentId)]);
    const unknown = sale(500);
    await given([unknown, paymentOutcomeUnknown(unknown.data.paymentId)]);
    const held = authorization(800);
    const hid = held.data.paymentId;
    const captureId = randomUUID();
    await given([
      held,
      paymentAuthorized(hid, { amount: 800 }),
      captureRequested(hid, { operationId: captureId, amount: 800 }),
      captureDeclined(hid, { operationId: captureId, amount: 800 }),
      ...creditVoid(hid, 'reversal', 800, 'declined'),
    ]);

    expect((await paymentLedger(fixture().db, declined.data.paymentId)).postings).to.deep.equal([]);
    expect((await paymentLedger(fixture().db, unknown.data.paymentId)).postings).to.deep.equal([]);
    const ledger = await paymentLedger(fixture().db, hid);
    expect(ledger.postings.map((p) => p.eventType)).to.deep.equal(['PaymentAuthorized', 'PaymentAuthorized']);
    expect(ledger.balances).to.deep.equal(balances({ payer_holds: -800, authorized_holds: 800 }));
  });

  it('answers balances as of a time, per merchant, currency and account', async function () {
    const usd = sale(1000, { merchantId: 'm-a', currency: 'USD' });
    await given([usd, paymentSettled(usd.data.paymentId, { amount: 1000, settledAt: T1 }), ...creditVoid(usd.data.paymentId, 'refund', 400)]);
    const jpy = sale(5000, { merchantId: 'm-a', currency: 'JPY' });
    await given([jpy, paymentSettled(jpy.data.paymentId, { amount: 5000, settledAt: T2 })]);
    const other = authorization(2500, { merchantId: 'm-b', currency: 'USD' });
    await given([other, paymentAuthorized(other.data.paymentId, { amount: 2500, authorizedAt: T4 })]);

    const db = fixture().db;
    // The refund happened at T3.
    const row = (b: { merchantId: string; currency: string; account: string; balance: number }) =>
      [b.merchantId, b.currency, b.account, b.balance];
    expect((await ledgerBalances(db, { merchantId: 'm-a', currency: 'USD', asOf: new Date(T2) })).map(row)).to.deep.equal([
      ['m-a', 'USD', 'merchant_receivable', 1000],
      ['m-a', 'USD', 'payer_funds', -1000],
    ]);
    expect((await ledgerBalances(db, { merchantId: 'm-a', currency: 'USD', asOf: new Date(T3) })).map(row)).to.deep.equal([
      ['m-a', 'USD', 'merchant_receivable', 600],
      ['m-a', 'USD', 'payer_funds', -600],
    ]);
    expect((await ledgerBalances(db, { asOf: new Date(T0) })).map(row)).to.deep.equal([]);
    expect((await ledgerBalances(db)).map(row)).to.deep.equal([
      ['m-a', 'JPY', 'merchant_receivable', 5000],
      ['m-a', 'JPY', 'payer_funds', -5000],
      ['m-a', 'USD', 'merchant_receivable', 600],
      ['m-a', 'USD', 'payer_funds', -600],
      ['m-b', 'USD', 'authorized_holds', 2500],
      ['m-b', 'USD', 'payer_holds', -2500],
    ]);
    expect((await ledgerBalances(db, { currency: 'USD', merchantId: 'm-b', asOf: new Date(T3) })).map(row)).to.deep.equal([]);
  });

  it('carries what it knows about a payment from batch to batch', async function () {
    const initiated = authorization(1000);
    const id = initiated.data.paymentId;
    const captureId = randomUUID();
    await appendPaymentEvents(fixture().store, id, [
      initiated,
      paymentAuthorized(id, { amount: 1000 }),
      ...creditVoid(id, 'reversal', 100),
      captureRequested(id, { operationId: captureId, amount: 500 }),
      captureSucceeded(id, { operationId: captureId, amount: 500 }),
      ...creditVoid(id, 'refund', 200),
    ]);
    // One event per transaction: the capture must find the 900 still held in what an earlier batch wrote.
    await fixture().newProjector({ batchSize: 1 }).catchUp();

    const ledger = await paymentLedger(fixture().db, id);
    expect(ledger.postings.map((p) => [p.eventType, p.account, p.amount])).to.deep.equal([
      ['PaymentAuthorized', 'payer_holds', -1000],
      ['PaymentAuthorized', 'authorized_holds', 1000],
      ['AuthorizationReversed', 'payer_holds', 100],
      ['AuthorizationReversed', 'authorized_holds', -100],
      ['CaptureSucceeded', 'payer_holds', 900],
      ['CaptureSucceeded', 'authorized_holds', -900],
      ['CaptureSucceeded', 'payer_funds', -500],
      ['CaptureSucceeded', 'merchant_receivable', 500],
      ['RefundSucceeded', 'payer_funds', 200],
      ['RefundSucceeded', 'merchant_receivable', -200],
    ]);
    expect(ledger.balances).to.deep.equal(balances({ payer_funds: -300, merchant_receivable: 300 }));
  });

  describe('analyst views', function () {
    const DAY1 = '2024-05-01';
    const DAY2 = '2024-05-02';
    const at = (day: string, time = '10:00:00.000') => `${day}T${time}Z`;

    /**
     * Merchant m-a in EUR: day 1 two sales settle (10.00, 30.00) and one is declined; day 2 an
     * authorization of 50.00 is captured for 40.00, one more decline, the 30.00 sale is refunded
     * by 15.00 and the 10.00 sale voided. Merchant m-b in JPY: one sale of 700 on day 2.
     */
    async function givenKnownActivity(): Promise<void> {
      const a = sale(1000, { merchantId: 'm-a', currency: 'EUR', initiatedAt: at(DAY1) });
      const b = sale(3000, { merchantId: 'm-a', currency: 'EUR', initiatedAt: at(DAY1) });
      const c = sale(2000, { merchantId: 'm-a', currency: 'EUR', initiatedAt: at(DAY1) });
      const d = authorization(5000, { merchantId: 'm-a', currency: 'EUR', initiatedAt: at(DAY1, '23:59:00.000') });
      const e = sale(999, { merchantId: 'm-a', currency: 'EUR', initiatedAt: at(DAY2) });
      const f = sale(700, { merchantId: 'm-b', currency: 'JPY', initiatedAt: at(DAY2) });
      const id = (p: PaymentInitiated) => p.data.paymentId;
      const captureId = randomUUID();
      const voidId = randomUUID();
      await given([a, paymentSettled(id(a), { amount: 1000, settledAt: at(DAY1, '10:00:01.000') })]);
      await given([b, paymentSettled(id(b), { amount: 3000, settledAt: at(DAY1, '11:00:00.000') })]);
      await given([c, paymentDeclined(id(c), { declinedAt: at(DAY1, '12:00:00.000') })]);
      await given([
        d,
        // Authorized on day 2, just after midnight UTC.
        paymentAuthorized(id(d), { amount: 5000, authorizedAt: at(DAY2, '00:00:30.000') }),
        captureRequested(id(d), { operationId: captureId, amount: 4000, requestedAt: at(DAY2, '09:00:00.000') }),
        captureSucceeded(id(d), { operationId: captureId, amount: 4000, capturedAt: at(DAY2, '09:00:01.000') }),
      ]);
      await given([e, threeDSChallengeRequired(id(e)), paymentDeclined(id(e), { stage: '3ds', declinedAt: at(DAY2, '13:00:00.000') })]);
      await appendPaymentEvents(fixture().store, id(b), creditVoid(id(b), 'refund', 1500).map(withTime(at(DAY2, '14:00:00.000'))));
      await appendPaymentEvents(fixture().store, id(a), [
        voidRequested(id(a), { operationId: voidId, amount: 1000, requestedAt: at(DAY2, '15:00:00.000') }),
        paymentVoided(id(a), { operationId: voidId, amount: 1000, voidedAt: at(DAY2, '15:00:01.000') }),
      ]);
      await given([f, paymentSettled(id(f), { amount: 700, settledAt: at(DAY2, '16:00:00.000') })]);
    }

    it('ledger_daily_totals: each day\'s postings summed per account, event type and sign', async function () {
      await givenKnownActivity();
      const rows = await fixture()
        .db.selectFrom('ledger_daily_totals')
        .select(['day', 'account', 'event_type', 'direction', 'line_count', 'amount'])
        .where('merchant_id', '=', 'm-a')
        .where('account', 'in', ['merchant_receivable', 'payer_funds'])
        .orderBy('day')
        .orderBy('account')
        .orderBy('event_type')
        .orderBy('direction')
        .execute();
      expect(rows.map((r) => [r.day, r.account, r.event_type, Number(r.direction), Number(r.line_count), Number(r.amount)])).to.deep.equal([
        [DAY1, 'merchant_receivable', 'PaymentSettled', 1, 2, 4000],
        [DAY1, 'payer_funds', 'PaymentSettled', -1, 2, -4000],
        [DAY2, 'merchant_receivable', 'CaptureSucceeded', 1, 1, 4000],
        [DAY2, 'merchant_receivable', 'PaymentVoided', -1, 1, -1000],
        [DAY2, 'merchant_receivable', 'RefundSucceeded', -1, 1, -1500],
        [DAY2, 'payer_funds', 'CaptureSucceeded', -1, 1, -4000],
        [DAY2, 'payer_funds', 'PaymentVoided', 1, 1, 1000],
        [DAY2, 'payer_funds', 'RefundSucceeded', 1, 1, 1500],
      ]);
    });

    it('answers balances as of a time on a later day: the earlier days\' totals and that day\'s postings up to the time', async function () {
      await givenKnownActivity();
      const row = (b: { merchantId: string; currency: string; account: string; balance: number }) => [b.merchantId, b.currency, b.account, b.balance];
      // After day 2's authorization, before its capture: day 1's two settlements and the open hold.
      expect((await ledgerBalances(fixture().db, { asOf: new Date(at(DAY2, '09:00:00.500')) })).map(row)).to.deep.equal([
        ['m-a', 'EUR', 'authorized_holds', 5000],
        ['m-a', 'EUR', 'merchant_receivable', 4000],
        ['m-a', 'EUR', 'payer_funds', -4000],
        ['m-a', 'EUR', 'payer_holds', -5000],
      ]);
      // The refund at 14:00:00.000 exactly is in; the void after it and m-b's sale are not.
      expect((await ledgerBalances(fixture().db, { merchantId: 'm-a', currency: 'EUR', asOf: new Date(at(DAY2, '14:00:00.000')) })).map(row)).to.deep.equal([
        ['m-a', 'EUR', 'authorized_holds', 0],
        ['m-a', 'EUR', 'merchant_receivable', 6500],
        ['m-a', 'EUR', 'payer_funds', -6500],
        ['m-a', 'EUR', 'payer_holds', 0],
      ]);
      expect((await ledgerBalances(fixture().db, { merchantId: 'm-b', asOf: new Date(at(DAY2, '23:59:59.999')) })).map(row)).to.deep.equal([
        ['m-b', 'JPY', 'merchant_receivable', 700],
        ['m-b', 'JPY', 'payer_funds', -700],
      ]);
    });

    it('fills the daily totals of a ledger written without them from its postings, once', async function () {
      await givenKnownActivity();
      const totals = () =>
        fixture()
          .db.selectFrom('ledger_daily_totals')
          .selectAll()
          .orderBy('merchant_id')
          .orderBy('currency')
          .orderBy('day')
          .orderBy('account')
          .orderBy('event_type')
          .orderBy('direction')
          .execute();
      const kept = await totals();
      const volume = await fixture().db.selectFrom('v_daily_volume').selectAll().orderBy('merchant_id').orderBy('day').execute();
      const balancesNow = await ledgerBalances(fixture().db);
      // What the previous release leaves: postings, and no totals.
      await fixture().db.deleteFrom('ledger_daily_totals').execute();

      await migrateLedger(fixture().db);
      await migrateLedger(fixture().db);

      expect(await totals()).to.deep.equal(kept);
      expect(await fixture().db.selectFrom('v_daily_volume').selectAll().orderBy('merchant_id').orderBy('day').execute()).to.deep.equal(volume);
      expect(await ledgerBalances(fixture().db)).to.deep.equal(balancesNow);
    });

    const decisions = () =>
      fixture()
        .db.selectFrom('ledger_daily_decisions')
        .selectAll()
        .orderBy('merchant_id')
        .orderBy('currency')
        .orderBy('day')
        .orderBy('kind')
        .orderBy('outcome')
        .execute();

    it('ledger_daily_decisions: each payment counted once, on the day it was approved or declined, by kind and outcome', async function () {
      await givenKnownActivity();
      // Waiting for the payer, then declined in a later batch: counted when declined, on that day.
      const g = sale(500, { merchantId: 'm-b', currency: 'JPY', initiatedAt: at(DAY2, '20:00:00.000') });
      await given([g, threeDSChallengeRequired(g.data.paymentId)]);
      const waiting = (await decisions()).map((r) => [r.merchant_id, r.day, r.kind, r.outcome, Number(r.payment_count)]);
      await appendPaymentEvents(fixture().store, g.data.paymentId, [paymentDeclined(g.data.paymentId, { stage: '3ds', declinedAt: at(DAY2, '20:15:00.000') })]);
      await catchUp();

      const rows = (await decisions()).map((r) => [r.merchant_id, r.currency, r.day, r.kind, r.outcome, Number(r.payment_count)]);
      expect(rows).to.deep.equal([
        ['m-a', 'EUR', DAY1, 'sale', 'approved', 2],
        ['m-a', 'EUR', DAY1, 'sale', 'declined', 1],
        // Authorized just after midnight, captured later the same day: one approval.
        ['m-a', 'EUR', DAY2, 'authorization', 'approved', 1],
        ['m-a', 'EUR', DAY2, 'sale', 'declined', 1],
        ['m-b', 'JPY', DAY2, 'sale', 'approved', 1],
        ['m-b', 'JPY', DAY2, 'sale', 'declined', 1],
      ]);
      expect(waiting.filter((r) => r[0] === 'm-b' && r[3] === 'declined')).to.deep.equal([]);
    });

    it('fills the daily decisions of a ledger written without them from its payments, once', async function () {
      await givenKnownActivity();
      const kept = await decisions();
      const daily = await fixture().db.selectFrom('v_approval_rate_daily').selectAll().orderBy('merchant_id').orderBy('day').execute();
      // What the previous release leaves: payments, and no decisions.
      await fixture().db.deleteFrom('ledger_daily_decisions').execute();

      await migrateLedger(fixture().db);
      await migrateLedger(fixture().db);

      expect(await decisions()).to.deep.equal(kept);
      expect(await fixture().db.selectFrom('v_approval_rate_daily').selectAll().orderBy('merchant_id').orderBy('day').execute()).to.deep.equal(daily);
    });

    it('v_daily_volume: settled, refunded and voided counts and sums per merchant, currency and UTC day', async function () {
      await givenKnownActivity();
      const rows = await fixture().db.selectFrom('v_daily_volume').selectAll().orderBy('merchant_id').orderBy('day').execute();
      expect(rows).to.deep.equal([
        {
          merchant_id: 'm-a', currency: 'EUR', day: DAY1,
          settled_count: 2, settled_amount: 4000, refund_count: 0, refunded_amount: 0, void_count: 0, voided_amount: 0, net_amount: 4000, payout_count: 0, paid_out_amount: 0, top_up_count: 0, topped_up_amount: 0,
        },
        {
          merchant_id: 'm-a', currency: 'EUR', day: DAY2,
          settled_count: 1, settled_amount: 4000, refund_count: 1, refunded_amount: 1500, void_count: 1, voided_amount: 1000, net_amount: 1500, payout_count: 0, paid_out_amount: 0, top_up_count: 0, topped_up_amount: 0,
        },
        {
          merchant_id: 'm-b', currency: 'JPY', day: DAY2,
          settled_count: 1, settled_amount: 700, refund_count: 0, refunded_amount: 0, void_count: 0, voided_amount: 0, net_amount: 700, payout_count: 0, paid_out_amount: 0, top_up_count: 0, topped_up_amount: 0,
        },
      ]);
    });

    it('v_approval_rate and v_approval_rate_daily: approved against declined payments, by the day they were decided', async function () {
      await givenKnownActivity();
      const overall = await fixture().db.selectFrom('v_approval_rate').selectAll().orderBy('merchant_id').execute();
      expect(overall).to.deep.equal([
        { merchant_id: 'm-a', currency: 'EUR', approved_count: 3, declined_count: 2, approval_rate: 0.6 },
        { merchant_id: 'm-b', currency: 'JPY', approved_count: 1, declined_count: 0, approval_rate: 1 },
      ]);
      const daily = await fixture().db.selectFrom('v_approval_rate_daily').selectAll().orderBy('merchant_id').orderBy('day').execute();
      expect(daily).to.deep.equal([
        { merchant_id: 'm-a', currency: 'EUR', day: DAY1, approved_count: 2, declined_count: 1, approval_rate: 2 / 3 },
        { merchant_id: 'm-a', currency: 'EUR', day: DAY2, approved_count: 1, declined_count: 1, approval_rate: 0.5 },
        { merchant_id: 'm-b', currency: 'JPY', day: DAY2, approved_count: 1, declined_count: 0, approval_rate: 1 },
      ]);
    });

    it('v_refund_rate: refunded against settled, by amount and by count', async function () {
      await givenKnownActivity();
      const rows = await fixture().db.selectFrom('v_refund_rate').selectAll().orderBy('merchant_id').execute();
      expect(rows).to.deep.equal([
        {
          merchant_id: 'm-a', currency: 'EUR',
          settled_count: 3, settled_amount: 8000, refund_count: 1, refunded_amount: 1500,
          refund_amount_rate: 1500 / 8000, refund_count_rate: 1 / 3,
        },
        {
          merchant_id: 'm-b', currency: 'JPY',
          settled_count: 1, settled_amount: 700, refund_count: 0, refunded_amount: 0,
          refund_amount_rate: 0, refund_count_rate: 0,
        },
      ]);
    });
  });
});

/** Dates a CREDITVOID's request and answer at one instant. */
function withTime(time: string) {
  return (event: PaymentEvent): PaymentEvent => {
    switch (event.type) {
      case 'CreditVoidRequested':
        return { ...event, data: { ...event.data, requestedAt: time } };
      case 'RefundSucceeded':
        return { ...event, data: { ...event.data, refundedAt: time } };
      default:
        return event;
    }
  };
}
