/**
 * Currencies and amounts. Amounts arrive as decimal strings and are kept as integer minor units;
 * floating point never touches them, because 0.1 + 0.2 is not a price anyone agreed to.
 */

/**
 * ISO 4217 list one (as published 2026-01-01), code to minor-unit exponent. Codes whose minor unit
 * is "N.A." (precious metals, bond-market units, SDR, XTS, XXX) are left out: nothing can be paid in
 * them, so accepting them would only let a typo through. Withdrawn codes (ANG, CUC, HRK, SLL, ZWL,
 * ...) are left out for the same reason.
 */
const EXPONENTS: Readonly<Record<string, number>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, number>, {
    AED: 2, AFN: 2, ALL: 2, AMD: 2, AOA: 2, ARS: 2, AUD: 2, AWG: 2, AZN: 2,
    BAM: 2, BBD: 2, BDT: 2, BHD: 3, BIF: 0, BMD: 2, BND: 2, BOB: 2, BOV: 2, BRL: 2, BSD: 2,
    BTN: 2, BWP: 2, BYN: 2, BZD: 2,
    CAD: 2, CDF: 2, CHE: 2, CHF: 2, CHW: 2, CLF: 4, CLP: 0, CNY: 2, COP: 2, COU: 2, CRC: 2,
    CUP: 2, CVE: 2, CZK: 2,
    DJF: 0, DKK: 2, DOP: 2, DZD: 2,
    EGP: 2, ERN: 2, ETB: 2, EUR: 2,
    FJD: 2, FKP: 2,
    GBP: 2, GEL: 2, GHS: 2, GIP: 2, GMD: 2, GNF: 0, GTQ: 2, GYD: 2,
    HKD: 2, HNL: 2, HTG: 2, HUF: 2,
    IDR: 2, ILS: 2, INR: 2, IQD: 3, IRR: 2, ISK: 0,
    JMD: 2, JOD: 3, JPY: 0,
    KES: 2, KGS: 2, KHR: 2, KMF: 0, KPW: 2, KRW: 0, KWD: 3, KYD: 2, KZT: 2,
    LAK: 2, LBP: 2, LKR: 2, LRD: 2, LSL: 2, LYD: 3,
    MAD: 2, MDL: 2, MGA: 2, MKD: 2, MMK: 2, MNT: 2, MOP: 2, MRU: 2, MUR: 2, MVR: 2, MWK: 2,
    MXN: 2, MXV: 2, MYR: 2, MZN: 2,
    NAD: 2, NGN: 2, NIO: 2, NOK: 2, NPR: 2, NZD: 2,
    OMR: 3,
    PAB: 2, PEN: 2, PGK: 2, PHP: 2, PKR: 2, PLN: 2, PYG: 0,
    QAR: 2,
    RON: 2, RSD: 2, RUB: 2, RWF: 0,
    SAR: 2, SBD: 2, SCR: 2, SDG: 2, SEK: 2, SGD: 2, SHP: 2, SLE: 2, SOS: 2, SRD: 2, SSP: 2,
    STN: 2, SVC: 2, SYP: 2, SZL: 2,
    THB: 2, TJS: 2, TMT: 2, TND: 3, TOP: 2, TRY: 2, TTD: 2, TWD: 2, TZS: 2,
    UAH: 2, UGX: 0, USD: 2, USN: 2, UYI: 0, UYU: 2, UYW: 4, UZS: 2,
    VED: 2, VES: 2, VND: 0, VUV: 0,
    WST: 2,
    XAD: 2, XAF: 0, XCD: 2, XCG: 2, XOF: 0, XPF: 0,
    YER: 2,
    ZAR: 2, ZMW: 2, ZWG: 2,
  }),
);

export const CURRENCY_CODES: readonly string[] = Object.freeze(Object.keys(EXPONENTS).sort());

export type AmountResult = { ok: true; minor: number } | { ok: false; reason: string };

/** Case-sensitive: ISO codes are upper case, and `usd` in a hash input would not match `USD`. */
export function isCurrency(code: string): boolean {
  return typeof code === 'string' && /^[A-Z]{3}$/.test(code) && code in EXPONENTS;
}

export function currencyExponent(code: string): number | undefined {
  return isCurrency(code) ? EXPONENTS[code] : undefined;
}

const MAX_MINOR = BigInt(Number.MAX_SAFE_INTEGER);
const AMOUNT = /^([0-9]+)(?:\.([0-9]+))?$/;

/**
 * Parses `100`, `100.5`, `100.50`, `0.00` into minor units of `currency`. Extra fraction digits
 * beyond the exponent are accepted only when they are zeros, since they change nothing.
 */
export function parseAmount(text: string, currency: string): AmountResult {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) return { ok: false, reason: 'Unknown currency' };
  if (typeof text !== 'string') return { ok: false, reason: 'Amount must be a decimal string' };
  const m = AMOUNT.exec(text);
  if (!m) return { ok: false, reason: 'Amount must be a decimal number like 10.50' };
  const whole = m[1];
  const fraction = m[2] ?? '';
  const kept = fraction.slice(0, exponent);
  const dropped = fraction.slice(exponent);
  if (/[^0]/.test(dropped)) {
    return {
      ok: false,
      reason:
        exponent === 0
          ? `Amount in ${currency} cannot have decimals`
          : `Amount in ${currency} can have at most ${exponent} decimals`,
    };
  }
  const minor = BigInt(whole + kept.padEnd(exponent, '0'));
  if (minor > MAX_MINOR) return { ok: false, reason: 'Amount is too large' };
  return { ok: true, minor: Number(minor) };
}

/** Canonical decimal text: `10.50` for USD, `100` for JPY, `1.005` for BHD. */
export function formatMinor(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) throw new RangeError(`Unknown currency: ${String(currency)}`);
  if (!Number.isSafeInteger(minor)) throw new RangeError('Amount must be a safe integer of minor units');
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor));
  if (exponent === 0) return sign + digits;
  const padded = digits.padStart(exponent + 1, '0');
  return `${sign}${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}
