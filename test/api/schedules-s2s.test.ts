/**
 * S2S CARD schedule actions over HTTP: `CREATE_SCHEDULE`, `UPDATE_SCHEDULE`, `DELETE_SCHEDULE`.
 * Given a merchant (and a schedule made through the API), when it posts a schedule action, then the
 * answer, and what the Checkout `info` operation says the schedule now is (S2S has no read action).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createScheduleHash, scheduleIdHash } from '../../src/domain/signatures';
import { operationHash, postJson } from '../support/checkout-client';
import { UUID_RE, forEachStore, type Fields, type HttpResult, type TestGateway, type TestMerchant } from '../support/gateway-harness';

const DEPRECATED = 'Parameter is deprecated. Use delayed_first_payment and the first_payment_* parameters instead.';
const NOT_A_UUID = 'This is not a valid UUID.';
const WRONG_HASH = 'a'.repeat(40);
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

function expectError(res: HttpResult, message: string): void {
  expect(res.status, res.text).to.equal(400);
  expect(res.body, res.text).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: message });
}

function expectFieldErrors(res: HttpResult, ...messages: string[]): void {
  expect(res.status, res.text).to.equal(400);
  expect(res.body, res.text).to.include({ result: 'ERROR', error_code: 100000, error_message: 'Request data is invalid.' });
  expect(res.body.errors, res.text).to.deep.equal(messages.map((error_message) => ({ error_code: 100000, error_message })));
}

function createFields(merchant: TestMerchant, overrides: Fields = {}): Fields {
  return {
    action: 'CREATE_SCHEDULE',
    client_key: merchant.client_key,
    name: 'Monthly plan',
    interval_length: '1',
    interval_unit: 'month',
    payments_count: '12',
    hash: createScheduleHash(merchant.password),
    ...overrides,
  };
}

/** UPDATE_SCHEDULE or DELETE_SCHEDULE, signed with schedule_id + password unless `hash` is given. */
function byScheduleIdFields(action: string, merchant: TestMerchant, scheduleId: string, extra: Fields = {}): Fields {
  return { action, client_key: merchant.client_key, schedule_id: scheduleId, hash: scheduleIdHash(scheduleId, merchant.password), ...extra };
}

/** What Checkout says the schedule is (the only read of a schedule). */
function info(t: TestGateway, merchant: TestMerchant, scheduleId: string): Promise<HttpResult> {
  return postJson(t, '/api/v1/schedule/info', {
    merchant_key: merchant.merchant_key,
    schedule_id: scheduleId,
    hash: operationHash([scheduleId], merchant.password),
  });
}

