/**
 * Checkout schedule operations over HTTP (docs/reference/checkout.md#schedule-operations): `POST /api/v1/schedule/{create,update,
 * pause,run,delete,info,deschedule}`. Given a merchant (and a schedule made through the API), when it
 * sends a signed operation, then the answer, and what `info` says the schedule now is.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createScheduleHash } from '../../src/domain/signatures';
import { operationHash, postJson, type Json } from '../support/checkout-client';
import { checkoutPayment } from '../support/checkout-payments';
import { UUID_RE, forEachStore, type HttpResult, type TestGateway, type TestMerchant } from '../support/gateway-harness';

const DEPRECATED = 'Parameter is deprecated. Use delayed_first_payment and the first_payment_* parameters instead.';
const NOT_A_UUID = 'This is not a valid UUID.';
const WRONG_HASH = 'b'.repeat(40);
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const CREATE_HASHED = ['name', 'interval_length', 'interval_unit', 'payments_count'];

function expectError(res: HttpResult, message: string): void {
  expect(res.status, res.text).to.equal(400);
  expect(res.body, res.text).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: message });
}

function expectFieldErrors(res: HttpResult, ...messages: string[]): void {
  expect(res.status, res.text).to.equal(400);
  expect(res.body, res.text).to.include({ result: 'ERROR', error_code: 100000, error_message: 'Request data is invalid.' });
  expect(res.body.errors, res.text).to.deep.equal(messages.map((error_message) => ({ error_code: 100000, error_message })));
}

/** The hash input as a merchant builds it: the raw values, a JSON number as its decimal text. */
const createHash = (fields: Json, password: string) => operationHash(CREATE_HASHED.map((name) => (fields[name] === undefined ? '' : String(fields[name]))), password);

function createBody(merchant: TestMerchant, overrides: Json = {}): Json {
  const fields: Json = { name: 'Weekly plan', interval_length: 1, interval_unit: 'week', payments_count: 10, ...overrides };
  return { merchant_key: merchant.merchant_key, ...fields, hash: 'hash' in overrides ? overrides.hash : createHash(fields, merchant.password) };
}

/** Any operation but create, signed with schedule_id + password unless `hash` is given. */
function operation(t: TestGateway, merchant: TestMerchant, name: string, scheduleId: unknown, extra: Json = {}): Promise<HttpResult> {
  const hash = operationHash([String(scheduleId ?? '')], merchant.password);
  return postJson(t, `/api/v1/schedule/${name}`, { merchant_key: merchant.merchant_key, schedule_id: scheduleId, hash, ...extra });
}

