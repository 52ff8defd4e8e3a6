/**
 * Card number and expiry rules. Pure functions: no I/O, no clock unless one is passed in.
 */

export type CardBrand =
  | 'VISA'
  | 'MASTERCARD'
  | 'AMEX'
  | 'DISCOVER'
  | 'JCB'
  | 'DINERS'
  | 'UNIONPAY'
  | 'MAESTRO'
  | 'UNKNOWN';

export type CheckResult = { ok: true } | { ok: false; reason: string };

export type ExpiryResult =
  | { ok: true; expMonth: string; expYear: string }
  | { ok: false; reason: string };

const DIGITS = /^[0-9]+$/;

export function luhnValid(pan: string): boolean {
  if (!DIGITS.test(pan)) return false;
  let sum = 0;
  let double = false;
  for (let i = pan.length - 1; i >= 0; i--) {
    let d = pan.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * `first6******last4`, always six stars whatever the length, so the mask never reveals how long
 * the number is. Throws on anything that is not a 12 to 19 digit string: masking garbage would
 * produce a value that looks like a real mask and could leak more than ten digits of a short input.
 */
export function maskPan(pan: string): string {
  if (!DIGITS.test(pan) || pan.length < 12 || pan.length > 19) {
    throw new RangeError('maskPan expects a card number of 12 to 19 digits');
  }
  return `${pan.slice(0, 6)}******${pan.slice(-4)}`;
}

function prefixIn(pan: string, length: number, low: number, high: number): boolean {
  if (pan.length < length) return false;
  const p = Number(pan.slice(0, length));
  return p >= low && p <= high;
}

/**
 * Brand by issuer identification number. Order matters: narrower ranges are checked before the
 * wider ones that contain them (Maestro's 6304/67xx before the generic 6 ranges, 2221-2720 before
 * anything starting with 2).
 */
export function detectBrand(pan: string): CardBrand {
  if (!DIGITS.test(pan) || pan.length < 4) return 'UNKNOWN';
  if (pan[0] === '4') return 'VISA';
  if (prefixIn(pan, 2, 34, 34) || prefixIn(pan, 2, 37, 37)) return 'AMEX';
  if (prefixIn(pan, 2, 51, 55) || prefixIn(pan, 4, 2221, 2720)) return 'MASTERCARD';
  if (prefixIn(pan, 4, 3528, 3589)) return 'JCB';
  if (
    prefixIn(pan, 3, 300, 305) ||
    prefixIn(pan, 4, 3095, 3095) ||
    prefixIn(pan, 2, 36, 36) ||
    prefixIn(pan, 2, 38, 39)
  ) {
    return 'DINERS';
  }
  if (prefixIn(pan, 4, 6011, 6011) || prefixIn(pan, 3, 644, 649) || prefixIn(pan, 2, 65, 65)) {
    return 'DISCOVER';
  }
  // The co-branded 622126-622925 range is reported under the network that owns all of 62.
  if (prefixIn(pan, 2, 62, 62) || prefixIn(pan, 2, 81, 81)) return 'UNIONPAY';
  if (
    prefixIn(pan, 2, 50, 50) ||
    prefixIn(pan, 2, 56, 58) ||
    prefixIn(pan, 4, 6304, 6304) ||
    prefixIn(pan, 3, 639, 639) ||
    prefixIn(pan, 2, 67, 67)
  ) {
    return 'MAESTRO';
  }
  return 'UNKNOWN';
}

export function validatePan(pan: string): CheckResult {
  if (typeof pan !== 'string' || pan.length === 0) return { ok: false, reason: 'Card number is required' };
  if (!DIGITS.test(pan)) return { ok: false, reason: 'Card number must contain digits only' };
  if (pan.length < 12 || pan.length > 19) {
    return { ok: false, reason: 'Card number must be 12 to 19 digits long' };
  }
  if (!luhnValid(pan)) return { ok: false, reason: 'Card number is not valid' };
  return { ok: true };
}

/** How far ahead an expiry may be; anything beyond is a typo rather than a real card. */
const MAX_YEARS_AHEAD = 50;

/**
 * A card is valid through the last day of its expiry month. The month is judged in the
 * westernmost time zone (UTC-12) so that a payer whose local month has not ended yet is not
 * refused because the server's clock already turned.
 */
export function parseExpiry(month: string, year: string, now: Date): ExpiryResult {
  if (typeof month !== 'string' || !/^(0?[1-9]|1[0-2])$/.test(month)) {
    return { ok: false, reason: 'Expiry month must be 01 to 12' };
  }
  let fullYear: number;
  if (typeof year === 'string' && /^[0-9]{4}$/.test(year)) {
    fullYear = Number(year);
  } else if (typeof year === 'string' && /^[0-9]{2}$/.test(year)) {
    fullYear = 2000 + Number(year);
  } else {
    return { ok: false, reason: 'Expiry year must be YYYY' };
  }
  const m = Number(month);
  const lagging = new Date(now.getTime() - 12 * 60 * 60 * 1000);
  const nowYear = lagging.getUTCFullYear();
  const nowMonth = lagging.getUTCMonth() + 1;
  if (fullYear * 12 + m < nowYear * 12 + nowMonth) {
    return { ok: false, reason: 'Card has expired' };
  }
  if (fullYear - nowYear > MAX_YEARS_AHEAD) {
    return { ok: false, reason: `Expiry year is more than ${MAX_YEARS_AHEAD} years ahead` };
  }
  return { ok: true, expMonth: String(m).padStart(2, '0'), expYear: String(fullYear) };
}

/**
 * AMEX prints a four-digit code and the other known brands a three-digit one. For a brand we
 * cannot recognise either length is accepted: refusing a genuine card is worse than letting the
 * issuer judge the code.
 */
export function validateCvv(cvv: string, brand: CardBrand): CheckResult {
  if (typeof cvv !== 'string' || !DIGITS.test(cvv)) {
    return { ok: false, reason: 'CVV must contain digits only' };
  }
  if (brand === 'AMEX') {
    return cvv.length === 4 ? { ok: true } : { ok: false, reason: 'CVV must be 4 digits for this card' };
  }
  if (brand === 'UNKNOWN') {
    return cvv.length === 3 || cvv.length === 4
      ? { ok: true }
      : { ok: false, reason: 'CVV must be 3 or 4 digits' };
  }
  return cvv.length === 3 ? { ok: true } : { ok: false, reason: 'CVV must be 3 digits for this card' };
}