forEachStore('S2S CARD schedule actions', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  async function created(overrides: Fields = {}): Promise<string> {
    const res = await h().post(createFields(merchant, overrides));
    expect(res.body, `given a schedule: ${res.text}`).to.include({ result: 'SUCCESS' });
    return res.body.schedule_id;
  }

  const update = (scheduleId: string, extra: Fields = {}) => h().post(byScheduleIdFields('UPDATE_SCHEDULE', merchant, scheduleId, extra));
  const remove = (scheduleId: string, extra: Fields = {}) => h().post(byScheduleIdFields('DELETE_SCHEDULE', merchant, scheduleId, extra));

  describe('CREATE_SCHEDULE', () => {
    it('Given the required fields, when created, then it answers the schedule record and Checkout info shows the same', async () => {
      const res = await h().post(createFields(merchant));

      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({
        action: 'CREATE_SCHEDULE',
        result: 'SUCCESS',
        name: 'Monthly plan',
        interval_length: 1,
        interval_unit: 'month',
        payments_count: 12,
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
      expect(res.body.updated_at).to.equal(res.body.created_at);

      const read = await info(h(), merchant, res.body.schedule_id);
      expect(read.status, read.text).to.equal(200);
      const { action: _action, result: _result, ...record } = res.body;
      expect(read.body).to.deep.equal(record);
    });

    it('Given a schedule_id of the merchant own and a delay by interval, when created, then both are kept', async () => {
      const scheduleId = randomUUID();
      const res = await h().post(
        createFields(merchant, {
          schedule_id: scheduleId.toUpperCase(),
          delayed_first_payment: 'by_interval',
          first_payment_interval_length: '14',
          first_payment_interval_unit: 'day',
          first_payment_day_of_week: '9',
        }),
      );

      expect(res.body, res.text).to.include({
        result: 'SUCCESS',
        schedule_id: scheduleId,
        delayed_first_payment: 'by_interval',
        first_payment_interval_length: 14,
        first_payment_interval_unit: 'day',
        first_payment_day_of_week: null,
      });
    });

    it('Given a schedule_id already used, when created again, then schedule_id is refused as already used', async () => {
      const scheduleId = await created({ schedule_id: randomUUID() });

      const res = await h().post(createFields(merchant, { schedule_id: scheduleId, name: 'Another' }));

      expectFieldErrors(res, 'schedule_id: This value is already used.');
      expect((await info(h(), merchant, scheduleId)).body.name).to.equal('Monthly plan');
    });

    it('Given a wrong hash, when created, then Hash is not valid and nothing is created', async () => {
      const scheduleId = randomUUID();
      const res = await h().post(createFields(merchant, { schedule_id: scheduleId, hash: WRONG_HASH }));

      expectError(res, 'Hash is not valid');
      expectError(await info(h(), merchant, scheduleId), 'Schedule not found');
    });

    it('Given the schedule_id hash formula instead of the create formula, when created, then Hash is not valid', async () => {
      const scheduleId = randomUUID();
      expectError(await h().post(createFields(merchant, { schedule_id: scheduleId, hash: scheduleIdHash(scheduleId, merchant.password) })), 'Hash is not valid');
    });

    it('Given no required field, when created, then every one is reported before the hash', async () => {
      const res = await h().post({ action: 'CREATE_SCHEDULE', client_key: merchant.client_key, hash: WRONG_HASH });

      expectFieldErrors(
        res,
        'name: This value should not be blank.',
        'interval_length: This value should not be blank.',
        'interval_unit: This value should not be blank.',
        'payments_count: This value should not be blank.',
      );
    });

    it('Given no hash, when created, then hash is a blank field', async () => {
      expectFieldErrors(await h().post(createFields(merchant, { hash: undefined })), 'hash: This value should not be blank.');
    });

    const invalid: [string, Fields, string][] = [
      ['interval_length 0', { interval_length: '0' }, 'interval_length: This value should be 1 or more.'],
      ['interval_length 366', { interval_length: '366' }, 'interval_length: This value should be 365 or less.'],
      ['interval_length "one"', { interval_length: 'one' }, 'interval_length: This value should be of type integer.'],
      ['interval_unit "hour"', { interval_unit: 'hour' }, 'interval_unit: The value you selected is not a valid choice. Allowed: day, week, month, year.'],
      ['payments_count 1001', { payments_count: '1001' }, 'payments_count: This value should be 1000 or less.'],
      ['a name over 255 characters', { name: 'n'.repeat(256) }, 'name: This value is too long. It should have 255 characters or less.'],
      [
        'delayed_first_payment "soon"',
        { delayed_first_payment: 'soon' },
        'delayed_first_payment: The value you selected is not a valid choice. Allowed: none, by_interval, to_day_of_week, to_day_of_month.',
      ],
      ['to_day_of_week without the day', { delayed_first_payment: 'to_day_of_week' }, 'first_payment_day_of_week: This value should not be blank.'],
      ['to_day_of_week 8', { delayed_first_payment: 'to_day_of_week', first_payment_day_of_week: '8' }, 'first_payment_day_of_week: This value should be 7 or less.'],
      ['to_day_of_month 32', { delayed_first_payment: 'to_day_of_month', first_payment_day_of_month: '32' }, 'first_payment_day_of_month: This value should be 31 or less.'],
      [
        'by_interval without its unit',
        { delayed_first_payment: 'by_interval', first_payment_interval_length: '3' },
        'first_payment_interval_unit: This value should not be blank.',
      ],
      [
        'a span over 100 years',
        { interval_length: '1', interval_unit: 'year', payments_count: '101' },
        'payments_count: This value is too large: the schedule would run longer than 100 years.',
      ],
    ];
    for (const [label, overrides, message] of invalid) {
      it(`Given ${label}, when created, then "${message}"`, async () => {
        expectFieldErrors(await h().post(createFields(merchant, overrides)), message);
      });
    }

    it('Given delays, even empty, when created, then it is refused as deprecated before field errors', async () => {
      expectError(await h().post(createFields(merchant, { delays: '' })), DEPRECATED);
      expectError(await h().post(createFields(merchant, { delays: '3', name: undefined, interval_unit: 'hour' })), DEPRECATED);
    });

    it('Given delays as a multipart body, when created, then it is refused as deprecated', async () => {
      expectError(await h().postMultipart(createFields(merchant, { delays: '1' })), DEPRECATED);
    });

    it('Given a schedule_id that is not a UUID and a wrong hash, when created, then the UUID refusal comes first', async () => {
      expectError(await h().post(createFields(merchant, { schedule_id: 'plan-1', hash: WRONG_HASH, name: undefined })), NOT_A_UUID);
    });

    for (const action of ['create_schedule', 'Create_Schedule', 'SCHEDULE_INFO', 'CREATE_SCHEDULE ']) {
      it(`Given the action ${JSON.stringify(action)}, when posted, then 404 Route or parameters is not supported`, async () => {
        const res = await h().post(createFields(merchant, { action }));
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 0, error_message: 'Route or parameters is not supported' });
      });
    }
  });

  describe('UPDATE_SCHEDULE', () => {
    it('Given a name only, when updated, then only the name changes', async () => {
      const scheduleId = await created({ delayed_first_payment: 'to_day_of_month', first_payment_day_of_month: '15' });
      const before = (await info(h(), merchant, scheduleId)).body;

      const res = await update(scheduleId, { name: 'Renamed plan' });

      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ action: 'UPDATE_SCHEDULE', result: 'SUCCESS', schedule_id: scheduleId, name: 'Renamed plan' });
      const after = (await info(h(), merchant, scheduleId)).body;
      expect(after).to.deep.equal({ ...before, name: 'Renamed plan', updated_at: after.updated_at });
      expect(after.first_payment_day_of_month).to.equal(15);
    });

    it('Given the interval, count and a new delay, when updated, then those change and the name stays', async () => {
      const scheduleId = await created();

      const res = await update(scheduleId, {
        interval_length: '2',
        interval_unit: 'week',
        payments_count: '6',
        delayed_first_payment: 'to_day_of_week',
        first_payment_day_of_week: '1',
      });

      expect(res.body, res.text).to.include({ result: 'SUCCESS' });
      expect((await info(h(), merchant, scheduleId)).body).to.include({
        name: 'Monthly plan',
        interval_length: 2,
        interval_unit: 'week',
        payments_count: 6,
        delayed_first_payment: 'to_day_of_week',
        first_payment_day_of_week: 1,
        first_payment_interval_length: null,
      });
    });

    it('Given nothing to change, when updated, then it succeeds with the unchanged record', async () => {
      const scheduleId = await created();
      const before = (await info(h(), merchant, scheduleId)).body;

      const res = await update(scheduleId);

      expect(res.status, res.text).to.equal(200);
      const { action: _action, result: _result, ...record } = res.body;
      expect(record).to.deep.equal(before);
    });

    it('Given first_payment_* without delayed_first_payment, when updated, then delayed_first_payment is reported', async () => {
      const scheduleId = await created();
      expectFieldErrors(
        await update(scheduleId, { first_payment_day_of_week: '2' }),
        'delayed_first_payment: This value should not be blank when first_payment_* parameters are sent.',
      );
    });

    it('Given a change that makes the schedule run over 100 years, when updated, then payments_count is refused and nothing changes', async () => {
      const scheduleId = await created({ interval_unit: 'year', payments_count: '60' });

      expectFieldErrors(await update(scheduleId, { interval_length: '2' }), 'payments_count: This value is too large: the schedule would run longer than 100 years.');
      expect((await info(h(), merchant, scheduleId)).body.interval_length).to.equal(1);
    });

    it('Given delays, when updated, then it is refused as deprecated', async () => {
      const scheduleId = await created();
      expectError(await update(scheduleId, { delays: '2' }), DEPRECATED);
    });

    it('Given a non-UUID schedule_id and a wrong hash, when updated, then the UUID refusal comes before the hash', async () => {
      expectError(await h().post({ action: 'UPDATE_SCHEDULE', client_key: merchant.client_key, schedule_id: '12345', name: 'x', hash: WRONG_HASH }), NOT_A_UUID);
    });

    it('Given an unknown UUID and a wrong hash, when updated, then the hash is refused before existence', async () => {
      expectError(await update(randomUUID(), { hash: WRONG_HASH }), 'Hash is not valid');
    });

    it('Given an unknown UUID, when updated, then Schedule not found', async () => {
      expectError(await update(randomUUID(), { name: 'x' }), 'Schedule not found');
    });

    it('Given another merchant schedule, when updated, then Schedule not found and it is unchanged', async () => {
      const other = await h().createMerchant();
      const res = await h().post(createFields(other));
      const scheduleId: string = res.body.schedule_id;

      expectError(await update(scheduleId, { name: 'Taken over' }), 'Schedule not found');
      expect((await info(h(), other, scheduleId)).body.name).to.equal('Monthly plan');
    });

    it('Given no schedule_id, when updated, then schedule_id is a blank field', async () => {
      expectFieldErrors(await h().post({ action: 'UPDATE_SCHEDULE', client_key: merchant.client_key, hash: WRONG_HASH }), 'schedule_id: This value should not be blank.');
    });
  });

  describe('DELETE_SCHEDULE', () => {
    it('Given a schedule, when deleted, then it answers its id and it is gone for every later action', async () => {
      const scheduleId = await created();

      const res = await remove(scheduleId);

      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ action: 'DELETE_SCHEDULE', result: 'SUCCESS', schedule_id: scheduleId });
      expectError(await info(h(), merchant, scheduleId), 'Schedule not found');
      expectError(await update(scheduleId, { name: 'x' }), 'Schedule not found');
      expectError(await remove(scheduleId), 'Schedule not found');
    });

    it('Given a deleted schedule id, when created again, then the id stays used', async () => {
      const scheduleId = await created({ schedule_id: randomUUID() });
      await remove(scheduleId);
      expectFieldErrors(await h().post(createFields(merchant, { schedule_id: scheduleId })), 'schedule_id: This value is already used.');
    });

    it('Given a non-UUID schedule_id and a wrong hash, when deleted, then the UUID refusal comes first', async () => {
      expectError(await h().post({ action: 'DELETE_SCHEDULE', client_key: merchant.client_key, schedule_id: 'x', hash: WRONG_HASH }), NOT_A_UUID);
    });

    it('Given a wrong hash, when deleted, then Hash is not valid and the schedule stays', async () => {
      const scheduleId = await created();
      expectError(await remove(scheduleId, { hash: WRONG_HASH }), 'Hash is not valid');
      expect((await info(h(), merchant, scheduleId)).status).to.equal(200);
    });

    it('Given an unknown UUID or another merchant schedule, when deleted, then Schedule not found', async () => {
      expectError(await remove(randomUUID()), 'Schedule not found');
      const other = await h().createMerchant();
      const scheduleId: string = (await h().post(createFields(other))).body.schedule_id;
      expectError(await remove(scheduleId), 'Schedule not found');
      expect((await info(h(), other, scheduleId)).status).to.equal(200);
    });
  });
});
