/**
 * The schedule field parser shared by S2S CARD (form strings) and Checkout (JSON): given a body,
 * when it is parsed for create, update or an operation on an existing schedule, then the rule it
 * yields or the refusals, in the decided order (delays, then a non-UUID id, then field errors).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ApiError } from '../../src/api/errors';
import {
  DELAYS_DEPRECATED_MESSAGE,
  NOT_A_UUID_MESSAGE,
  parseScheduleCreate,
  parseScheduleRef,
  parseScheduleUpdate,
  scheduleRecord,
  spanError,
  updatedRuleError,
  type FieldBody,
  type FieldSource,
  type Parsed,
} from '../../src/api/schedule-fields';
import type { ScheduleRule } from '../../src/domain/schedule/due-dates';
import type { ExistingSchedule } from '../../src/domain/schedule/schedule-state';

const ID = '3f2a4c1e-9b7d-4e8f-a1b2-c3d4e5f60718';
const SPAN_MESSAGE = 'payments_count: This value is too large: the schedule would run longer than 100 years.';

const monthly: FieldBody = { name: 'Monthly plan', interval_length: '1', interval_unit: 'month', payments_count: '12' };

function messagesOf<T>(parsed: Parsed<T>): string[] {
  expect(parsed.ok, 'expected field errors').to.equal(false);
  return parsed.ok ? [] : parsed.errors.map((e) => e.error_message);
}

function valueOf<T>(parsed: Parsed<T>): T {
  if (!parsed.ok) expect.fail(`expected a value, got ${JSON.stringify(parsed.errors)}`);
  return parsed.value;
}

function refusal(parse: () => unknown): ApiError {
  try {
    parse();
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    return error as ApiError;
  }
  return expect.fail('expected a refusal');
}

function expectRefusedWith(parse: () => unknown, message: string): void {
  const error = refusal(parse);
  expect(error.httpStatus).to.equal(400);
  expect(error.code).to.equal(100000);
  expect(error.message).to.equal(message);
  expect(error.errors ?? []).to.have.length(0);
}

describe('schedule fields', () => {
  describe('create', () => {
    it('Given form strings, when parsed, then the rule has integers and no first-payment delay', () => {
      expect(valueOf(parseScheduleCreate(monthly, 'form'))).to.deep.equal({
        name: 'Monthly plan',
        rule: { intervalLength: 1, intervalUnit: 'month', paymentsCount: 12, delayedFirstPayment: { kind: 'none' } },
      });
    });

    it('Given JSON integers or digit strings, when parsed, then both give the same rule', () => {
      const numbers = valueOf(parseScheduleCreate({ ...monthly, interval_length: 1, payments_count: 12 }, 'json'));
      const strings = valueOf(parseScheduleCreate(monthly, 'json'));
      expect(numbers).to.deep.equal(strings);
    });

    it('Given a JSON number on a form body (never sent by a form), when parsed, then it is not an integer', () => {
      expect(messagesOf(parseScheduleCreate({ ...monthly, payments_count: 12 }, 'form'))).to.deep.equal([
        'payments_count: This value should be of type integer.',
      ]);
    });

    it('Given a schedule_id in capitals, when parsed, then it is kept lowercased', () => {
      expect(valueOf(parseScheduleCreate({ ...monthly, schedule_id: ID.toUpperCase() }, 'form')).scheduleId).to.equal(ID);
    });

    it('Given nothing, when parsed, then every required field is reported at once', () => {
      expect(messagesOf(parseScheduleCreate({}, 'form'))).to.deep.equal([
        'name: This value should not be blank.',
        'interval_length: This value should not be blank.',
        'interval_unit: This value should not be blank.',
        'payments_count: This value should not be blank.',
      ]);
    });

    const invalid: [string, FieldBody, FieldSource, string][] = [
      ['an empty name', { name: '' }, 'form', 'name: This value should not be blank.'],
      ['a name of spaces', { name: '   ' }, 'form', 'name: This value should not be blank.'],
      ['a 256-character name', { name: 'n'.repeat(256) }, 'form', 'name: This value is too long. It should have 255 characters or less.'],
      ['a JSON number as name', { name: 7 }, 'json', 'name: This value should be of type string.'],
      ['a JSON null name', { name: null }, 'json', 'name: This value should not be blank.'],
      ['interval_length 0', { interval_length: '0' }, 'form', 'interval_length: This value should be 1 or more.'],
      ['interval_length -1', { interval_length: '-1' }, 'form', 'interval_length: This value should be 1 or more.'],
      ['interval_length 366', { interval_length: '366' }, 'form', 'interval_length: This value should be 365 or less.'],
      ['interval_length 1.5', { interval_length: '1.5' }, 'form', 'interval_length: This value should be of type integer.'],
      ['interval_length as JSON 1.5', { interval_length: 1.5 }, 'json', 'interval_length: This value should be of type integer.'],
      ['interval_length "abc"', { interval_length: 'abc' }, 'form', 'interval_length: This value should be of type integer.'],
      ['interval_length sent twice', { interval_length: ['1', '2'] }, 'form', 'interval_length: This value should be of type integer.'],
      ['interval_length as JSON true', { interval_length: true }, 'json', 'interval_length: This value should be of type integer.'],
      [
        'interval_unit "Month"',
        { interval_unit: 'Month' },
        'form',
        'interval_unit: The value you selected is not a valid choice. Allowed: day, week, month, year.',
      ],
      ['payments_count 0', { payments_count: '0' }, 'form', 'payments_count: This value should be 1 or more.'],
      ['payments_count 1001', { payments_count: '1001' }, 'form', 'payments_count: This value should be 1000 or less.'],
      [
        'delayed_first_payment "later"',
        { delayed_first_payment: 'later' },
        'form',
        'delayed_first_payment: The value you selected is not a valid choice. Allowed: none, by_interval, to_day_of_week, to_day_of_month.',
      ],
      ['an empty delayed_first_payment', { delayed_first_payment: '' }, 'form', 'delayed_first_payment: This value should not be blank.'],
    ];
    for (const [label, override, source, message] of invalid) {
      it(`Given ${label}, when parsed, then "${message}" is the only problem`, () => {
        expect(messagesOf(parseScheduleCreate({ ...monthly, ...override }, source))).to.deep.equal([message]);
      });
    }

    it('Given a 255-character name, when parsed, then it is accepted as sent', () => {
      expect(valueOf(parseScheduleCreate({ ...monthly, name: 'n'.repeat(255) }, 'form')).name).to.have.length(255);
    });

    describe('delayed_first_payment', () => {
      it('Given by_interval with its length and unit, when parsed, then the delay carries both', () => {
        const parsed = parseScheduleCreate(
          { ...monthly, delayed_first_payment: 'by_interval', first_payment_interval_length: '10', first_payment_interval_unit: 'day' },
          'form',
        );
        expect(valueOf(parsed).rule.delayedFirstPayment).to.deep.equal({ kind: 'by_interval', length: 10, unit: 'day' });
      });

      it('Given by_interval without its fields, when parsed, then both are reported', () => {
        expect(messagesOf(parseScheduleCreate({ ...monthly, delayed_first_payment: 'by_interval' }, 'form'))).to.deep.equal([
          'first_payment_interval_length: This value should not be blank.',
          'first_payment_interval_unit: This value should not be blank.',
        ]);
      });

      it('Given to_day_of_week (ISO, Monday = 1), when parsed, then 1..7 are accepted and 0 and 8 refused', () => {
        const withDay = (day: string) => parseScheduleCreate({ ...monthly, delayed_first_payment: 'to_day_of_week', first_payment_day_of_week: day }, 'form');
        expect(valueOf(withDay('1')).rule.delayedFirstPayment).to.deep.equal({ kind: 'to_day_of_week', dayOfWeek: 1 });
        expect(valueOf(withDay('7')).rule.delayedFirstPayment).to.deep.equal({ kind: 'to_day_of_week', dayOfWeek: 7 });
        expect(messagesOf(withDay('0'))).to.deep.equal(['first_payment_day_of_week: This value should be 1 or more.']);
        expect(messagesOf(withDay('8'))).to.deep.equal(['first_payment_day_of_week: This value should be 7 or less.']);
      });

      it('Given to_day_of_month, when parsed, then 1..31 are accepted, 32 refused and a missing day reported', () => {
        const withDay = (day?: string) => parseScheduleCreate({ ...monthly, delayed_first_payment: 'to_day_of_month', first_payment_day_of_month: day }, 'form');
        expect(valueOf(withDay('31')).rule.delayedFirstPayment).to.deep.equal({ kind: 'to_day_of_month', dayOfMonth: 31 });
        expect(messagesOf(withDay('32'))).to.deep.equal(['first_payment_day_of_month: This value should be 31 or less.']);
        expect(messagesOf(withDay(undefined))).to.deep.equal(['first_payment_day_of_month: This value should not be blank.']);
      });

      it('Given first_payment_* fields of another kind, even invalid ones, when parsed, then they are ignored', () => {
        const parsed = parseScheduleCreate(
          { ...monthly, delayed_first_payment: 'to_day_of_week', first_payment_day_of_week: '3', first_payment_day_of_month: '99', first_payment_interval_unit: 'x' },
          'form',
        );
        expect(valueOf(parsed).rule.delayedFirstPayment).to.deep.equal({ kind: 'to_day_of_week', dayOfWeek: 3 });
      });

      it('Given first_payment_* fields without delayed_first_payment, when a schedule is created, then they are ignored (none)', () => {
        expect(valueOf(parseScheduleCreate({ ...monthly, first_payment_day_of_week: '3' }, 'form')).rule.delayedFirstPayment).to.deep.equal({ kind: 'none' });
      });
    });

    describe('span limit (100 years; month = 30.4375 days, year = 365.25)', () => {
      const withRule = (interval_length: string, interval_unit: string, payments_count: string) =>
        parseScheduleCreate({ ...monthly, interval_length, interval_unit, payments_count }, 'form');

      it('Given exactly 100 years, when parsed, then it is accepted', () => {
        valueOf(withRule('1', 'year', '100'));
        valueOf(withRule('12', 'month', '100'));
        valueOf(withRule('1', 'month', '1000'));
      });

      it('Given more than 100 years, when parsed, then payments_count is refused', () => {
        expect(messagesOf(withRule('1', 'year', '101'))).to.deep.equal([SPAN_MESSAGE]);
        expect(messagesOf(withRule('365', 'day', '101'))).to.deep.equal([SPAN_MESSAGE]);
        expect(messagesOf(withRule('2', 'month', '1000'))).to.deep.equal([SPAN_MESSAGE]);
        expect(messagesOf(withRule('6', 'week', '1000'))).to.deep.equal([SPAN_MESSAGE]);
      });

      it('Given any rule, when its span is checked, then it is refused exactly when interval x count exceeds 36525 days', () => {
        const days = { day: 1, week: 7, month: 30.4375, year: 365.25 } as const;
        fc.assert(
          fc.property(
            fc.integer({ min: 1, max: 365 }),
            fc.constantFrom<keyof typeof days>('day', 'week', 'month', 'year'),
            fc.integer({ min: 1, max: 1000 }),
            (intervalLength, intervalUnit, paymentsCount) => {
              const refused = spanError({ intervalLength, intervalUnit, paymentsCount }) !== null;
              expect(refused).to.equal(intervalLength * days[intervalUnit] * paymentsCount > 36525);
            },
          ),
        );
      });
    });

    describe('refusals before field errors', () => {
      it('Given delays with any value, even empty or nested, when parsed, then the deprecation refusal comes first', () => {
        for (const body of [{ delays: '' }, { delays: '5' }, { delays: null }, { delays: { 0: '1' } }, { 'delays[]': ['1'] }]) {
          expectRefusedWith(() => parseScheduleCreate({ ...body, schedule_id: 'nope' }, 'json'), DELAYS_DEPRECATED_MESSAGE);
        }
      });

      it('Given a schedule_id that is not a UUID, when parsed, then the UUID refusal comes before missing fields', () => {
        for (const scheduleId of ['nope', '', 42, `${ID}x`, ID.replace(/-/g, '')]) {
          expectRefusedWith(() => parseScheduleCreate({ schedule_id: scheduleId }, 'json'), NOT_A_UUID_MESSAGE);
        }
      });

      it('Given a JSON null schedule_id on create, when parsed, then the gateway is left to choose one', () => {
        expect(valueOf(parseScheduleCreate({ ...monthly, schedule_id: null }, 'json'))).not.to.have.property('scheduleId');
      });
    });

    it('Given valid values from either source, when parsed, then form strings and JSON numbers agree', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 365 }),
          fc.constantFrom('day', 'week', 'month'),
          fc.integer({ min: 1, max: 100 }),
          fc.integer({ min: 1, max: 31 }),
          (length, unit, count, day) => {
            const form = { name: 'p', interval_length: String(length), interval_unit: unit, payments_count: String(count), delayed_first_payment: 'to_day_of_month', first_payment_day_of_month: String(day) };
            const json = { ...form, interval_length: length, payments_count: count, first_payment_day_of_month: day };
            const a = parseScheduleCreate(form, 'form');
            const b = parseScheduleCreate(json, 'json');
            expect(a).to.deep.equal(b);
          },
        ),
      );
    });
  });

  describe('update', () => {
    it('Given only a name, when parsed, then only the name changes', () => {
      expect(valueOf(parseScheduleUpdate({ schedule_id: ID, name: 'Renamed' }, 'form'))).to.deep.equal({ scheduleId: ID, changes: { name: 'Renamed' } });
    });

    it('Given nothing to change, when parsed, then the changes are empty', () => {
      expect(valueOf(parseScheduleUpdate({ schedule_id: ID }, 'form'))).to.deep.equal({ scheduleId: ID, changes: {} });
    });

    it('Given every rule field, when parsed, then each is a change', () => {
      const parsed = parseScheduleUpdate(
        { schedule_id: ID, interval_length: 2, interval_unit: 'week', payments_count: '5', delayed_first_payment: 'to_day_of_week', first_payment_day_of_week: 5 },
        'json',
      );
      expect(valueOf(parsed).changes).to.deep.equal({
        intervalLength: 2,
        intervalUnit: 'week',
        paymentsCount: 5,
        delayedFirstPayment: { kind: 'to_day_of_week', dayOfWeek: 5 },
      });
    });

    it('Given delayed_first_payment none, when parsed, then the delay is removed', () => {
      expect(valueOf(parseScheduleUpdate({ schedule_id: ID, delayed_first_payment: 'none' }, 'form')).changes).to.deep.equal({
        delayedFirstPayment: { kind: 'none' },
      });
    });

    it('Given first_payment_* without delayed_first_payment, when parsed, then delayed_first_payment is reported', () => {
      expect(messagesOf(parseScheduleUpdate({ schedule_id: ID, first_payment_day_of_month: '3' }, 'form'))).to.deep.equal([
        'delayed_first_payment: This value should not be blank when first_payment_* parameters are sent.',
      ]);
    });

    it('Given a sent but blank value, when parsed, then it is reported rather than ignored', () => {
      expect(messagesOf(parseScheduleUpdate({ schedule_id: ID, name: '', payments_count: '' }, 'form'))).to.deep.equal([
        'name: This value should not be blank.',
        'payments_count: This value should not be blank.',
      ]);
    });

    it('Given no schedule_id, when parsed, then it is reported with the other field errors', () => {
      expect(messagesOf(parseScheduleUpdate({ interval_unit: 'hour' }, 'form'))).to.deep.equal([
        'schedule_id: This value should not be blank.',
        'interval_unit: The value you selected is not a valid choice. Allowed: day, week, month, year.',
      ]);
    });

    it('Given delays or a non-UUID schedule_id, when parsed, then they are refused in that order', () => {
      expectRefusedWith(() => parseScheduleUpdate({ schedule_id: 'nope', delays: '1' }, 'form'), DELAYS_DEPRECATED_MESSAGE);
      expectRefusedWith(() => parseScheduleUpdate({ schedule_id: 'nope', name: '' }, 'form'), NOT_A_UUID_MESSAGE);
    });

    it('Given the whole span in one update, when parsed, then over 100 years is refused at once', () => {
      expect(messagesOf(parseScheduleUpdate({ schedule_id: ID, interval_length: '2', interval_unit: 'year', payments_count: '51' }, 'form'))).to.deep.equal([
        SPAN_MESSAGE,
      ]);
    });

    it('Given part of the span, when merged with the stored rule, then the merged span is checked', () => {
      const stored: ScheduleRule = { intervalLength: 1, intervalUnit: 'year', paymentsCount: 50, delayedFirstPayment: { kind: 'none' } };
      const changes = valueOf(parseScheduleUpdate({ schedule_id: ID, interval_length: '3' }, 'form')).changes;
      expect(updatedRuleError(stored, changes)?.error_message).to.equal(SPAN_MESSAGE);
      expect(updatedRuleError(stored, { name: 'x', paymentsCount: 100 })).to.equal(null);
    });
  });

  describe('an existing schedule by id', () => {
    it('Given a UUID, when parsed, then it is the lowercased id', () => {
      expect(valueOf(parseScheduleRef({ schedule_id: ID.toUpperCase() }))).to.equal(ID);
    });

    it('Given none, when parsed, then schedule_id is a blank field', () => {
      expect(messagesOf(parseScheduleRef({}))).to.deep.equal(['schedule_id: This value should not be blank.']);
    });

    it('Given a non-UUID, when parsed, then it is the UUID refusal', () => {
      expectRefusedWith(() => parseScheduleRef({ schedule_id: '123' }), NOT_A_UUID_MESSAGE);
    });

    it('Given delays on an operation that takes none, when parsed, then it is not looked at', () => {
      expect(valueOf(parseScheduleRef({ schedule_id: ID, delays: '1' }))).to.equal(ID);
    });
  });

  describe('record', () => {
    const schedule = (rule: Partial<ScheduleRule>, status: ExistingSchedule['status'] = 'active'): ExistingSchedule => ({
      exists: true,
      scheduleId: ID,
      merchantId: 'm-1',
      name: 'Plan',
      rule: { intervalLength: 1, intervalUnit: 'month', paymentsCount: 12, delayedFirstPayment: { kind: 'none' }, ...rule },
      status,
      pauses: [],
      detachedAt: null,
      createdAt: '2030-01-02T03:04:05.678Z',
      updatedAt: '2030-02-03T04:05:06.789Z',
    });

    it('Given a schedule without delay, when answered, then every first_payment_* field and delays are null', () => {
      expect(scheduleRecord(schedule({}))).to.deep.equal({
        schedule_id: ID,
        name: 'Plan',
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
        created_at: '2030-01-02 03:04:05',
        updated_at: '2030-02-03 04:05:06',
      });
    });

    it('Given each delay kind, when answered, then only its own first_payment_* fields are set', () => {
      expect(scheduleRecord(schedule({ delayedFirstPayment: { kind: 'by_interval', length: 2, unit: 'week' } }))).to.include({
        delayed_first_payment: 'by_interval',
        first_payment_interval_length: 2,
        first_payment_interval_unit: 'week',
        first_payment_day_of_week: null,
        first_payment_day_of_month: null,
      });
      expect(scheduleRecord(schedule({ delayedFirstPayment: { kind: 'to_day_of_week', dayOfWeek: 1 } }))).to.include({
        delayed_first_payment: 'to_day_of_week',
        first_payment_interval_length: null,
        first_payment_day_of_week: 1,
        first_payment_day_of_month: null,
      });
      expect(scheduleRecord(schedule({ delayedFirstPayment: { kind: 'to_day_of_month', dayOfMonth: 31 } }))).to.include({
        delayed_first_payment: 'to_day_of_month',
        first_payment_day_of_week: null,
        first_payment_day_of_month: 31,
      });
    });

    it('Given a paused schedule, when answered, then its status is paused', () => {
      expect(scheduleRecord(schedule({}, 'paused')).status).to.equal('paused');
    });
  });
});
