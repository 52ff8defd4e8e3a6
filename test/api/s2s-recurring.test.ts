/**
 * Recurring chains on S2S CARD over HTTP: a SALE with recurring_init starts one (only the sandbox's
 * 01/2038 card may), RECURRING_SALE and RECURRING_DEBIT charge it without the payer, a SALE with
 * schedule_id attaches a schedule, and responses, callbacks and status lookups say the same about
 * the chain. Given a merchant (and a chain made through the API), when a request, then the answer.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { CallbackReceiver, type ReceivedCallback } from '../support/callback-receiver';
import { checkoutPayment } from '../support/checkout-payments';
import {
  TRANS_DATE,
  UUID_RE,
  forEachStore,
  orderIdHash,
  type Fields,
  type HttpResult,
  type TestClock,
  type TestMerchant,
} from '../support/gateway-harness';

const DAILY = { intervalLength: 1, intervalUnit: 'day', paymentsCount: 3, delayedFirstPayment: { kind: 'none' } } as const;
const NO_CARD = { card_number: undefined, card_exp_month: undefined, card_exp_year: undefined, card_cvv2: undefined };

const dayAfter = (date: string, days = 1) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

interface Chain {
  transId: string;
  token: string;
  orderId: string;
}

forEachStore(
  'S2S CARD recurring chains',
  (h) => {
    const receiver = new CallbackReceiver();
    let merchant: TestMerchant;

    before(async () => {
      await receiver.start();
      await h().gateway.notifier.start();
    });
    after(async () => {
      await receiver.stop();
    });
    beforeEach(async () => {
      merchant = await h().createMerchant({ notificationUrl: receiver.url });
    });

    const today = () => h().clock.now().toISOString().slice(0, 10);

    /** A SALE that starts a chain on the 01/2038 card. */
    async function startChain(m: TestMerchant = merchant, overrides: Fields = {}): Promise<Chain & { res: HttpResult }> {
      const res = await h().sale(m, { recurring_init: 'Y', ...overrides });
      expect(res.status, res.text).to.equal(200);
      return { res, transId: res.body.trans_id, token: res.body.recurring_token, orderId: res.fields.order_id! };
    }

    function recurringFields(m: TestMerchant, chain: Pick<Chain, 'transId' | 'token'>, overrides: Fields = {}): Fields {
      const fields: Fields = {
        action: 'RECURRING_SALE',
        client_key: m.client_key,
        order_id: `rec-${randomUUID()}`,
        order_amount: '7.25',
        order_description: 'Monthly box',
        recurring_first_trans_id: chain.transId,
        recurring_token: chain.token,
        ...overrides,
      };
      if (!('hash' in overrides)) fields.hash = orderIdHash(fields.order_id ?? '', m.password);
      return fields;
    }

    const recurring = (m: TestMerchant, chain: Pick<Chain, 'transId' | 'token'>, overrides: Fields = {}) =>
      h().post(recurringFields(m, chain, overrides));

    async function callbacksOf(transId: string): Promise<ReceivedCallback[]> {
      await h().gateway.notifier.catchUp();
      return receiver.ofTransaction(transId);
    }

    function expectError(res: HttpResult, message: string): void {
      expect(res.status, res.text).to.equal(400);
      expect(res.body).to.include({ result: 'ERROR', error_code: 100000, error_message: message });
    }

    function expectFieldError(res: HttpResult, fieldMessage: string): void {
      expectError(res, 'Request data is invalid.');
      expect(res.body.errors.map((e: { error_message: string }) => e.error_message)).to.include(fieldMessage);
    }

    describe('SALE with recurring_init', () => {
      it('on the 01/2038 card settles and hands back a recurring_token, also in the callback and the status lookup', async () => {
        const { res, transId, token } = await startChain();

        expect(res.body).to.include({ action: 'SALE', result: 'SUCCESS', status: 'SETTLED' });
        expect(token).to.be.a('string').with.length.greaterThan(16);
        expect(res.body).not.to.have.property('recurring_first_trans_id');

        const [callback, ...more] = await callbacksOf(transId);
        expect(more).to.have.length(0);
        expect(callback.fields.get('action')).to.equal('SALE');
        expect(callback.fields.get('recurring_token')).to.equal(token);
        expect([...callback.fields.keys()].pop()).to.equal('hash');

        const status = await h().status(merchant, transId);
        expect(status.body).to.include({ status: 'SETTLED', recurring_token: token });
      });

      it('with a zero amount is a card check that still starts the chain', async () => {
        const { res } = await startChain(merchant, { order_amount: '0.00' });
        expect(res.body).to.include({ result: 'SUCCESS', amount: '0.00' });
        expect(res.body.recurring_token).to.be.a('string');
      });

      for (const [month, what] of [
        ['02', 'a card the sandbox declines'],
        ['05', 'a 3-D Secure card'],
      ] as const) {
        it(`on ${what} (${month}/2038) is declined: only 01/2038 may start a chain`, async () => {
          const { res, transId } = await startChain(merchant, { card_exp_month: month });

          expect(res.body).to.include({ result: 'DECLINED', status: 'DECLINED' });
          expect(res.body).not.to.have.property('recurring_token');
          if (month === '05') expect(res.body.decline_reason).to.equal('Card is not enabled for recurring payments');
          const [callback] = await callbacksOf(transId);
          expect(callback.fields.has('recurring_token')).to.equal(false);
        });
      }

      it("with the merchant's card_on_file_support, the token is the connector's card-on-file reference and charges the chain", async () => {
        const cof = await h().createMerchant({ cardOnFileSupport: true });
        const chain = await startChain(cof);
        expect(chain.token).to.match(/^cof_/);

        const res = await recurring(cof, chain);
        expect(res.body).to.include({ action: 'RECURRING_SALE', result: 'SUCCESS', status: 'SETTLED' });
      });
    });

    describe('RECURRING_SALE', () => {
      it('charges the chain: a new SETTLED payment in the chain currency, its own custom_data, the chain named in answer, callback and status', async () => {
        const chain = await startChain(merchant, { order_currency: 'EUR', custom_data: undefined, 'custom_data[first]': 'yes' });
        const res = await recurring(merchant, chain, { 'custom_data[box]': 'b-12' });

        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.include({
          action: 'RECURRING_SALE',
          result: 'SUCCESS',
          status: 'SETTLED',
          amount: '7.25',
          currency: 'EUR',
          descriptor: 'SANDBOX*GATEWAY',
          recurring_first_trans_id: chain.transId,
        });
        expect(res.body.trans_id).to.match(UUID_RE).and.not.equal(chain.transId);
        expect(res.body.trans_date).to.match(TRANS_DATE);
        expect(res.body).not.to.have.property('card_token');
        expect(res.body).not.to.have.property('recurring_token');

        const [initiated] = await h().paymentEvents(res.body.trans_id);
        expect(initiated.data).to.deep.include({ customData: { box: 'b-12' }, payerPresent: false });

        const [callback] = await callbacksOf(res.body.trans_id);
        expect(Object.fromEntries(callback.fields)).to.include({
          action: 'RECURRING_SALE',
          result: 'SUCCESS',
          status: 'SETTLED',
          currency: 'EUR',
          'custom_data[box]': 'b-12',
          recurring_first_trans_id: chain.transId,
        });
        expect(callback.fields.has('custom_data[first]')).to.equal(false);

        const status = await h().status(merchant, res.body.trans_id);
        expect(status.body).to.include({ action: 'GET_TRANS_STATUS', status: 'SETTLED', recurring_first_trans_id: chain.transId });
      });

      it('with a notification_url of its own, calls back there rather than the chain\'s; without one, the chain\'s', async () => {
        const chainTarget = await new CallbackReceiver().start();
        const ownTarget = await new CallbackReceiver().start();
        try {
          const chain = await startChain(merchant, { notification_url: chainTarget.url });
          const own = await recurring(merchant, chain, { notification_url: ownTarget.url });
          expect(own.status, own.text).to.equal(200);
          const inherited = await recurring(merchant, chain);
          await h().gateway.notifier.catchUp();
          expect(ownTarget.ofTransaction(own.body.trans_id)).to.have.length(1);
          expect(chainTarget.ofTransaction(own.body.trans_id)).to.deep.equal([]);
          expect(chainTarget.ofTransaction(inherited.body.trans_id)).to.have.length(1);
          expect(ownTarget.ofTransaction(inherited.body.trans_id)).to.deep.equal([]);
          expect(receiver.ofTransaction(own.body.trans_id)).to.deep.equal([]);
        } finally {
          await chainTarget.stop();
          await ownTarget.stop();
        }
      });

      it('with a notification_url that is no URL, is a field error and charges nothing', async () => {
        const chain = await startChain();
        expectFieldError(await recurring(merchant, chain, { notification_url: 'not a url' }), 'notification_url: This value is not a valid URL.');
      });

      it('accepts order_currency when it is the chain currency, and refuses another one as a field error', async () => {
        const chain = await startChain();
        expect((await recurring(merchant, chain, { order_currency: 'USD' })).body).to.include({ result: 'SUCCESS', currency: 'USD' });
        expectFieldError(await recurring(merchant, chain, { order_currency: 'EUR' }), 'order_currency: This value should be equal to USD.');
        expectFieldError(await recurring(merchant, chain, { order_currency: 'XYZ' }), 'order_currency: This value is not a valid currency.');
      });

      it('reads order_amount in the chain currency (more fraction digits than it has is a field error)', async () => {
        const chain = await startChain(merchant, { order_currency: 'JPY', order_amount: '100' });
        const res = await recurring(merchant, chain, { order_amount: '10.5' });
        expectError(res, 'Request data is invalid.');
        expect(res.body.errors[0].error_message).to.match(/^order_amount: /);
      });

      it('with a token that is not the chain\'s is 100000 Incorrect transaction and charges nothing', async () => {
        const chain = await startChain();
        const fields = recurringFields(merchant, { ...chain, token: `${chain.token.slice(0, -1)}x` });
        expectError(await h().post(fields), 'Incorrect transaction');
        expect(await h().initiatedForOrder(merchant, fields.order_id!)).to.have.length(0);
      });

      it("with another merchant's chain is Incorrect transaction, even with the right token", async () => {
        const chain = await startChain();
        const other = await h().createMerchant();
        expectError(await recurring(other, chain), 'Incorrect transaction');
      });

      it('with an unknown recurring_first_trans_id, or a payment that started no chain, is Incorrect transaction', async () => {
        const chain = await startChain();
        expectError(await recurring(merchant, { ...chain, transId: randomUUID() }), 'Incorrect transaction');
        const plain = await h().sale(merchant);
        expectError(await recurring(merchant, { transId: plain.body.trans_id, token: chain.token }), 'Incorrect transaction');
      });

      it('on a chain whose first payment was declined is Incorrect transaction', async () => {
        const declined = await startChain(merchant, { card_exp_month: '02' });
        expectError(await recurring(merchant, { transId: declined.transId, token: 'a'.repeat(48) }), 'Incorrect transaction');
      });

      it('with a recurring_first_trans_id that is no UUID is a field error, before the hash and the chain are looked at', async () => {
        const res = await recurring(merchant, { transId: 'not-a-uuid', token: 'x' }, { hash: 'f'.repeat(40) });
        expectFieldError(res, 'recurring_first_trans_id: This is not a valid UUID.');
      });

      it('without recurring_token or order_description is a field error', async () => {
        const chain = await startChain();
        expectFieldError(await recurring(merchant, chain, { recurring_token: undefined }), 'recurring_token: This value should not be blank.');
        expectFieldError(await recurring(merchant, chain, { order_description: undefined }), 'order_description: This value should not be blank.');
      });

      it('with a wrong hash is Hash is not valid', async () => {
        const chain = await startChain();
        expectError(await recurring(merchant, chain, { hash: 'f'.repeat(40) }), 'Hash is not valid');
      });

      it('with a zero amount is amount: This value should be greater than 0.', async () => {
        const chain = await startChain();
        expectError(await recurring(merchant, chain, { order_amount: '0.00' }), 'amount: This value should be greater than 0.');
      });

      it('repeats the same answer within 15 s and refuses the order id after that as a duplicate', async () => {
        const chain = await startChain();
        const fields = recurringFields(merchant, chain);
        const first = await h().post(fields);
        const repeat = await h().post(fields);
        expect(repeat.body.trans_id).to.equal(first.body.trans_id);

        (h().clock as TestClock).advance(16_000);
        expectError(await h().post(fields), 'order_id: Duplicate payment.');
      });
    });

    describe('RECURRING_DEBIT', () => {
      it('on a sale chain is Incorrect transaction', async () => {
        const chain = await startChain();
        expectError(await recurring(merchant, chain, { action: 'RECURRING_DEBIT' }), 'Incorrect transaction');
      });

      it('charges a debit chain (started on Checkout) as a debit, reported as RECURRING_DEBIT', async () => {
        const { payment } = await checkoutPayment(h(), merchant, { operation: 'debit', recurring_init: true });
        const token = payment.recurringToken!;
        expect(token, 'recurring token of the Checkout debit').to.be.a('string');

        expectError(await recurring(merchant, { transId: payment.paymentId, token }), 'Incorrect transaction');
        const res = await recurring(merchant, { transId: payment.paymentId, token }, { action: 'RECURRING_DEBIT' });
        expect(res.body).to.include({ action: 'RECURRING_DEBIT', result: 'SUCCESS', status: 'SETTLED', recurring_first_trans_id: payment.paymentId });

        const [callback] = await callbacksOf(res.body.trans_id);
        expect(callback.fields.get('action')).to.equal('RECURRING_DEBIT');
      });
    });

    describe('SALE with schedule_id', () => {
      const createSchedule = async (m: TestMerchant = merchant) =>
        (await h().gateway.schedules.create(m.merchant_id, { name: 'Monthly', rule: DAILY }, 'test')).scheduleId;

      it('echoes schedule_id and the first_recurring_date (one interval after today), in the callback and status lookup too', async () => {
        const scheduleId = await createSchedule();
        const { res, transId, orderId } = await startChain(merchant, { schedule_id: scheduleId });

        expect(res.body).to.include({ result: 'SUCCESS', schedule_id: scheduleId, first_recurring_date: dayAfter(today()) });
        expect(res.body).not.to.have.property('schedule_start_date');
        expect(res.body).not.to.have.property('payment_schedule_amount');

        const [callback] = await callbacksOf(transId);
        expect(Object.fromEntries(callback.fields)).to.include({ schedule_id: scheduleId, first_recurring_date: dayAfter(today()) });
        const status = await h().statusByOrder(merchant, orderId);
        expect(status.body).to.include({ schedule_id: scheduleId, first_recurring_date: dayAfter(today()) });
      });

      it('with schedule_start_date and payment_schedule_amount echoes them; the start date is the first recurring date', async () => {
        const scheduleId = await createSchedule();
        const start = dayAfter(today(), 10);
        const { res } = await startChain(merchant, { schedule_id: scheduleId, schedule_start_date: start, payment_schedule_amount: '3.00' });
        expect(res.body).to.include({ schedule_id: scheduleId, schedule_start_date: start, payment_schedule_amount: '3.00', first_recurring_date: start });
      });

      it('of an unknown schedule, or of another merchant, is 100000 Schedule not found and charges nothing', async () => {
        const unknown = await h().sale(merchant, { recurring_init: 'Y', schedule_id: randomUUID() });
        expectError(unknown, 'Schedule not found');
        expect(await h().initiatedForOrder(merchant, unknown.fields.order_id!)).to.have.length(0);

        const other = await h().createMerchant();
        expectError(await h().sale(merchant, { recurring_init: 'Y', schedule_id: await createSchedule(other) }), 'Schedule not found');
      });

      it('that is no UUID is 100000 This is not a valid UUID., before the hash', async () => {
        const res = await h().sale(merchant, { recurring_init: 'Y', schedule_id: 'monthly', hash: 'f'.repeat(32) });
        expectError(res, 'This is not a valid UUID.');
      });

      it('with a schedule_start_date of today or earlier is a field error', async () => {
        const scheduleId = await createSchedule();
        for (const date of [today(), '2020-01-01']) {
          expectFieldError(
            await h().sale(merchant, { recurring_init: 'Y', schedule_id: scheduleId, schedule_start_date: date }),
            'schedule_start_date: This value should be a date after today.',
          );
        }
        expectFieldError(
          await h().sale(merchant, { recurring_init: 'Y', schedule_id: scheduleId, schedule_start_date: '2099-02-30' }),
          'schedule_start_date: This value is not a valid date (YYYY-MM-DD).',
        );
      });

      it('schedule_start_date or payment_schedule_amount without schedule_id is a field error on schedule_id', async () => {
        expectFieldError(await h().sale(merchant, { recurring_init: 'Y', schedule_start_date: dayAfter(today(), 3) }), 'schedule_id: This value should not be blank.');
        expectFieldError(await h().sale(merchant, { recurring_init: 'Y', payment_schedule_amount: '1.00' }), 'schedule_id: This value should not be blank.');
      });

      it('schedule_id without recurring_init=Y is a field error on recurring_init', async () => {
        const scheduleId = await createSchedule();
        expectFieldError(await h().sale(merchant, { schedule_id: scheduleId }), 'recurring_init: This value should be Y when schedule_id is sent.');
      });

      it('a zero-amount chain start needs payment_schedule_amount, which must itself be above zero', async () => {
        const scheduleId = await createSchedule();
        const zero = { recurring_init: 'Y', schedule_id: scheduleId, order_amount: '0.00' };
        expectFieldError(await h().sale(merchant, zero), 'payment_schedule_amount: This value should not be blank.');
        expectFieldError(await h().sale(merchant, { ...zero, payment_schedule_amount: '0' }), 'payment_schedule_amount: This value should be greater than 0.');
        const res = await h().sale(merchant, { ...zero, payment_schedule_amount: '4.99' });
        expect(res.body).to.include({ result: 'SUCCESS', amount: '0.00', payment_schedule_amount: '4.99' });
      });
    });

    describe('card-on-file discriminators (Protocol Mapping card_on_file)', () => {
      let mapped: TestMerchant;
      let cardToken: string;
      beforeEach(async () => {
        mapped = await h().createMerchant({ protocolMapping: { fields: ['card_on_file'] } });
        cardToken = (await h().sale(mapped, { req_token: 'Y' })).body.card_token;
      });

      it('a card_token SALE with payer_present=N is merchant-initiated in the status lookup', async () => {
        const res = await h().sale(mapped, { ...NO_CARD, card_token: cardToken, payer_present: 'N' });
        expect(res.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
        const status = await h().status(mapped, res.body.trans_id);
        expect(status.body).to.include({ initiator: 'merchant', source: 'stored_card', sequence: 'subsequent' });
      });

      it('a card_token SALE without payer_present stays cardholder-initiated', async () => {
        const res = await h().sale(mapped, { ...NO_CARD, card_token: cardToken });
        const status = await h().status(mapped, res.body.trans_id);
        expect(status.body).to.include({ initiator: 'cardholder', source: 'stored_card', sequence: 'subsequent' });
      });

      it('the chain start is initial and cardholder-initiated; a RECURRING_SALE is a merchant-initiated stored-card charge', async () => {
        const chain = await startChain(mapped);
        expect((await h().status(mapped, chain.transId)).body).to.include({ initiator: 'cardholder', source: 'new_card', sequence: 'initial' });

        const res = await recurring(mapped, chain);
        const status = await h().status(mapped, res.body.trans_id);
        expect(status.body).to.include({ initiator: 'merchant', source: 'stored_card', sequence: 'subsequent' });
      });
    });
  },
  { env: { CALLBACK_TIMEOUT: '300ms', NOTIFIER_POLL_MS: '600000' } },
);
