/**
 * Mobile-money payouts (`CREDIT2VIRTUAL`, docs/payouts.md#countries-operators-and-bounds): the six currencies they are paid in,
 * each the currency of one country, the operators of each country with the numbers they serve
 * (E.164 without `+`), and the amount bounds: an operator's own where the spec gives one, else
 * its country's (spec Limits, "Payout amount bounds"). Bounds are whole units of the currency
 * (XOF and XAF have no minor unit, so their bounds are already minor units).
 */

export interface PayoutCountry {
  /** ISO 3166-1 alpha-2. */
  country: string;
  name: string;
  currency: string;
  /** Whole units of the currency, inclusive. */
  min: number;
  max: number;
}

export interface MobileMoneyOperator {
  slug: string;
  currency: string;
  /** The whole number must match, E.164 digits without the leading `+`. */
  pattern: RegExp;
  /** The operator's own bounds, where they differ from its country's (whole units, inclusive). */
  bounds?: { min: number; max: number };
}

/** Spec Limits: Ghana, Kenya, Cote d'Ivoire, Cameroon, Tanzania, Egypt, in that order. */
export const PAYOUT_COUNTRIES: readonly PayoutCountry[] = [
  { country: 'GH', name: 'Ghana', currency: 'GHS', min: 1, max: 50_000 },
  { country: 'KE', name: 'Kenya', currency: 'KES', min: 10, max: 150_000 },
  { country: 'CI', name: "Cote d'Ivoire", currency: 'XOF', min: 2, max: 2_000_000 },
  { country: 'CM', name: 'Cameroon', currency: 'XAF', min: 2, max: 1_000_000 },
  { country: 'TZ', name: 'Tanzania', currency: 'TZS', min: 1_000, max: 30_000 },
  { country: 'EG', name: 'Egypt', currency: 'EGP', min: 1, max: 30_000 },
];

export const MOBILE_MONEY_CURRENCIES: readonly string[] = PAYOUT_COUNTRIES.map((c) => c.currency);

const operator = (slug: string, currency: string, pattern: string, bounds?: { min: number; max: number }): MobileMoneyOperator => ({
  slug,
  currency,
  pattern: new RegExp(`^(?:${pattern})$`),
  ...(bounds ? { bounds } : {}),
});

/** docs/payouts.md#countries-operators-and-bounds, in its order. */
export const MOBILE_MONEY_OPERATORS: readonly MobileMoneyOperator[] = [
  operator('mtn-gh', 'GHS', '233(24|54|55|59)\\d{7}'),
  operator('vodafone-gh', 'GHS', '233(20|50)\\d{7}'),
  operator('airteltigo-gh', 'GHS', '233(26|27|56|57)\\d{7}'),
  operator('safaricom-ke', 'KES', '254(7[0-2]|74|79|11)\\d{7}'),
  operator('airtel-ke', 'KES', '254(73|75|78|10)\\d{7}', { min: 10, max: 100_000 }),
  operator('telkom-ke', 'KES', '25477\\d{7}', { min: 50, max: 200_000 }),
  operator('mtn-ci', 'XOF', '22505\\d{8}'),
  operator('orange-ci', 'XOF', '22507\\d{8}'),
  operator('moov-ci', 'XOF', '22501\\d{8}'),
  operator('wave-ci', 'XOF', '2250[157]\\d{8}'),
  operator('mtn-cm', 'XAF', '2376(7\\d|8\\d|5[0-4])\\d{6}'),
  operator('orange-cm', 'XAF', '2376(9\\d|5[5-9])\\d{6}', { min: 2, max: 500_000 }),
  operator('vodacom-tz', 'TZS', '255(74|75|76)\\d{7}'),
  operator('airtel-tz', 'TZS', '255(68|69|78)\\d{7}'),
  operator('tigo-tz', 'TZS', '255(65|67|71)\\d{7}'),
  operator('halotel-tz', 'TZS', '25562\\d{7}'),
  operator('vodafone-eg', 'EGP', '2010\\d{8}'),
  operator('etisalat-eg', 'EGP', '2011\\d{8}'),
  operator('orange-eg', 'EGP', '2012\\d{8}'),
  operator('we-eg', 'EGP', '2015\\d{8}'),
];

export const payoutCountryOf = (currency: string): PayoutCountry | undefined => PAYOUT_COUNTRIES.find((c) => c.currency === currency);

export const mobileMoneyOperator = (slug: string): MobileMoneyOperator | undefined => MOBILE_MONEY_OPERATORS.find((o) => o.slug === slug);

export const operatorsOf = (currency: string): MobileMoneyOperator[] => MOBILE_MONEY_OPERATORS.filter((o) => o.currency === currency);

/** The bounds a payout to this operator must keep: its own, else its country's. */
export function payoutBounds(op: MobileMoneyOperator): { min: number; max: number } {
  if (op.bounds) return op.bounds;
  const country = payoutCountryOf(op.currency)!;
  return { min: country.min, max: country.max };
}

/** A number as merchants send it: digits, with an optional leading `+`. */
const NUMBER = /^\+?[0-9]+$/;

/** Whether `number` is one of the operator's (E.164 digits, the `+` optional). */
export function numberMatchesOperator(number: string, op: MobileMoneyOperator): boolean {
  return NUMBER.test(number) && op.pattern.test(number.replace(/^\+/, ''));
}

export { NUMBER as MOBILE_NUMBER_SHAPE };
