/**
 * Recurring chains on Checkout: a purchase or debit session with `recurring_init`, paid the way the
 * hosted page pays, hands the merchant `recurring_init_trans_id` and `recurring_token` (callback and
 * status); `POST /api/v1/payment/recurring` (docs/reference/checkout.md#recurring-charge) charges the chain again without the
 * payer; a session's `schedule_id` anchors the chain's automatic payments (`first_recurring_date`).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { anchorChain, type ScheduleRule } from '../../src/domain/schedule/due-dates';
import { CallbackReceiver, type ReceivedCallback } from '../support/callback-receiver';
import { createSession, operationHash, postJson, sessionBody, type Json } from '../support/checkout-client';
import { checkoutPayment, payOnPage } from '../support/checkout-payments';
import { UUID_RE, forEachStore, type HttpResult, type TestClock, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { expectError, expectFieldError } from '../support/api-errors';

const MONTHLY: ScheduleRule = { intervalLength: 1, intervalUnit: 'month', paymentsCount: 12, delayedFirstPayment: { kind: 'none' } };

const statusById = (t: TestGateway, m: TestMerchant, paymentId: string): Promise<HttpResult> =>
  postJson(t, '/api/v1/payment/status', { merchant_key: m.merchant_key, payment_id: paymentId, hash: operationHash([paymentId], m.password) });

/** A chain's initial payment as the merchant knows it: its id and the token its success handed out. */
interface Chain {
  initId: string;
  token: string;
}

function recurringBody(m: TestMerchant, chain: Chain, overrides: Json = {}): Json {
  const order = { number: `rc-${randomUUID()}`, amount: '4.20', description: 'Monthly box', ...(overrides.order ?? {}) };
  const body: Json = { merchant_key: m.merchant_key, recurring_init_trans_id: chain.initId, recurring_token: chain.token, ...overrides, order };
  if (!('hash' in overrides)) {
    body.hash = operationHash([body.recurring_init_trans_id, body.recurring_token, order.number, order.amount, order.description].map(String), m.password);
  }
  return body;
}

const recurring = (t: TestGateway, m: TestMerchant, chain: Chain, overrides: Json = {}): Promise<HttpResult> =>
  postJson(t, '/api/v1/payment/recurring', recurringBody(m, chain, overrides));

const today = (t: TestGateway): string => t.clock.now().toISOString().slice(0, 10);

