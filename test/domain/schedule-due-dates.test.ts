/**
 * Given a schedule and the date a chain starts, then these due dates: examples of each delay kind and
 * of month ends, and properties checked against a separate model of the calendar written here.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import {
  addInterval,
  anchorChain,
  dayOfWeekOf,
  daysBetween,
  dueDateOf,
  dueDatesOf,
  INTERVAL_UNITS,
  isCalendarDate,
  type DelayedFirstPayment,
  type IntervalUnit,
  type ScheduleRule,
} from '../../src/domain/schedule/due-dates';

const RUNS = 300;

const rule = (
  intervalLength: number,
  intervalUnit: IntervalUnit,
  paymentsCount: number,
  delayedFirstPayment: DelayedFirstPayment = { kind: 'none' },
): ScheduleRule => ({ intervalLength, intervalUnit, paymentsCount, delayedFirstPayment });

const datesOf = (schedule: ScheduleRule, startDate: string, scheduleStartDate?: string | null) =>
  dueDatesOf(schedule, anchorChain(schedule, startDate, scheduleStartDate));

// Generators: any day of 2000..2100, with month ends and 29 Februaries drawn often.

const FIRST_DAY = modelDayNumber({ y: 2000, m: 1, d: 1 });
const LAST_DAY = modelDayNumber({ y: 2100, m: 12, d: 31 });

const anyStartDate = fc.oneof(
  fc.integer({ min: FIRST_DAY, max: LAST_DAY }).map((jdn) => formatYmd(modelFromDayNumber(jdn))),
  fc
    .record({ y: fc.integer({ min: 2000, max: 2100 }), m: fc.integer({ min: 1, max: 12 }) })
    .map(({ y, m }) => formatYmd({ y, m, d: modelMonthLength(y, m) })),
  fc.integer({ min: 0, max: 24 }).map((k) => `${2000 + 4 * k}-02-29`),
);

const unit = fc.constantFrom(...INTERVAL_UNITS);

/** Half of the days drawn are 28..31, where clamping to short months happens. */
const dayOfMonth = fc.oneof(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 28, max: 31 }));

const delay: fc.Arbitrary<DelayedFirstPayment> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('by_interval' as const), length: fc.integer({ min: 1, max: 60 }), unit }),
  fc.record({ kind: fc.constant('to_day_of_week' as const), dayOfWeek: fc.integer({ min: 1, max: 7 }) }),
  fc.record({ kind: fc.constant('to_day_of_month' as const), dayOfMonth }),
);

const scenario = fc
  .record({
    schedule: fc.record({
      intervalLength: fc.integer({ min: 1, max: 60 }),
      intervalUnit: unit,
      paymentsCount: fc.integer({ min: 1, max: 60 }),
      delayedFirstPayment: delay,
    }),
    startDate: anyStartDate,
    daysToScheduleStart: fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }),
  })
  .map(({ schedule, startDate: start, daysToScheduleStart }) => ({
    schedule,
    startDate: start,
    scheduleStartDate:
      daysToScheduleStart === null ? null : formatYmd(modelFromDayNumber(modelDayNumber(parseYmd(start)) + daysToScheduleStart)),
  }));