forEachStore('Checkout API: schedule operations', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  const create = (overrides: Json = {}, as: TestMerchant = merchant) => postJson(h(), '/api/v1/schedule/create', createBody(as, overrides));
  const op = (name: string, scheduleId: unknown, extra: Json = {}) => operation(h(), merchant, name, scheduleId, extra);
  const info = (scheduleId: string) => op('info', scheduleId);

  async function created(overrides: Json = {}, as: TestMerchant = merchant): Promise<string> {
    const res = await create(overrides, as);
    expect(res.status, `given a schedule: ${res.text}`).to.equal(200);
    return res.body.schedule_id;
  }

  describe('create and info', () => {
    it('Given JSON integers, when created, then it answers the schedule record and info shows the same', async () => {
      const res = await create();

      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({
        name: 'Weekly plan',
        interval_length: 1,
        interval_unit: 'week',
        payments_count: 10,
        delayed_first_payment: 'none',
        first_payment_interval_length: null,
        first_payment_interval_unit: null,
        first_payment_day_of_week: null,
        first_payment_day_of_month: null,
        delays: null,
        status: 'active',
      });
      expect(res.body.schedule_id).to.match(UUID_RE);
      expect(res.body.created_at).to.match(DATE_TIME);
      expect(res.body).not.to.have.property('result');

      const read = await info(res.body.schedule_id);
      expect(read.status, read.text).to.equal(200);
      expect(read.body).to.deep.equal(res.body);
    });

    it('Given digit strings hashed as sent, when created, then the counts are numbers in the record', async () => {
      const res = await create({ interval_length: '3', payments_count: '007' });

      expect(res.body, res.text).to.include({ interval_length: 3, payments_count: 7 });
    });

    it('Given a hash over "7" for a payments_count sent as "007", when created, then Hash is not valid', async () => {
      const hash = createHash({ name: 'Weekly plan', interval_length: 1, interval_unit: 'week', payments_count: 7 }, merchant.password);
      expectError(await create({ payments_count: '007', hash }), 'Hash is not valid');
    });

    it('Given a schedule_id and a delay to a day of the month, when created, then both are kept', async () => {
      const scheduleId = randomUUID();
      const res = await create({ schedule_id: scheduleId, interval_unit: 'month', delayed_first_payment: 'to_day_of_month', first_payment_day_of_month: 31 });

      expect(res.body, res.text).to.include({ schedule_id: scheduleId, delayed_first_payment: 'to_day_of_month', first_payment_day_of_month: 31 });
      expect((await info(scheduleId)).body).to.include({ first_payment_day_of_month: 31, first_payment_day_of_week: null });
    });

    it('Given a schedule made on S2S, when info is asked on Checkout, then it is the same schedule', async () => {
      const res = await h().post({
        action: 'CREATE_SCHEDULE',
        client_key: merchant.client_key,
        name: 'From S2S',
        interval_length: '2',
        interval_unit: 'day',
        payments_count: '3',
        delayed_first_payment: 'to_day_of_week',
        first_payment_day_of_week: '5',
        hash: createScheduleHash(merchant.password),
      });
      expect(res.body, res.text).to.include({ result: 'SUCCESS' });

      const read = await info(res.body.schedule_id);

      const { action: _action, result: _result, ...record } = res.body;
      expect(read.body).to.deep.equal(record);
    });

    it('Given a schedule_id already used, when created, then schedule_id is refused as already used', async () => {
      const scheduleId = await created({ schedule_id: randomUUID() });
      expectFieldErrors(await create({ schedule_id: scheduleId }), 'schedule_id: This value is already used.');
    });

    it('Given a wrong hash, when created, then Hash is not valid and nothing is created', async () => {
      const scheduleId = randomUUID();
      expectError(await create({ schedule_id: scheduleId, hash: WRONG_HASH }), 'Hash is not valid');
      expectError(await info(scheduleId), 'Schedule not found');
    });

    it('Given no hash, when created, then hash is reported with the other field errors', async () => {
      expectFieldErrors(await create({ hash: undefined, interval_unit: 'fortnight' }), 'interval_unit: The value you selected is not a valid choice. Allowed: day, week, month, year.', 'hash: This value should not be blank.');
    });

    it('Given no schedule fields, when created, then every required one is reported before the hash', async () => {
      const res = await postJson(h(), '/api/v1/schedule/create', { merchant_key: merchant.merchant_key, hash: WRONG_HASH });
      expectFieldErrors(
        res,
        'name: This value should not be blank.',
        'interval_length: This value should not be blank.',
        'interval_unit: This value should not be blank.',
        'payments_count: This value should not be blank.',
      );
    });

    const invalid: [string, Json, string][] = [
      ['a JSON 1.5 interval_length', { interval_length: 1.5 }, 'interval_length: This value should be of type integer.'],
      ['interval_length 366', { interval_length: 366 }, 'interval_length: This value should be 365 or less.'],
      ['payments_count 0', { payments_count: 0 }, 'payments_count: This value should be 1 or more.'],
      ['a numeric name', { name: 12 }, 'name: This value should be of type string.'],
      ['a null name', { name: null }, 'name: This value should not be blank.'],
      [
        'by_interval without its length',
        { delayed_first_payment: 'by_interval', first_payment_interval_unit: 'month' },
        'first_payment_interval_length: This value should not be blank.',
      ],
      [
        'by_interval with an unknown unit',
        { delayed_first_payment: 'by_interval', first_payment_interval_length: 2, first_payment_interval_unit: 'hour' },
        'first_payment_interval_unit: The value you selected is not a valid choice. Allowed: day, week, month, year.',
      ],
      ['to_day_of_week 0', { delayed_first_payment: 'to_day_of_week', first_payment_day_of_week: 0 }, 'first_payment_day_of_week: This value should be 1 or more.'],
      [
        'a span over 100 years',
        { interval_length: 365, interval_unit: 'day', payments_count: 101 },
        'payments_count: This value is too large: the schedule would run longer than 100 years.',
      ],
    ];
    for (const [label, overrides, message] of invalid) {
      it(`Given ${label}, when created, then "${message}"`, async () => {
        expectFieldErrors(await create(overrides), message);
      });
    }

    it('Given delays, even null, when created, then it is refused as deprecated before anything else', async () => {
      expectError(await create({ delays: null }), DEPRECATED);
      expectError(await create({ delays: [1, 2], schedule_id: 'x', name: undefined, hash: WRONG_HASH }), DEPRECATED);
    });

    it('Given a non-UUID schedule_id and a wrong hash, when created, then the UUID refusal comes first', async () => {
      expectError(await create({ schedule_id: 'my-plan', hash: WRONG_HASH, payments_count: undefined }), NOT_A_UUID);
    });
  });

  describe('update', () => {
    it('Given payments_count only, when updated, then only it changes', async () => {
      const scheduleId = await created({ delayed_first_payment: 'by_interval', first_payment_interval_length: 3, first_payment_interval_unit: 'day' });
      const before = (await info(scheduleId)).body;

      const res = await op('update', scheduleId, { payments_count: '24' });

      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ schedule_id: scheduleId, payments_count: 24 });
      const after = (await info(scheduleId)).body;
      expect(after).to.deep.equal({ ...before, payments_count: 24, updated_at: after.updated_at });
    });

    it('Given a new delay kind with its field, when updated, then the old delay fields are cleared', async () => {
      const scheduleId = await created({ delayed_first_payment: 'by_interval', first_payment_interval_length: 3, first_payment_interval_unit: 'day' });

      const res = await op('update', scheduleId, { delayed_first_payment: 'to_day_of_week', first_payment_day_of_week: 7 });

      expect(res.body, res.text).to.include({
        delayed_first_payment: 'to_day_of_week',
        first_payment_day_of_week: 7,
        first_payment_interval_length: null,
        first_payment_interval_unit: null,
        name: 'Weekly plan',
        payments_count: 10,
      });
    });

    it('Given nothing to change, when updated, then it answers the unchanged record', async () => {
      const scheduleId = await created();
      const before = (await info(scheduleId)).body;
      const res = await op('update', scheduleId);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal(before);
    });

    it('Given first_payment_* without delayed_first_payment, when updated, then delayed_first_payment is reported', async () => {
      const scheduleId = await created();
      expectFieldErrors(
        await op('update', scheduleId, { first_payment_interval_length: 2, first_payment_interval_unit: 'week' }),
        'delayed_first_payment: This value should not be blank when first_payment_* parameters are sent.',
      );
    });

    it('Given delays, when updated, then it is refused as deprecated', async () => {
      const scheduleId = await created();
      expectError(await op('update', scheduleId, { delays: '' }), DEPRECATED);
    });

    it('Given a change that makes it run over 100 years, when updated, then payments_count is refused', async () => {
      const scheduleId = await created({ interval_unit: 'year', interval_length: 10 });
      expectFieldErrors(await op('update', scheduleId, { payments_count: 11 }), 'payments_count: This value is too large: the schedule would run longer than 100 years.');
      expect((await info(scheduleId)).body.payments_count).to.equal(10);
    });

    it('Given an unknown UUID or another merchant schedule, when updated, then Schedule not found', async () => {
      expectError(await op('update', randomUUID(), { name: 'x' }), 'Schedule not found');
      const other = await h().createMerchant();
      const scheduleId = await created({}, other);
      expectError(await op('update', scheduleId, { name: 'x' }), 'Schedule not found');
      expect((await operation(h(), other, 'info', scheduleId)).body.name).to.equal('Weekly plan');
    });
  });

  describe('pause, run, delete', () => {
    it('Given an active schedule, when paused, run and deleted, then each answers its state and info follows', async () => {
      const scheduleId = await created();

      const paused = await op('pause', scheduleId);
      expect(paused.status, paused.text).to.equal(200);
      expect(paused.body).to.include({ schedule_id: scheduleId, status: 'paused', name: 'Weekly plan' });
      expect((await info(scheduleId)).body.status).to.equal('paused');

      const again = await op('pause', scheduleId);
      expect(again.body, 'a second pause changes nothing').to.deep.equal(paused.body);

      const running = await op('run', scheduleId);
      expect(running.body, running.text).to.include({ schedule_id: scheduleId, status: 'active' });
      expect((await op('run', scheduleId)).body, 'a second run changes nothing').to.deep.equal(running.body);
      expect((await info(scheduleId)).body.status).to.equal('active');

      const deleted = await op('delete', scheduleId);
      expect(deleted.status, deleted.text).to.equal(200);
      expect(deleted.body).to.deep.equal({ schedule_id: scheduleId, status: 'deleted' });

      for (const name of ['info', 'pause', 'run', 'delete', 'update', 'deschedule']) {
        expectError(await op(name, scheduleId), 'Schedule not found');
      }
    });

    it('Given an active schedule, when run, then it is a success without change', async () => {
      const scheduleId = await created();
      const before = (await info(scheduleId)).body;
      const res = await op('run', scheduleId);
      expect(res.body, res.text).to.deep.equal(before);
    });

    for (const name of ['info', 'pause', 'run', 'delete', 'update', 'deschedule']) {
      it(`Given a non-UUID schedule_id and a wrong hash, when ${name} is asked, then the UUID refusal comes first`, async () => {
        expectError(await op(name, 'not-a-uuid', { hash: WRONG_HASH }), NOT_A_UUID);
        expectError(await op(name, 17, { hash: WRONG_HASH }), NOT_A_UUID);
      });

      it(`Given an unknown UUID, when ${name} is asked, then the hash comes first, then Schedule not found`, async () => {
        const scheduleId = randomUUID();
        expectError(await op(name, scheduleId, { hash: WRONG_HASH }), 'Hash is not valid');
        expectError(await op(name, scheduleId), 'Schedule not found');
      });

      it(`Given another merchant schedule, when ${name} is asked, then Schedule not found`, async () => {
        const other = await h().createMerchant();
        const scheduleId = await created({}, other);
        expectError(await op(name, scheduleId), 'Schedule not found');
        expect((await operation(h(), other, 'info', scheduleId)).body.status).to.equal('active');
      });

      it(`Given no schedule_id, when ${name} is asked, then schedule_id is a blank field`, async () => {
        expectFieldErrors(await op(name, undefined), 'schedule_id: This value should not be blank.');
      });
    }
  });

  describe('deschedule', () => {
    it('Given a schedule, when descheduled without a payment, then every chain stops and the schedule stays usable', async () => {
      const scheduleId = await created();

      const res = await op('deschedule', scheduleId);

      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ schedule_id: scheduleId, status: 'descheduled' });
      expect((await info(scheduleId)).body.status).to.equal('active');
      expect((await op('pause', scheduleId)).body.status).to.equal('paused');
    });

    it('Given a recurring payment started on the schedule, when descheduled by its id, then its chain stops', async () => {
      const scheduleId = await created();
      const { payment } = await checkoutPayment(h(), merchant, { recurring_init: true, schedule_id: scheduleId });

      const res = await op('deschedule', scheduleId, { recurring_init_trans_id: payment.paymentId.toUpperCase() });

      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ schedule_id: scheduleId, status: 'descheduled', recurring_init_trans_id: payment.paymentId });
    });

    it('Given a payment that is not on the schedule, when descheduled by its id, then Incorrect transaction', async () => {
      const scheduleId = await created();
      const { payment } = await checkoutPayment(h(), merchant);
      expectError(await op('deschedule', scheduleId, { recurring_init_trans_id: payment.paymentId }), 'Incorrect transaction');
      expectError(await op('deschedule', scheduleId, { recurring_init_trans_id: randomUUID() }), 'Incorrect transaction');
    });

    it('Given a recurring_init_trans_id that is not a UUID, when descheduled, then it is a field error', async () => {
      const scheduleId = await created();
      expectFieldErrors(await op('deschedule', scheduleId, { recurring_init_trans_id: 'tx-1' }), 'recurring_init_trans_id: This is not a valid UUID.');
    });
  });
});