function daysFromToday(t: TestGateway, days: number): string {
  return new Date(t.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

forEachStore(
  'Checkout API: recurring chains',
  (h) => {
    let receiver: CallbackReceiver;
    let merchant: TestMerchant;

    async function callbacksOf(paymentId: string): Promise<Record<string, string>[]> {
      await h().gateway.notifier.catchUp();
      await h().gateway.readModels.catchUpToHead(5000);
      return receiver.received.filter((r: ReceivedCallback) => r.fields.get('id') === paymentId).map((r) => Object.fromEntries(r.fields));
    }

    /** A chain started by a `recurring_init` session of `operation`, paid with the 01/2038 card. */
    async function startChain(operation: 'purchase' | 'debit' = 'purchase', overrides: Json = {}): Promise<Chain> {
      const { payment } = await checkoutPayment(h(), merchant, { operation, recurring_init: true, custom_data: { plan: 'first' }, ...overrides });
      expect(payment.phase).to.equal('settled');
      expect(payment.recurringToken, 'recurring token of the initial payment').to.be.a('string');
      return { initId: payment.paymentId, token: payment.recurringToken! };
    }

    const newSchedule = async (m: TestMerchant = merchant): Promise<string> =>
      (await h().gateway.schedules.create(m.merchant_id, { name: 'Monthly', rule: MONTHLY }, 'test')).scheduleId;

    before(async () => {
      await h().gateway.notifier.start();
    });
    beforeEach(async () => {
      receiver = await new CallbackReceiver().start();
      merchant = await h().createMerchant({ notificationUrl: receiver.url });
    });
    afterEach(async () => {
      await receiver.stop();
    });

    describe('sessions with recurring_init', () => {
      it('Given a purchase session with recurring_init, when the payer pays with the 01/2038 card, then its callback and status carry recurring_init_trans_id and recurring_token', async () => {
        const chain = await startChain('purchase');

        const [callback, ...more] = await callbacksOf(chain.initId);
        expect(more).to.have.length(0);
        expect(callback).to.include({ type: 'sale', status: 'success', recurring_init_trans_id: chain.initId, recurring_token: chain.token });
        const status = await statusById(h(), merchant, chain.initId);
        expect(status.status, status.text).to.equal(200);
        expect(status.body).to.include({ type: 'sale', status: 'settled', recurring_init_trans_id: chain.initId, recurring_token: chain.token });
      });

      it('Given a debit session with recurring_init, when the payer pays, then its callback and status carry the chain fields too', async () => {
        const chain = await startChain('debit');

        const [callback] = await callbacksOf(chain.initId);
        expect(callback).to.include({ type: 'debit', status: 'success', recurring_init_trans_id: chain.initId, recurring_token: chain.token });
        expect((await statusById(h(), merchant, chain.initId)).body).to.include({ type: 'debit', recurring_token: chain.token });
      });

      it('Given a recurring_init session paid with a declined card, then no token is handed out', async () => {
        const { payment } = await checkoutPayment(h(), merchant, { recurring_init: true }, '02');
        const status = await statusById(h(), merchant, payment.paymentId);
        expect(status.body).to.include({ status: 'decline' });
        expect(status.body).not.to.have.property('recurring_token');
        expect(status.body).not.to.have.property('recurring_init_trans_id');
      });

      it('Given a session without recurring_init, then its payment says nothing of chains', async () => {
        const { payment } = await checkoutPayment(h(), merchant);
        const status = await statusById(h(), merchant, payment.paymentId);
        expect(status.body).not.to.have.property('recurring_token');
        expect(status.body).not.to.have.property('recurring_init_trans_id');
      });

      it('Given a session with schedule_id, when the payer pays, then the session echoes it and the initial payment reports schedule_id and first_recurring_date', async () => {
        const scheduleId = await newSchedule();
        const res = await postJson(h(), '/api/v1/session', sessionBody(merchant, { recurring_init: true, schedule_id: scheduleId }));
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.include({ schedule_id: scheduleId });
        const { payment } = await checkoutPayment(h(), merchant, { recurring_init: true, schedule_id: scheduleId });

        const firstDue = anchorChain(MONTHLY, today(h())).firstDueDate;
        const status = await statusById(h(), merchant, payment.paymentId);
        expect(status.body).to.include({ recurring_init_trans_id: payment.paymentId, schedule_id: scheduleId, first_recurring_date: firstDue });
        expect(status.body).not.to.have.property('schedule_start_date');
        expect(status.body).not.to.have.property('payment_schedule_amount');
        const [callback] = await callbacksOf(payment.paymentId);
        expect(callback).to.include({ schedule_id: scheduleId, first_recurring_date: firstDue });
      });

      it('Given schedule_start_date and payment_schedule_amount, then the chain starts on that date and both are echoed', async () => {
        const scheduleId = await newSchedule();
        const start = daysFromToday(h(), 10);
        const { payment } = await checkoutPayment(h(), merchant, {
          recurring_init: true,
          schedule_id: scheduleId,
          schedule_start_date: start,
          payment_schedule_amount: '3.00',
        });
        expect((await statusById(h(), merchant, payment.paymentId)).body).to.include({
          schedule_id: scheduleId,
          schedule_start_date: start,
          payment_schedule_amount: '3.00',
          first_recurring_date: start,
        });
      });

      it('Given a schedule_id the merchant does not have, when the session is created, then Schedule not found', async () => {
        const unknown = await postJson(h(), '/api/v1/session', sessionBody(merchant, { recurring_init: true, schedule_id: randomUUID() }));
        expectError(unknown, 100000, 'Schedule not found');
        const other = await h().createMerchant();
        const foreign = await postJson(h(), '/api/v1/session', sessionBody(merchant, { recurring_init: true, schedule_id: await newSchedule(other) }));
        expectError(foreign, 100000, 'Schedule not found');
      });

      it('Given a schedule deleted after the session was created, when the payer pays, then the chain starts without it', async () => {
        const scheduleId = await newSchedule();
        const { sessionId } = await createSession(h(), merchant, { recurring_init: true, schedule_id: scheduleId });
        await h().gateway.schedules.delete(merchant.merchant_id, scheduleId, 'test');
        const payment = await payOnPage(h(), sessionId);
        const status = await statusById(h(), merchant, payment.paymentId);
        expect(status.body).to.include({ status: 'settled', recurring_init_trans_id: payment.paymentId });
        expect(status.body).not.to.have.property('schedule_id');
      });

      it('Given recurring_init with a credit session, then a field error on recurring_init', async () => {
        const res = await postJson(h(), '/api/v1/session', sessionBody(merchant, { operation: 'credit', recurring_init: true }));
        expectFieldError(res, 'recurring_init: This field is only accepted with operation purchase or debit.');
      });

      it('Given schedule fields without recurring_init, then a field error on recurring_init', async () => {
        const res = await postJson(h(), '/api/v1/session', sessionBody(merchant, { schedule_id: randomUUID() }));
        expectFieldError(res, 'recurring_init: This value should be true when schedule_id, schedule_start_date or payment_schedule_amount is sent.');
      });

      it('Given a schedule_start_date that is not after today, or a zero payment_schedule_amount, then field errors', async () => {
        const scheduleId = await newSchedule();
        const past = await postJson(h(), '/api/v1/session', sessionBody(merchant, { recurring_init: true, schedule_id: scheduleId, schedule_start_date: today(h()) }));
        expectFieldError(past, 'schedule_start_date: This value should be a date after today.');
        const zero = await postJson(h(), '/api/v1/session', sessionBody(merchant, { recurring_init: true, schedule_id: scheduleId, payment_schedule_amount: '0.00' }));
        expectFieldError(zero, 'payment_schedule_amount: This value should be greater than 0.');
      });

      it('Given a non-UUID schedule_id, then the UUID field error comes before any lookup', async () => {
        const res = await postJson(h(), '/api/v1/session', sessionBody(merchant, { recurring_init: true, schedule_id: 'monthly' }));
        expectFieldError(res, 'schedule_id: This is not a valid UUID.');
      });
    });

    describe('POST /api/v1/payment/recurring', () => {
      it('Given a purchase chain, when the merchant sends a signed recurring request, then a new settled payment of type recurring with the request\'s custom_data', async () => {
        const chain = await startChain('purchase');
        const res = await recurring(h(), merchant, chain, { custom_data: { plan: 'month-2' } });

        expect(res.status, res.text).to.equal(200);
        expect(res.body.payment_id).to.match(UUID_RE).and.not.equal(chain.initId);
        expect(res.body).to.deep.include({
          status: 'settled',
          type: 'recurring',
          recurring_init_trans_id: chain.initId,
          custom_data: { plan: 'month-2' },
        });
        expect(res.body.order).to.deep.include({ amount: '4.20', currency: 'USD', description: 'Monthly box' });
        expect(res.body).not.to.have.property('recurring_token');
        expect((await h().gateway.payments.current(res.body.payment_id)).kind).to.equal('sale');

        const [callback, ...more] = await callbacksOf(res.body.payment_id);
        expect(more).to.have.length(0);
        expect(callback).to.include({ type: 'recurring', status: 'success', order_status: 'settled', recurring_init_trans_id: chain.initId, 'custom_data[plan]': 'month-2' });
        const status = await statusById(h(), merchant, res.body.payment_id);
        expect(status.body).to.deep.include({ type: 'recurring', status: 'settled', custom_data: { plan: 'month-2' } });
      });

      it('Given a debit chain, when the merchant charges it, then the new payment is a debit reported as recurring', async () => {
        const chain = await startChain('debit');
        const res = await recurring(h(), merchant, chain);
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.include({ type: 'recurring', status: 'settled', recurring_init_trans_id: chain.initId });
        expect((await h().gateway.payments.current(res.body.payment_id)).kind).to.equal('debit');
      });

      it('Given a schedule_id, then the schedule starts from this payment', async () => {
        const chain = await startChain('purchase');
        const scheduleId = await newSchedule();
        const res = await recurring(h(), merchant, chain, { schedule_id: scheduleId, payment_schedule_amount: '2.50' });
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.include({
          schedule_id: scheduleId,
          payment_schedule_amount: '2.50',
          first_recurring_date: anchorChain(MONTHLY, today(h())).firstDueDate,
        });
        const unknown = await recurring(h(), merchant, chain, { schedule_id: randomUUID() });
        expectError(unknown, 100000, 'Schedule not found');
      });

      it('Given a wrong recurring_token, or a chain of another merchant, then Incorrect transaction', async () => {
        const chain = await startChain('purchase');
        expectError(await recurring(h(), merchant, { ...chain, token: `${chain.token}x` }), 100000, 'Incorrect transaction');
        expectError(await recurring(h(), merchant, { ...chain, initId: randomUUID() }), 100000, 'Incorrect transaction');
        const other = await h().createMerchant();
        expectError(await recurring(h(), other, chain), 100000, 'Incorrect transaction');
      });

      it('Given a payment that started no chain, then Incorrect transaction', async () => {
        const { payment } = await checkoutPayment(h(), merchant);
        expectError(await recurring(h(), merchant, { initId: payment.paymentId, token: 'anything' }), 100000, 'Incorrect transaction');
      });

      it('Given a wrong hash, then Hash is not valid', async () => {
        const chain = await startChain('purchase');
        expectError(await recurring(h(), merchant, chain, { hash: '0'.repeat(40) }), 100000, 'Hash is not valid');
      });

      it('Given a non-UUID recurring_init_trans_id, then a field error before the hash', async () => {
        const res = await recurring(h(), merchant, { initId: 'not-a-uuid', token: 't' }, { hash: 'not checked' });
        expectFieldError(res, 'recurring_init_trans_id: This is not a valid UUID.');
      });

      it('Given missing fields, then field errors name them', async () => {
        const res = await postJson(h(), '/api/v1/payment/recurring', { merchant_key: merchant.merchant_key, order: { number: 'x' }, hash: 'h' });
        expectFieldError(res, 'recurring_init_trans_id: This value should not be blank.');
        expectFieldError(res, 'recurring_token: This value should not be blank.');
        expectFieldError(res, 'order.amount: This value should not be blank.');
      });

      it('Given an order.currency other than the chain\'s, or an amount the currency cannot take, then a field error', async () => {
        const chain = await startChain('purchase');
        expectFieldError(
          await recurring(h(), merchant, chain, { order: { currency: 'EUR' } }),
          'order.currency: This value should be the currency of the first payment (USD).',
        );
        const sameCurrency = await recurring(h(), merchant, chain, { order: { currency: 'USD' } });
        expect(sameCurrency.status, sameCurrency.text).to.equal(200);
        const bad = await recurring(h(), merchant, chain, { order: { amount: '1.234' } });
        expect(bad.status, bad.text).to.equal(400);
        expect(bad.body.errors[0].error_message).to.match(/^order\.amount: /);
      });

      it('Given a zero amount, then amount: This value should be greater than 0.', async () => {
        const chain = await startChain('purchase');
        expectError(await recurring(h(), merchant, chain, { order: { amount: '0.00' } }), 100000, 'amount: This value should be greater than 0.');
      });

      it('Given an order number reused after the duplicate window, then order_id: Duplicate payment.; repeated within it, the original payment', async () => {
        const chain = await startChain('purchase');
        const body = recurringBody(merchant, chain);
        const first = await postJson(h(), '/api/v1/payment/recurring', body);
        expect(first.status, first.text).to.equal(200);
        const repeat = await postJson(h(), '/api/v1/payment/recurring', body);
        expect(repeat.body.payment_id).to.equal(first.body.payment_id);
        (h().clock as TestClock).advance(16_000);
        expectError(await postJson(h(), '/api/v1/payment/recurring', body), 100000, 'order_id: Duplicate payment.');
      });
    });
  },
  { env: { CALLBACK_TIMEOUT: '300ms', NOTIFIER_POLL_MS: '600000' } },
);