describe('schedule due dates', () => {
  describe('addInterval', () => {
    it('clamps a month end to the shorter target month and keeps the day in longer ones', () => {
      expect(addInterval('2026-01-31', 1, 'month')).to.equal('2026-02-28');
      expect(addInterval('2028-01-31', 1, 'month')).to.equal('2028-02-29');
      expect(addInterval('2026-01-31', 2, 'month')).to.equal('2026-03-31');
      expect(addInterval('2026-03-31', 1, 'month')).to.equal('2026-04-30');
      expect(addInterval('2026-11-30', 3, 'month')).to.equal('2027-02-28');
    });

    it('moves a year from 29 February to 28 February, and back to the 29th four years on', () => {
      expect(addInterval('2028-02-29', 1, 'year')).to.equal('2029-02-28');
      expect(addInterval('2028-02-29', 4, 'year')).to.equal('2032-02-29');
      expect(addInterval('2100-02-28', 0, 'year', 29)).to.equal('2100-02-28');
    });

    it('uses the anchor day instead of the date own day when given', () => {
      expect(addInterval('2026-02-28', 1, 'month', 31)).to.equal('2026-03-31');
      expect(addInterval('2026-02-28', 2, 'month', 31)).to.equal('2026-04-30');
      expect(addInterval('2026-04-30', 10, 'month', 29)).to.equal('2027-02-28');
    });

    it('adds days and weeks across month, year and leap-day boundaries', () => {
      expect(addInterval('2025-12-31', 1, 'day')).to.equal('2026-01-01');
      expect(addInterval('2028-02-28', 1, 'day')).to.equal('2028-02-29');
      expect(addInterval('2028-02-25', 1, 'week')).to.equal('2028-03-03');
      expect(addInterval('2026-02-25', 1, 'week')).to.equal('2026-03-04');
      expect(addInterval('2026-12-15', 1, 'month')).to.equal('2027-01-15');
    });

    it('refuses a malformed date, a fractional length, a bad anchor day and a result past 9999', () => {
      expect(() => addInterval('2026-02-30', 1, 'day')).to.throw(RangeError);
      expect(() => addInterval('2026-2-3', 1, 'day')).to.throw(RangeError);
      expect(() => addInterval('2026-02-03', 1.5, 'day')).to.throw(RangeError);
      expect(() => addInterval('2026-02-03', 1, 'month', 32)).to.throw(RangeError);
      expect(() => addInterval('2026-02-03', 1, 'fortnight' as IntervalUnit)).to.throw(RangeError);
      expect(() => addInterval('9999-12-31', 1, 'day')).to.throw(RangeError);
      expect(() => addInterval('9999-12-31', 1, 'month')).to.throw(RangeError);
    });
  });

  describe('delayed_first_payment none', () => {
    it('given a monthly chain started on the 31st, then it is charged on each month last day without drifting', () => {
      expect(datesOf(rule(1, 'month', 6), '2026-01-31')).to.deep.equal([
        '2026-02-28',
        '2026-03-31',
        '2026-04-30',
        '2026-05-31',
        '2026-06-30',
        '2026-07-31',
      ]);
    });

    it('given a yearly chain started on 29 February, then it is charged on the 28th except in leap years', () => {
      expect(datesOf(rule(1, 'year', 5), '2028-02-29')).to.deep.equal([
        '2029-02-28',
        '2030-02-28',
        '2031-02-28',
        '2032-02-29',
        '2033-02-28',
      ]);
    });

    it('given a chain counted in days or weeks, then each payment is that many days after the first', () => {
      expect(datesOf(rule(10, 'day', 3), '2026-03-01')).to.deep.equal(['2026-03-11', '2026-03-21', '2026-03-31']);
      expect(datesOf(rule(2, 'week', 3), '2028-02-15')).to.deep.equal(['2028-02-29', '2028-03-14', '2028-03-28']);
    });

    it('records the start day as the anchor day', () => {
      expect(anchorChain(rule(1, 'month', 3), '2026-01-31')).to.deep.equal({ firstDueDate: '2026-02-28', anchorDay: 31 });
    });
  });

  describe('delayed_first_payment by_interval', () => {
    it('given a delay in days before a monthly chain, then later payments keep the first due date day', () => {
      const schedule = rule(1, 'month', 4, { kind: 'by_interval', length: 10, unit: 'day' });
      expect(anchorChain(schedule, '2026-01-21')).to.deep.equal({ firstDueDate: '2026-01-31', anchorDay: 31 });
      expect(datesOf(schedule, '2026-01-21')).to.deep.equal(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
    });

    it('given a delay in months before a weekly chain, then the delay uses its own unit', () => {
      const schedule = rule(1, 'week', 3, { kind: 'by_interval', length: 2, unit: 'month' });
      expect(datesOf(schedule, '2026-01-15')).to.deep.equal(['2026-03-15', '2026-03-22', '2026-03-29']);
    });

    it('given a one-month delay from the 31st, then the clamped first due date gives the anchor day', () => {
      const schedule = rule(1, 'month', 3, { kind: 'by_interval', length: 1, unit: 'month' });
      expect(datesOf(schedule, '2026-01-31')).to.deep.equal(['2026-02-28', '2026-03-28', '2026-04-28']);
    });
  });

  describe('delayed_first_payment to_day_of_week', () => {
    // 2026-01-01 is a Thursday (ISO 4).
    it('given a start already on that weekday, then the first payment is a week later', () => {
      const schedule = rule(1, 'week', 2, { kind: 'to_day_of_week', dayOfWeek: 4 });
      expect(datesOf(schedule, '2026-01-01')).to.deep.equal(['2026-01-08', '2026-01-15']);
    });

    it('given a start before that weekday, then the first payment is on its next occurrence', () => {
      expect(anchorChain(rule(1, 'month', 1, { kind: 'to_day_of_week', dayOfWeek: 5 }), '2026-01-01')).to.deep.equal({
        firstDueDate: '2026-01-02',
        anchorDay: 2,
      });
      expect(anchorChain(rule(1, 'month', 1, { kind: 'to_day_of_week', dayOfWeek: 1 }), '2026-01-01').firstDueDate).to.equal(
        '2026-01-05',
      );
      expect(anchorChain(rule(1, 'month', 1, { kind: 'to_day_of_week', dayOfWeek: 3 }), '2025-12-31').firstDueDate).to.equal(
        '2026-01-07',
      );
    });

    it('given a monthly chain, then later payments keep the day of month of the first one', () => {
      const schedule = rule(1, 'month', 3, { kind: 'to_day_of_week', dayOfWeek: 6 });
      expect(datesOf(schedule, '2026-01-29')).to.deep.equal(['2026-01-31', '2026-02-28', '2026-03-31']);
    });

    it('refuses a weekday outside 1..7', () => {
      expect(() => anchorChain(rule(1, 'week', 1, { kind: 'to_day_of_week', dayOfWeek: 0 }), '2026-01-01')).to.throw(RangeError);
      expect(() => anchorChain(rule(1, 'week', 1, { kind: 'to_day_of_week', dayOfWeek: 8 }), '2026-01-01')).to.throw(RangeError);
    });
  });

  describe('delayed_first_payment to_day_of_month', () => {
    const onDay = (dayOfMonth: number, count = 1) => rule(1, 'month', count, { kind: 'to_day_of_month', dayOfMonth });

    it('given the day already passed this month, then the first payment is on it next month', () => {
      expect(datesOf(onDay(15), '2026-01-20')).to.deep.equal(['2026-02-15']);
    });

    it('given the day is today, then the first payment is on it next month', () => {
      expect(datesOf(onDay(20), '2026-01-20')).to.deep.equal(['2026-02-20']);
    });

    it('given the day is later this month, then the first payment is on it this month', () => {
      expect(datesOf(onDay(25), '2026-01-20')).to.deep.equal(['2026-01-25']);
    });

    it('given the 31st, then the chain is charged on the last day of short months and the 31st of long ones', () => {
      expect(anchorChain(onDay(31), '2026-02-10')).to.deep.equal({ firstDueDate: '2026-02-28', anchorDay: 31 });
      expect(datesOf(onDay(31, 4), '2026-02-10')).to.deep.equal(['2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
    });

    it('given a start on a short month last day, then the clamped day this month counts as passed', () => {
      expect(datesOf(onDay(31), '2026-02-28')).to.deep.equal(['2026-03-31']);
      expect(datesOf(onDay(30), '2026-01-31')).to.deep.equal(['2026-02-28']);
      expect(datesOf(onDay(29), '2028-01-31')).to.deep.equal(['2028-02-29']);
    });

    it('given a yearly chain on the 29th from February of a leap year, then February payments clamp', () => {
      const schedule = rule(1, 'year', 3, { kind: 'to_day_of_month', dayOfMonth: 29 });
      expect(datesOf(schedule, '2028-02-10')).to.deep.equal(['2028-02-29', '2029-02-28', '2030-02-28']);
    });

    it('refuses a day outside 1..31', () => {
      expect(() => anchorChain(onDay(0), '2026-01-01')).to.throw(RangeError);
      expect(() => anchorChain(onDay(32), '2026-01-01')).to.throw(RangeError);
    });
  });

  describe('schedule_start_date', () => {
    it('given a schedule_start_date, then it is the first payment whatever the delay, and gives the anchor day', () => {
      const schedule = rule(1, 'month', 3, { kind: 'to_day_of_month', dayOfMonth: 1 });
      expect(anchorChain(schedule, '2026-01-20', '2026-03-31')).to.deep.equal({ firstDueDate: '2026-03-31', anchorDay: 31 });
      expect(datesOf(schedule, '2026-01-20', '2026-03-31')).to.deep.equal(['2026-03-31', '2026-04-30', '2026-05-31']);
    });

    it('given a schedule_start_date on 29 February of a yearly chain, then later years clamp to the 28th', () => {
      expect(datesOf(rule(1, 'year', 2), '2028-01-05', '2028-02-29')).to.deep.equal(['2028-02-29', '2029-02-28']);
    });

    it('given no schedule_start_date (null), then the delay applies', () => {
      expect(datesOf(rule(1, 'month', 1, { kind: 'to_day_of_month', dayOfMonth: 1 }), '2026-01-20', null)).to.deep.equal([
        '2026-02-01',
      ]);
    });

    it('refuses a malformed schedule_start_date', () => {
      expect(() => anchorChain(rule(1, 'month', 1), '2026-01-20', '2026-02-29')).to.throw(RangeError);
    });
  });

  describe('dueDateOf', () => {
    const schedule = rule(1, 'month', 3);
    const anchor = { firstDueDate: '2026-02-28', anchorDay: 31 };

    it('gives the first due date for sequence 1 and counts later ones from it', () => {
      expect(dueDateOf(schedule, anchor, 1)).to.equal('2026-02-28');
      expect(dueDateOf(schedule, anchor, 2)).to.equal('2026-03-31');
      expect(dueDateOf(schedule, anchor, 13)).to.equal('2027-02-28');
    });

    it('refuses a sequence below 1 or not whole', () => {
      for (const sequence of [0, -1, 1.5, Number.NaN]) {
        expect(() => dueDateOf(schedule, anchor, sequence), String(sequence)).to.throw(RangeError);
      }
    });

    it('refuses an interval length below 1 and a payments count below 1', () => {
      expect(() => dueDateOf(rule(0, 'month', 3), anchor, 2)).to.throw(RangeError);
      expect(() => dueDatesOf(rule(1, 'month', 0), anchor)).to.throw(RangeError);
    });
  });

  describe('calendar helpers', () => {
    it('accepts only strict YYYY-MM-DD dates that exist within 1970..9999', () => {
      for (const date of ['2024-02-29', '2026-04-30', '1970-01-01', '9999-12-31']) expect(isCalendarDate(date), date).to.equal(true);
      const refused = [
        '2025-02-29',
        '2100-02-29',
        '2026-04-31',
        '2026-13-01',
        '2026-00-10',
        '2026-01-00',
        '2026-4-01',
        ' 2026-04-01',
        '2026-04-01T00:00:00Z',
        '20260401',
        '1969-12-31',
        '10000-01-01',
        '',
      ];
      for (const date of refused) expect(isCalendarDate(date), date).to.equal(false);
    });

    it('counts whole days between two dates, negative when going back', () => {
      expect(daysBetween('2028-02-28', '2028-03-01')).to.equal(2);
      expect(daysBetween('2026-02-28', '2026-03-01')).to.equal(1);
      expect(daysBetween('2026-03-01', '2026-01-01')).to.equal(-59);
      expect(daysBetween('2026-01-01', '2026-01-01')).to.equal(0);
    });

    it('names the ISO weekday', () => {
      expect(dayOfWeekOf('1970-01-01')).to.equal(4);
      expect(dayOfWeekOf('2026-01-05')).to.equal(1);
      expect(dayOfWeekOf('2026-01-04')).to.equal(7);
      expect(dayOfWeekOf('2000-02-29')).to.equal(2);
    });
  });

  describe('properties against a separate calendar model', () => {
    it('due dates match the model', () => {
      fc.assert(
        fc.property(scenario, ({ schedule, startDate, scheduleStartDate }) => {
          expect(datesOf(schedule, startDate, scheduleStartDate)).to.deep.equal(modelDueDates(schedule, startDate, scheduleStartDate));
        }),
        { numRuns: RUNS },
      );
    });

    it('there are paymentsCount dates, strictly increasing, the first after the start, each a real date', () => {
      fc.assert(
        fc.property(scenario, ({ schedule, startDate, scheduleStartDate }) => {
          const dates = datesOf(schedule, startDate, scheduleStartDate);
          expect(dates).to.have.length(schedule.paymentsCount);
          const days = dates.map((date) => modelDayNumber(parseYmd(date)));
          expect(days[0]).to.be.greaterThan(modelDayNumber(parseYmd(startDate)));
          for (let i = 1; i < days.length; i++) expect(days[i], dates[i]).to.be.greaterThan(days[i - 1]);
          for (const date of dates) expect(modelIsRealDate(date), date).to.equal(true);
        }),
        { numRuns: RUNS },
      );
    });

    it('a monthly or yearly chain on day D of the month is charged on min(D, days in the month)', () => {
      const onDayOfMonth = fc.record({
        schedule: fc.record({
          intervalLength: fc.integer({ min: 1, max: 60 }),
          intervalUnit: fc.constantFrom<IntervalUnit>('month', 'year'),
          paymentsCount: fc.integer({ min: 1, max: 60 }),
          delayedFirstPayment: fc.record({ kind: fc.constant('to_day_of_month' as const), dayOfMonth }),
        }),
        startDate: anyStartDate,
      });
      fc.assert(
        fc.property(onDayOfMonth, ({ schedule, startDate: start }) => {
          const wanted = schedule.delayedFirstPayment.dayOfMonth;
          for (const date of datesOf(schedule, start)) {
            const { y, m, d } = parseYmd(date);
            expect(d, date).to.equal(Math.min(wanted, modelMonthLength(y, m)));
          }
        }),
        { numRuns: RUNS },
      );
    });

    it('dueDateOf agrees with dueDatesOf for every sequence', () => {
      fc.assert(
        fc.property(scenario, ({ schedule, startDate: start, scheduleStartDate }) => {
          const anchor = anchorChain(schedule, start, scheduleStartDate);
          const dates = dueDatesOf(schedule, anchor);
          expect(dueDateOf(schedule, anchor, 1)).to.equal(anchor.firstDueDate);
          dates.forEach((date, i) => expect(dueDateOf(schedule, anchor, i + 1)).to.equal(date));
        }),
        { numRuns: RUNS },
      );
    });

    it('days added are days between, and weekdays follow the model', () => {
      fc.assert(
        fc.property(anyStartDate, fc.integer({ min: -3000, max: 3000 }), (start, days) => {
          const later = addInterval(start, days, 'day');
          expect(daysBetween(start, later)).to.equal(days);
          expect(later).to.equal(formatYmd(modelFromDayNumber(modelDayNumber(parseYmd(start)) + days)));
          expect(dayOfWeekOf(later)).to.equal(modelIsoWeekday(modelDayNumber(parseYmd(later))));
          expect(isCalendarDate(later)).to.equal(true);
        }),
        { numRuns: RUNS },
      );
    });
  });
});

// The model: Julian day numbers by integer formulas, months as year * 12 + month counters, and the
// delays found by walking forward one day at a time.

interface Ymd {
  y: number;
  m: number;
  d: number;
}

function parseYmd(date: string): Ymd {
  const [y, m, d] = date.split('-').map(Number);
  return { y, m, d };
}

function formatYmd({ y, m, d }: Ymd): string {
  return `${y}`.padStart(4, '0') + '-' + `${m}`.padStart(2, '0') + '-' + `${d}`.padStart(2, '0');
}

/** Julian day number (proleptic Gregorian). */
function modelDayNumber({ y, m, d }: Ymd): number {
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - Math.floor(yy / 100) + Math.floor(yy / 400) - 32045;
}

function modelFromDayNumber(jdn: number): Ymd {
  const a = jdn + 32044;
  const b = Math.floor((4 * a + 3) / 146097);
  const c = a - Math.floor((146097 * b) / 4);
  const d = Math.floor((4 * c + 3) / 1461);
  const e = c - Math.floor((1461 * d) / 4);
  const m = Math.floor((5 * e + 2) / 153);
  return {
    y: 100 * b + d - 4800 + Math.floor(m / 10),
    m: m + 3 - 12 * Math.floor(m / 10),
    d: e - Math.floor((153 * m + 2) / 5) + 1,
  };
}

/** Day 0 of a month is the last day of the one before. */
function modelMonthLength(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Julian day 0 was a Monday. */
function modelIsoWeekday(jdn: number): number {
  return (jdn % 7) + 1;
}

function modelIsRealDate(date: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && formatYmd(modelFromDayNumber(modelDayNumber(parseYmd(date)))) === date;
}

function modelShift(from: Ymd, count: number, unit: IntervalUnit, anchorDay: number): Ymd {
  if (unit === 'day' || unit === 'week') return modelFromDayNumber(modelDayNumber(from) + count * (unit === 'week' ? 7 : 1));
  const counter = from.y * 12 + (from.m - 1) + count * (unit === 'year' ? 12 : 1);
  const y = Math.floor(counter / 12);
  const m = (counter % 12) + 1;
  return { y, m, d: Math.min(anchorDay, modelMonthLength(y, m)) };
}

function modelWalkAfter(start: Ymd, found: (date: Ymd, jdn: number) => boolean): Ymd {
  for (let jdn = modelDayNumber(start) + 1; ; jdn++) {
    const date = modelFromDayNumber(jdn);
    if (found(date, jdn)) return date;
  }
}

function modelDueDates(schedule: ScheduleRule, startDate: string, scheduleStartDate: string | null): string[] {
  const start = parseYmd(startDate);
  const delay = schedule.delayedFirstPayment;
  let first: Ymd;
  let anchorDay: number;
  if (scheduleStartDate !== null) {
    first = parseYmd(scheduleStartDate);
    anchorDay = first.d;
  } else if (delay.kind === 'none') {
    first = modelShift(start, schedule.intervalLength, schedule.intervalUnit, start.d);
    anchorDay = start.d;
  } else if (delay.kind === 'by_interval') {
    first = modelShift(start, delay.length, delay.unit, start.d);
    anchorDay = first.d;
  } else if (delay.kind === 'to_day_of_week') {
    first = modelWalkAfter(start, (_, jdn) => modelIsoWeekday(jdn) === delay.dayOfWeek);
    anchorDay = first.d;
  } else {
    first = modelWalkAfter(start, (date) => date.d === Math.min(delay.dayOfMonth, modelMonthLength(date.y, date.m)));
    anchorDay = delay.dayOfMonth;
  }
  return Array.from({ length: schedule.paymentsCount }, (_, i) =>
    formatYmd(i === 0 ? first : modelShift(first, i * schedule.intervalLength, schedule.intervalUnit, anchorDay)),
  );
}
