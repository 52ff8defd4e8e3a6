/**
 * The field rules of a payout request (`CREDIT2VIRTUAL`, docs/payouts.md#mobile-money-sb-momo-in-the-sandbox) beyond the shapes the
 * form schema and the method's catalogue entry check: the currency, the amount in its exponent and
 * within its bounds, and the rules that tie fields together (an operator of the currency's country,
 * a number of that operator). Each problem is `<field>: <message>`, answered together as
 * `100000 Request data is invalid.`
 *
 * Two kinds of payout method:
 * - `mobile_money` (sandbox `sb-momo`): one of the six currencies, `parameters[mobile_money_operator]`,
 *   `parameters[mobile_number]`, `parameters[customer_email]`, and the payee's name and email;
 * - `email` (sandbox `sb-payout-email`): any currency, a description of 5 to 200 characters, the
 *   payee's `parameters[Email]`, a security answer without spaces and the account's UUID.
 */
import { currencyExponent, isCurrency, parseAmount } from '../money';
import {
  MOBILE_MONEY_CURRENCIES,
  MOBILE_MONEY_OPERATORS,
  MOBILE_NUMBER_SHAPE,
  mobileMoneyOperator,
  numberMatchesOperator,
  operatorsOf,
  payoutBounds,
  payoutCountryOf,
} from './mobile-money';

export type PayoutScheme = 'mobile_money' | 'email';

export interface PayoutInput {
  scheme: PayoutScheme;
  currency: string;
  amountText: string;
  description?: string;
  parameters: Record<string, unknown>;
  payee: { firstName?: string; lastName?: string; email?: string };
  /** Parameters the method's catalogue entry already refused: their further rules are not repeated. */
  refused?: ReadonlySet<string>;
}

export interface PayoutCheck {
  problems: string[];
  /** Minor units, when the amount could be read. */
  amount: number | null;
}

/** The `email` format of the form schemas (ajv-formats' fast rule). */
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isEmailAddress = (value: string): boolean => value.length <= 254 && EMAIL.test(value);

const choice = (allowed: readonly string[]) => `The value you selected is not a valid choice. Allowed: ${allowed.join(', ')}.`;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** `order_amount` as minor units of `currency`, or the problem with it. */
function amountOf(amountText: string, currency: string, problems: string[]): number | null {
  if (!isCurrency(currency)) return null;
  const parsed = parseAmount(amountText, currency);
  if (!parsed.ok) {
    problems.push(`order_amount: ${parsed.reason}`);
    return null;
  }
  return parsed.minor;
}

/** Whole units of `currency` as minor units. */
const minorOf = (whole: number, currency: string): number => whole * 10 ** currencyExponent(currency)!;

export function payoutProblems(input: PayoutInput): PayoutCheck {
  return input.scheme === 'mobile_money' ? mobileMoneyProblems(input) : emailPayoutProblems(input);
}

function mobileMoneyProblems(input: PayoutInput): PayoutCheck {
  const problems: string[] = [];
  const refused = input.refused ?? new Set<string>();
  const currency = input.currency;
  const country = payoutCountryOf(currency);
  if (!country) problems.push(`order_currency: ${choice(MOBILE_MONEY_CURRENCIES)}`);
  const amount = amountOf(input.amountText, currency, problems);

  // An operator of the currency's country: the number and the bounds are that operator's.
  const slug = text(input.parameters.mobile_money_operator);
  let op = slug === undefined ? undefined : mobileMoneyOperator(slug);
  if (slug !== undefined && !refused.has('mobile_money_operator') && (!op || (country && op.currency !== currency))) {
    problems.push(`parameters[mobile_money_operator]: ${choice((country ? operatorsOf(currency) : MOBILE_MONEY_OPERATORS).map((o) => o.slug))}`);
    op = undefined;
  }
  if (op && !country) op = undefined;

  const number = text(input.parameters.mobile_number);
  if (number !== undefined && !refused.has('mobile_number')) {
    if (!MOBILE_NUMBER_SHAPE.test(number)) problems.push('parameters[mobile_number]: This value should contain digits only, with an optional leading +.');
    else if (op && !numberMatchesOperator(number, op)) problems.push(`parameters[mobile_number]: This value is not a number of ${op.slug}.`);
  }

  const email = text(input.parameters.customer_email);
  if (email !== undefined && !refused.has('customer_email') && !isEmailAddress(email)) {
    problems.push('parameters[customer_email]: This value is not a valid email address.');
  }

  if (amount !== null && country) {
    const bounds = op ? payoutBounds(op) : { min: country.min, max: country.max };
    if (amount < minorOf(bounds.min, currency) || amount > minorOf(bounds.max, currency)) {
      const whose = op?.bounds ? ` for ${op.slug}` : '';
      problems.push(`order_amount: This value should be between ${bounds.min} and ${bounds.max} ${currency}${whose}.`);
    }
  }

  // The payee is named in full (the spec lists them among the required fields).
  if (!input.payee.firstName) problems.push('payee_first_name: This value should not be blank.');
  if (!input.payee.lastName) problems.push('payee_last_name: This value should not be blank.');
  if (!input.payee.email) problems.push('payee_email: This value should not be blank.');
  return { problems, amount };
}

function emailPayoutProblems(input: PayoutInput): PayoutCheck {
  const problems: string[] = [];
  const refused = input.refused ?? new Set<string>();
  if (!isCurrency(input.currency)) problems.push('order_currency: This value is not a valid currency.');
  const amount = amountOf(input.amountText, input.currency, problems);
  if (amount === 0) problems.push('order_amount: This value should be greater than 0.');

  const description = input.description ?? '';
  if (description === '') problems.push('order_description: This value should not be blank.');
  else if (description.length < 5) problems.push('order_description: This value is too short. It should have 5 characters or more.');
  else if (description.length > 200) problems.push('order_description: This value is too long. It should have 200 characters or less.');

  const email = text(input.parameters.Email);
  if (email !== undefined && !refused.has('Email') && !isEmailAddress(email)) problems.push('parameters[Email]: This value is not a valid email address.');
  const answer = text(input.parameters.SecurityQuestionAnswer);
  if (answer !== undefined && !refused.has('SecurityQuestionAnswer') && /\s/.test(answer)) {
    problems.push('parameters[SecurityQuestionAnswer]: This value should not contain spaces.');
  }
  const account = text(input.parameters.account_uuid);
  if (account !== undefined && !refused.has('account_uuid') && !UUID.test(account)) problems.push('parameters[account_uuid]: This is not a valid UUID.');
  return { problems, amount };
}

/** Whose email decides a sandbox payout (docs/payouts.md#how-the-sandbox-decides): `customer_email`, or the email variant's `Email`. */
export function payoutDecidingEmail(scheme: PayoutScheme, parameters: Record<string, unknown>): string | undefined {
  return text(scheme === 'mobile_money' ? parameters.customer_email : parameters.Email);
}
