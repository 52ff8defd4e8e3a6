/**
 * The due dates of a recurring chain that follows a schedule. Dates are calendar dates 'YYYY-MM-DD'
 * in UTC; local time never enters, so a chain is charged on the same dates wherever the gateway runs.
 *
 * Decided rules:
 * 1. Adding an interval: `day` adds days, `week` adds 7 days per week. `month` moves the month and
 *    `year` moves it by 12; the day becomes min(anchor day, days in the target month), where the
 *    anchor day defaults to the date's own day. So Jan 31 + 1 month = Feb 28 (Feb 29 in a leap
 *    year), Feb 29 + 1 year = Feb 28, and Jan 31 + 2 months = Mar 31.
 * 2. Where a chain starts (startDate = the date of its initial payment):
 *    - none: one schedule interval after the start; the anchor day is the start's day, so a chain
 *      begun on the 31st is charged on the last day of short months and on the 31st of long ones;
 *    - by_interval: its own length and unit after the start; anchored on the first due date's day;
 *    - to_day_of_week: the next such ISO weekday strictly after the start (1 to 7 days later);
 *      anchored on the first due date's day;
 *    - to_day_of_month: that day (clamped to the month's length) in the start's month when it is
 *      later than the start, otherwise in the next month; anchored on the requested day itself;
 *    - a schedule_start_date overrides the delay: it is the first due date and gives the anchor
 *      day (the caller has checked it is after the start).
 * 3. Payment n is the first due date plus (n - 1) intervals, always counted from the first payment
 *    and never from the previous one, so month-end clamping does not drift (Jan 31, Feb 28, Mar 31).
 * 4. Supported dates run from 1970-01-01 to 9999-12-31; a malformed date, a date outside that span,
 *    a result outside it or an invalid rule parameter is a RangeError.
 */

export type IntervalUnit = 'day' | 'week' | 'month' | 'year';
export const INTERVAL_UNITS: readonly IntervalUnit[] = ['day', 'week', 'month', 'year'];

export type DelayedFirstPayment =
  | { kind: 'none' }
  | { kind: 'by_interval'; length: number; unit: IntervalUnit }
  | { kind: 'to_day_of_week'; dayOfWeek: number } // ISO: 1 = Monday ... 7 = Sunday
  | { kind: 'to_day_of_month'; dayOfMonth: number }; // 1..31

export interface ScheduleRule {
  intervalLength: number;
  intervalUnit: IntervalUnit;
  paymentsCount: number;
  delayedFirstPayment: DelayedFirstPayment;
}

/** Where a chain's due dates are counted from: recorded once, when the chain starts. */
export interface ChainAnchor {
  firstDueDate: string;
  anchorDay: number;
}

interface CalendarDate {
  year: number;
  month: number; // 1..12
  day: number;
}

const MS_PER_DAY = 86_400_000;
const FIRST_YEAR = 1970;
const LAST_YEAR = 9999;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const LAST_DAY_NUMBER = dayNumberOf({ year: LAST_YEAR, month: 12, day: 31 });

/** Strict 'YYYY-MM-DD' naming a day that exists, within the supported years. */
export function isCalendarDate(text: string): boolean {
  return parseDate(text) !== null;
}

export function addInterval(date: string, length: number, unit: IntervalUnit, anchorDay?: number): string {
  const start = toCalendarDate(date);
  requireInteger('interval length', length);
  if (anchorDay !== undefined) requireWithin('anchor day', anchorDay, 1, 31);
  switch (unit) {
    case 'day':
      return formatDayNumber(dayNumberOf(start) + length);
    case 'week':
      return formatDayNumber(dayNumberOf(start) + 7 * length);
    case 'month':
      return formatDate(addMonths(start, length, anchorDay ?? start.day));
    case 'year':
      return formatDate(addMonths(start, 12 * length, anchorDay ?? start.day));
    default:
      throw new RangeError(`unknown interval unit: ${String(unit)}`);
  }
}

export function anchorChain(rule: ScheduleRule, startDate: string, scheduleStartDate?: string | null): ChainAnchor {
  requireInterval(rule.intervalLength, rule.intervalUnit);
  const start = toCalendarDate(startDate);
  if (scheduleStartDate !== undefined && scheduleStartDate !== null) {
    const first = toCalendarDate(scheduleStartDate);
    return { firstDueDate: formatDate(first), anchorDay: first.day };
  }
  const delay = rule.delayedFirstPayment;
  switch (delay.kind) {
    case 'none':
      return { firstDueDate: addInterval(startDate, rule.intervalLength, rule.intervalUnit), anchorDay: start.day };
    case 'by_interval': {
      requireInterval(delay.length, delay.unit);
      return anchoredOnItsOwnDay(addInterval(startDate, delay.length, delay.unit));
    }
    case 'to_day_of_week': {
      requireWithin('day of week', delay.dayOfWeek, 1, 7);
      // A start already on that weekday waits a whole week: the delay always moves forward.
      const daysAhead = ((delay.dayOfWeek - isoWeekdayOf(dayNumberOf(start)) + 6) % 7) + 1;
      return anchoredOnItsOwnDay(formatDayNumber(dayNumberOf(start) + daysAhead));
    }
    case 'to_day_of_month': {
      requireWithin('day of month', delay.dayOfMonth, 1, 31);
      const thisMonth = addMonths(start, 0, delay.dayOfMonth);
      const first = thisMonth.day > start.day ? thisMonth : addMonths(start, 1, delay.dayOfMonth);
      return { firstDueDate: formatDate(first), anchorDay: delay.dayOfMonth };
    }
    default:
      throw new RangeError(`unknown delayed first payment: ${String((delay as { kind: unknown }).kind)}`);
  }
}

