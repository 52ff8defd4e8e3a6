/**
 * A session request, once its schema passed: the rules that need computation or depend on the
 * operation, then the NewSession the CheckoutService records. Field names are the spec's.
 */
import type { NewSession } from '../../application/checkout/checkout-service';
import type { LinkTarget, SessionAddress, SessionCustomer, SessionPayee, SessionSchedule } from '../../domain/checkout/session-events';
import { isCurrency, parseAmount } from '../../domain/money';
import { isCalendarDate } from '../../domain/schedule/due-dates';
import { cardParameterProblems } from '../../domain/checkout/card-parameters';
import type { CheckoutOperation } from '../../domain/payment/events';
import { errors, type FieldError } from '../errors';
import type { JsonBody } from './merchant-request';

/** What a session offers, and what is wrong with the `methods` and `parameters.<method_id>` it asked for. */
export interface MethodChoice {
  methods: string[];
  problems: FieldError[];
}

/** Decides a session's methods, given its order's amount in minor units (null when the amount is not valid). */
export type ChooseMethods = (amount: number | null) => MethodChoice;

export const DEFAULT_SESSION_EXPIRY_MINUTES = 60;

const CREDIT_ONLY = ['card_token', 'payee_first_name', 'payee_last_name', 'payee', 'payee_billing_address'] as const;

/** They attach a schedule to the chain a payment starts, so they mean nothing without one. */
const SCHEDULE_FIELDS = ['schedule_id', 'schedule_start_date', 'payment_schedule_amount'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

export interface CheckedOrder {
  number: string;
  amount: number;
  amountText: string;
  currency: string;
  description: string;
}

/** Currency and amount of an order, as field errors named `<prefix>currency` and `<prefix>amount`. */
export function checkOrderMoney(
  currency: string,
  amountText: string,
  names: { currency: string; amount: string },
  problems: FieldError[],
): number | null {
  if (!isCurrency(currency)) {
    problems.push(errors.field(names.currency, 'This value is not a valid currency.'));
    return null;
  }
  const parsed = parseAmount(amountText, currency);
  if (!parsed.ok) {
    problems.push(errors.field(names.amount, parsed.reason));
    return null;
  }
  return parsed.minor;
}

/**
 * Rules of the schedule fields that need no currency (sessions and recurring requests): the
 * others need `schedule_id`, and a first scheduled payment can only be charged after today.
 */
export function scheduleFieldProblems(body: JsonBody, today: string): FieldError[] {
  const b = body as Json;
  const problems: FieldError[] = [];
  if ((b.schedule_start_date !== undefined || b.payment_schedule_amount !== undefined) && b.schedule_id === undefined) {
    problems.push(errors.field('schedule_id', 'This value should not be blank.'));
  }
  const start = b.schedule_start_date;
  if (typeof start === 'string' && isCalendarDate(start) && start <= today) {
    problems.push(errors.field('schedule_start_date', 'This value should be a date after today.'));
  }
  return problems;
}

/** `payment_schedule_amount` in the chain's currency; a field error when it is not a positive amount. */
export function scheduleAmountOf(text: string, currency: string, problems: FieldError[]): { minor: number; text: string } | null {
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) {
    problems.push(errors.field('payment_schedule_amount', parsed.reason));
    return null;
  }
  // Zero is for a card check that starts a chain, never for the charges that follow it.
  if (parsed.minor === 0) {
    problems.push(errors.field('payment_schedule_amount', 'This value should be greater than 0.'));
    return null;
  }
  return { minor: parsed.minor, text };
}

/**
 * Rules the schema cannot express. Returns the order with its amount in minor units and the methods
 * the session offers (`chooseMethods`, which also checks `methods` and `parameters.<method_id>`), or
 * throws `Request data is invalid.` with every problem found. `today` is the gateway's UTC date.
 */
