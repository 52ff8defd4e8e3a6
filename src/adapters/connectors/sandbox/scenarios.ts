import { currencyExponent } from '../../../domain/money';
import type { CurrencyConversion } from '../../../domain/payment/events';

/**
 * What the built-in sandbox acquirer decides, by the card's expiry date (the sandbox card table of
 * docs/reference/sandbox.md), so merchants can script every path without a real issuer.
 */
export type Scenario =
  | 'success'
  | 'declined'
  | 'capture_declined'
  | '3ds_success'
  | '3ds_declined'
  | 'redirect_success'
  | 'redirect_declined'
  | 'converted';

export const SCENARIOS: Readonly<Record<string, Scenario>> = {
  '01/2038': 'success',
  '02/2038': 'declined',
  '03/2038': 'capture_declined',
  '05/2038': '3ds_success',
  '06/2038': '3ds_declined',
  '12/2038': 'redirect_success',
  '12/2039': 'redirect_declined',
  '09/2038': 'converted',
};

export const SANDBOX_DEFAULT_DESCRIPTOR = 'SANDBOX*GATEWAY';

export const SANDBOX_DECLINE_REASONS = {
  issuer: 'Declined by issuer',
  capture: 'Capture declined by acquirer',
  threeDsFailed: '3-D Secure authentication failed',
  threeDsRefused: '3-D Secure authentication declined by payer',
  redirectFailed: 'Declined by payment provider after redirect',
  redirectCancelled: 'Payment cancelled by payer',
  mismatch: 'Payer action does not match the payment',
  notRecurring: 'Card is not enabled for recurring payments',
  insufficientFunds: 'Insufficient funds',
  /** Spec Errors rule 3: some connectors refuse a payer's browser without its Accept header. */
  emptyAcceptHeader: 'INVALID_REQUEST: accept_header is empty',
} as const;

/**
 * The 09/2038 card settles, but in another currency than the payment's, at a fixed rate: into EUR at
 * 0.9 per unit of the payment's currency (into USD at 1.1 when the payment is in EUR), rounded half
 * up to the target currency's minor unit. Merchants can test the `exchange_*` callback fields with it.
 */
export const SANDBOX_CONVERSION = { currency: 'EUR', rate: '0.9', fromEur: { currency: 'USD', rate: '1.1' } } as const;

/** What the 09/2038 card's settlement converts `amount` (minor units of `currency`) to. */
export function sandboxConversion(amount: number, currency: string): CurrencyConversion {
  const to = currency === 'EUR' ? SANDBOX_CONVERSION.fromEur : SANDBOX_CONVERSION;
  const [whole, fraction = ''] = to.rate.split('.');
  const rateNumerator = BigInt(whole + fraction);
  const rateDenominator = 10n ** BigInt(fraction.length);
  const numerator = BigInt(amount) * rateNumerator * 10n ** BigInt(currencyExponent(to.currency) ?? 2);
  const denominator = rateDenominator * 10n ** BigInt(currencyExponent(currency) ?? 2);
  // Half up: amounts are never negative.
  const converted = (2n * numerator + denominator) / (2n * denominator);
  return { currency: to.currency, amount: Number(converted), rate: to.rate, rateBase: currency };
}

export function expiryKey(card: { expMonth: string; expYear: string }): string {
  return `${card.expMonth.padStart(2, '0')}/${card.expYear}`;
}

export function scenarioOf(card: { expMonth: string; expYear: string }): Scenario {
  return Object.prototype.hasOwnProperty.call(SCENARIOS, expiryKey(card)) ? SCENARIOS[expiryKey(card)] : 'success';
}

/** Only the 01/2038 card may start a recurring chain in the sandbox. */
export function sandboxSupportsRecurring(card: { expMonth: string; expYear: string }): boolean {
  return expiryKey(card) === '01/2038';
}

/**
 * A merchant-initiated charge (recurring or scheduled) of an amount whose minor units end in 402
 * (4.02, 14.02, 1,004.02 EUR ...) is declined, so merchants can test a failed charge in a chain
 * whose card (01/2038) otherwise always pays.
 */
export const sandboxDeclinesStoredCharge = (amountMinor: number): boolean => amountMinor % 1000 === 402;