/** Payment number `sequence` (1-based) of a chain; 1 is the anchor's first due date. */
export function dueDateOf(
  rule: Pick<ScheduleRule, 'intervalLength' | 'intervalUnit'>,
  anchor: ChainAnchor,
  sequence: number,
): string {
  requireInterval(rule.intervalLength, rule.intervalUnit);
  if (!Number.isSafeInteger(sequence) || sequence < 1) {
    throw new RangeError(`payment sequence must be an integer from 1, got ${String(sequence)}`);
  }
  const first = toCalendarDate(anchor.firstDueDate);
  requireWithin('anchor day', anchor.anchorDay, 1, 31);
  if (sequence === 1) return formatDate(first);
  return addInterval(anchor.firstDueDate, (sequence - 1) * rule.intervalLength, rule.intervalUnit, anchor.anchorDay);
}

/** Every due date of the chain, payments 1..paymentsCount. */
export function dueDatesOf(rule: ScheduleRule, anchor: ChainAnchor): string[] {
  requireWithin('payments count', rule.paymentsCount, 1, Number.MAX_SAFE_INTEGER);
  const dates: string[] = [];
  for (let sequence = 1; sequence <= rule.paymentsCount; sequence++) dates.push(dueDateOf(rule, anchor, sequence));
  return dates;
}

/** `to` minus `from`, in whole days. */
export function daysBetween(from: string, to: string): number {
  return dayNumberOf(toCalendarDate(to)) - dayNumberOf(toCalendarDate(from));
}

/** ISO weekday: 1 = Monday ... 7 = Sunday. */
export function dayOfWeekOf(date: string): number {
  return isoWeekdayOf(dayNumberOf(toCalendarDate(date)));
}

function anchoredOnItsOwnDay(firstDueDate: string): ChainAnchor {
  return { firstDueDate, anchorDay: toCalendarDate(firstDueDate).day };
}

function addMonths(date: CalendarDate, months: number, anchorDay: number): CalendarDate {
  const monthIndex = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  requireSupportedYear(year);
  return { year, month, day: Math.min(anchorDay, daysInMonth(year, month)) };
}

function parseDate(text: string): CalendarDate | null {
  if (typeof text !== 'string') return null;
  const match = DATE_PATTERN.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12) return null;
  if (day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

function toCalendarDate(text: string): CalendarDate {
  const date = parseDate(text);
  if (date === null) throw new RangeError(`not a supported calendar date (YYYY-MM-DD, ${FIRST_YEAR}..${LAST_YEAR}): ${String(text)}`);
  return date;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days since 1970-01-01 (Date.UTC would misread years below 100, but none is supported). */
function dayNumberOf(date: CalendarDate): number {
  return Date.UTC(date.year, date.month - 1, date.day) / MS_PER_DAY;
}

function formatDayNumber(dayNumber: number): string {
  if (!Number.isSafeInteger(dayNumber) || dayNumber < 0 || dayNumber > LAST_DAY_NUMBER) {
    throw new RangeError(`date outside ${FIRST_YEAR}..${LAST_YEAR}`);
  }
  const moment = new Date(dayNumber * MS_PER_DAY);
  return formatDate({ year: moment.getUTCFullYear(), month: moment.getUTCMonth() + 1, day: moment.getUTCDate() });
}

function formatDate(date: CalendarDate): string {
  requireSupportedYear(date.year);
  return `${String(date.year).padStart(4, '0')}-${pad2(date.month)}-${pad2(date.day)}`;
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

function isoWeekdayOf(dayNumber: number): number {
  // 1970-01-01, day 0, was a Thursday (ISO 4).
  return ((((dayNumber + 3) % 7) + 7) % 7) + 1;
}

function requireSupportedYear(year: number): void {
  if (!Number.isSafeInteger(year) || year < FIRST_YEAR || year > LAST_YEAR) {
    throw new RangeError(`date outside ${FIRST_YEAR}..${LAST_YEAR}`);
  }
}

function requireInterval(length: number, unit: IntervalUnit): void {
  requireWithin('interval length', length, 1, Number.MAX_SAFE_INTEGER);
  if (!INTERVAL_UNITS.includes(unit)) throw new RangeError(`unknown interval unit: ${String(unit)}`);
}

function requireInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be an integer, got ${String(value)}`);
}

function requireWithin(name: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
}