export function checkSessionFields(body: JsonBody, today: string, chooseMethods: ChooseMethods): { order: CheckedOrder; methods: string[] } {
  const b = body as Json;
  const problems: FieldError[] = [];
  const order = b.order as Json;
  const minor = checkOrderMoney(order.currency, order.amount, { currency: 'order.currency', amount: 'order.amount' }, problems);
  const choice = chooseMethods(minor);
  problems.push(...choice.problems);
  const operation = b.operation as CheckoutOperation;
  if (b.auth === true && operation !== 'purchase') {
    problems.push(errors.field('auth', 'This field is only accepted with operation purchase.'));
  }
  if (operation !== 'credit') {
    for (const name of CREDIT_ONLY) {
      if (b[name] !== undefined) problems.push(errors.field(name, 'This field is only accepted with operation credit.'));
    }
  }
  // A payout pays the card holder: there is no chain to charge later.
  if (b.recurring_init === true && operation === 'credit') {
    problems.push(errors.field('recurring_init', 'This field is only accepted with operation purchase or debit.'));
  } else if (b.recurring_init !== true && SCHEDULE_FIELDS.some((name) => b[name] !== undefined)) {
    problems.push(errors.field('recurring_init', 'This value should be true when schedule_id, schedule_start_date or payment_schedule_amount is sent.'));
  }
  problems.push(...scheduleFieldProblems(body, today));
  // The `card` key against the spec's catalogue; other method ids' sets are their methods' own.
  for (const p of cardParameterProblems(b.parameters, operation)) problems.push(errors.field(p.field, p.message));
  if (b.payment_schedule_amount !== undefined && isCurrency(order.currency)) {
    scheduleAmountOf(b.payment_schedule_amount, order.currency, problems);
  }
  if (problems.length || minor === null) throw errors.invalid(problems);
  return {
    order: { number: order.number, amount: minor, amountText: order.amount, currency: order.currency, description: order.description },
    methods: choice.methods,
  };
}

function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

function addressOf(a: Json | undefined): SessionAddress {
  if (!a) return {};
  return compact({
    country: typeof a.country === 'string' ? a.country.toUpperCase() : undefined,
    state: a.state,
    city: a.city,
    address: a.address,
    zip: a.zip,
    phone: a.phone,
    houseNumber: a.house_number,
    district: a.district,
  });
}

function payeeOf(b: Json): SessionPayee | null {
  const p = b.payee;
  const details: Json = typeof p === 'string' ? { name: p } : (p ?? {});
  const payee = compact<SessionPayee>({
    // The flat fields are the spec's own: they win over the same detail inside `payee`.
    firstName: b.payee_first_name ?? details.first_name,
    lastName: b.payee_last_name ?? details.last_name,
    name: details.name,
    billingAddress: b.payee_billing_address ? addressOf(b.payee_billing_address) : undefined,
  });
  return Object.keys(payee).length ? payee : null;
}

function scheduleOf(b: Json): SessionSchedule | null {
  if (b.schedule_id === undefined) return null;
  return compact<SessionSchedule>({ scheduleId: b.schedule_id, startDate: b.schedule_start_date, paymentAmountText: b.payment_schedule_amount });
}

/** `hostedFields`: created by `/session/token`, where `customer.ip` is accepted. `methods`: what the session offers. */
export function newSessionOf(body: JsonBody, merchantId: string, order: CheckedOrder, methods: string[], hostedFields: boolean): NewSession {
  const b = body as Json;
  const operation = b.operation as CheckoutOperation;
  const c: Json = b.customer ?? {};
  return {
    merchantId,
    operation,
    auth: operation === 'purchase' && b.auth === true,
    order,
    urls: {
      success: b.success_url ?? null,
      cancel: b.cancel_url ?? null,
      expiry: b.expiry_url ?? null,
      error: b.error_url ?? null,
      return: b.return_url ?? null,
    },
    urlTarget: (b.url_target as LinkTarget | undefined) ?? null,
    methods,
    parameters: b.parameters ?? null,
    customer: compact<SessionCustomer>({ name: c.name, email: c.email, birthDate: c.birth_date, ip: hostedFields ? c.ip : undefined }),
    billingAddress: addressOf(b.billing_address),
    customData: b.custom_data ?? null,
    notificationUrl: b.notification_url ?? null,
    recurringInit: b.recurring_init === true,
    reqToken: b.req_token === true,
    vatCalc: b.vat_calc === true,
    schedule: scheduleOf(b),
    cardToken: operation === 'credit' ? (b.card_token ?? null) : null,
    payee: operation === 'credit' ? payeeOf(b) : null,
    hostedFields,
    expiryMinutes: b.session_expiry ?? DEFAULT_SESSION_EXPIRY_MINUTES,
  };
}

/** Schedule values are echoed in the session response (spec, session request fields). */
export function scheduleEcho(schedule: SessionSchedule | null): Record<string, string> {
  if (!schedule) return {};
  const echo: Record<string, string> = { schedule_id: schedule.scheduleId };
  if (schedule.startDate) echo.schedule_start_date = schedule.startDate;
  if (schedule.paymentAmountText) echo.payment_schedule_amount = schedule.paymentAmountText;
  return echo;
}
