/**
 * Request and callback hash formulas (docs/reference/hashes.md#all-formulas): every hash a merchant
 * computes or verifies, one exported function each, so every API and the CLI's `sign` share them.
 *
 * Merchants compute these hashes with existing client code written against PHP semantics, so the
 * helpers reproduce PHP byte for byte rather than what JavaScript strings would do:
 * - `strtoupper` changes only the bytes a-z; every other byte (including UTF-8 multi-byte
 *   sequences) passes through untouched.
 * - `strrev` reverses bytes, not characters. For non-ASCII text this scrambles the UTF-8 encoding,
 *   and the hash is taken over those scrambled bytes. That is why everything below works on
 *   Buffers: a JS string cannot hold the reversed bytes without altering them.
 */

import { createHash, timingSafeEqual } from 'node:crypto';

type Bytes = string | Buffer;

function toBytes(value: Bytes): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}

function concat(parts: Bytes[]): Buffer {
  return Buffer.concat(parts.map(toBytes));
}

function upperBytes(input: Buffer): Buffer {
  const out = Buffer.from(input);
  for (let i = 0; i < out.length; i++) {
    const b = out[i];
    if (b >= 0x61 && b <= 0x7a) out[i] = b - 0x20;
  }
  return out;
}

/** ASCII-only upper case, as PHP `strtoupper`: `'ä'` stays `'ä'`. */
export function asciiUpper(s: string): string;
export function asciiUpper(s: Buffer): Buffer;
export function asciiUpper(s: Bytes): Bytes {
  if (typeof s === 'string') return s.replace(/[a-z]+/g, (run) => run.toUpperCase());
  return upperBytes(s);
}

/**
 * PHP `strrev`: the UTF-8 bytes of `s` in reverse order. Returned as a Buffer because for
 * non-ASCII input the result is not valid UTF-8 and must be hashed as is.
 */
export function strrev(s: Bytes): Buffer {
  return Buffer.from(toBytes(s)).reverse();
}

export function md5hex(data: Bytes): string {
  return createHash('md5').update(toBytes(data)).digest('hex');
}

export function sha1hex(data: Bytes): string {
  return createHash('sha1').update(toBytes(data)).digest('hex');
}

/**
 * Constant-time comparison of two hex digests. Case-insensitive (a merchant's uppercase hex is the
 * same digest); unequal lengths give false without throwing.
 */
export function constantTimeEqualHex(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const left = upperBytes(Buffer.from(a, 'utf8'));
  const right = upperBytes(Buffer.from(b, 'utf8'));
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}

/** `sha1(md5(upper(input)))`, the shape shared by Checkout and most S2S CARD follow-ups. */
function sha1md5upper(parts: Bytes[]): string {
  return sha1hex(md5hex(upperBytes(concat(parts))));
}

function md5upper(parts: Bytes[]): string {
  return md5hex(upperBytes(concat(parts)));
}

/** An optional field that was not sent is left out of the input: undefined counts as empty. */
function optional(value: string | undefined): string {
  return value ?? '';
}

/** The ten digits of the card number the S2S formulas use. */
function first6Last4(cardNumber: string): string {
  return cardNumber.slice(0, 6) + cardNumber.slice(-4);
}

/** S2S CARD SALE with `card_number` (Formula 1). */
export function saleCardHash(input: { payerEmail?: string; password: string; cardNumber: string }): string {
  return md5upper([
    strrev(optional(input.payerEmail)),
    input.password,
    strrev(first6Last4(input.cardNumber)),
  ]);
}

/** S2S CARD SALE with `card_token` instead of a card number (Formula 1, token variant). */
export function saleTokenHash(input: { payerEmail?: string; password: string; cardToken: string }): string {
  return md5upper([strrev(optional(input.payerEmail)), input.password, strrev(input.cardToken)]);
}

/** S2S CARD GET_TRANS_STATUS, CAPTURE, VOID, CREDITVOID. */
export function transIdHash(transId: string, password: string): string {
  return sha1md5upper([transId, password]);
}

/** S2S CARD GET_TRANS_STATUS_BY_ORDER, RECURRING_SALE. */
export function orderIdHash(orderId: string, password: string): string {
  return sha1md5upper([orderId, password]);
}

/** S2S CARD DELETE_SCHEDULE, UPDATE_SCHEDULE. */
export function scheduleIdHash(scheduleId: string, password: string): string {
  return sha1md5upper([scheduleId, password]);
}

/** S2S CREATE_SCHEDULE on `/post`. */
export function createScheduleHash(password: string): string {
  return md5upper([strrev(password)]);
}

/** Wallet SALE with `payment_token` (Formula 8). */
export function walletSaleHash(input: { payerEmail?: string; password: string }): string {
  return md5upper([strrev(optional(input.payerEmail)), input.password]);
}

/**
 * S2S CARD callback. For a card-token payment pass `cardToken`; it takes the place of the card
 * digits and wins if both are given, because a token payment's callback may still carry a mask.
 */
export function s2sCardCallbackHash(input: {
  payerEmail?: string;
  password: string;
  transId: string;
  cardNumberFirst6Last4?: string;
  cardToken?: string;
}): string {
  const last =
    input.cardToken !== undefined
      ? strrev(input.cardToken)
      : strrev(optional(input.cardNumberFirst6Last4));
  return md5upper([strrev(optional(input.payerEmail)), input.password, input.transId, last]);
}

/** Checkout operations and the Checkout callback: `sha1(md5(upper(parts... + password)))`. */
export function checkoutHash(parts: string[], password: string): string {
  return sha1md5upper([...parts, password]);
}

/** S2S APM SALE: `md5(upper(strrev(identifier + order_id + order_amount + order_currency + password)))`. */
export function apmSaleHash(input: {
  identifier: string;
  orderId: string;
  orderAmount: string;
  orderCurrency: string;
  password: string;
}): string {
  return md5upper([
    strrev(input.identifier + input.orderId + input.orderAmount + input.orderCurrency + input.password),
  ]);
}

/** S2S APM CAPTURE, VOID, GET_TRANS_STATUS: the password is appended after upper-casing. */
export function apmTransIdHash(transId: string, password: string): string {
  return md5hex(concat([upperBytes(strrev(transId)), password]));
}

/** S2S APM CREDITVOID: `md5(upper(strrev(trans_id + password)))`. */
export function apmCreditvoidHash(transId: string, password: string): string {
  return md5upper([strrev(transId + password)]);
}

/** S2S APM CREDIT2VIRTUAL: `md5(upper(strrev(order_id + order_amount + order_currency)) + password)`. */
export function credit2VirtualHash(input: {
  orderId: string;
  orderAmount: string;
  orderCurrency: string;
  password: string;
}): string {
  return md5hex(
    concat([upperBytes(strrev(input.orderId + input.orderAmount + input.orderCurrency)), input.password]),
  );
}

/**
 * The S2S CARD callback and return-URL hash of a recorded payment, where only the mask is left
 * (`first6******last4`): the stars removed give the same ten digits the formula takes.
 */
export function s2sCardPaymentHash(input: {
  payerEmail?: string;
  password: string;
  transId: string;
  cardMask: string;
  /** Set for a payment made with `card_token`: the formula then takes the token. */
  cardToken?: string;
}): string {
  return s2sCardCallbackHash({
    payerEmail: input.payerEmail,
    password: input.password,
    transId: input.transId,
    cardNumberFirst6Last4: input.cardMask.replace(/\*/g, ''),
    cardToken: input.cardToken,
  });
}

/** Checkout callback (and return URL): `sha1(md5(upper(id + order_number + order_amount + order_currency + order_description + password)))`. */
export function checkoutCallbackHash(input: {
  id: string;
  orderNumber: string;
  orderAmount: string;
  orderCurrency: string;
  orderDescription: string;
  password: string;
}): string {
  return checkoutHash([input.id, input.orderNumber, input.orderAmount, input.orderCurrency, input.orderDescription], input.password);
}

/**
 * S2S APM callback (docs/reference/hashes.md#s2s-apm), as the family's PHP `md5(strtoupper(convert($params) . PASSWORD))`:
 * the body's fields but `hash`, nested by their bracketed names (`custom_data[basket]` is key
 * `basket` of `custom_data`), keys sorted at every level as PHP `ksort` (integer keys numerically,
 * others in byte order), each leaf value byte-reversed, all concatenated depth first, then the
 * password appended, the whole ASCII-upper-cased (password included), md5.
 */
export function apmCallbackHash(fields: ReadonlyArray<readonly [string, string]>, password: string): string {
  const tree: FieldTree = new Map();
  for (const [name, value] of fields) if (name !== 'hash') insertField(tree, name, value);
  return md5hex(upperBytes(concat([...leavesInKsortOrder(tree).map((value) => strrev(value)), password])));
}

/** S2S APM callback over the raw form body, as received. */
export function apmCallbackBodyHash(rawBody: string, password: string): string {
  return apmCallbackHash([...new URLSearchParams(rawBody)], password);
}

/** Payout (CREDIT2VIRTUAL) callback (docs/reference/hashes.md#payouts): `md5(upper(strrev(trans_id + order_id + status)) + password)`. */
export function payoutCallbackHash(input: { transId: string; orderId: string; status: string; password: string }): string {
  return md5hex(concat([upperBytes(strrev(input.transId + input.orderId + input.status)), input.password]));
}

type FieldTree = Map<string, string | FieldTree>;

/** `a[b][]=v` as PHP parses it: nested keys, `[]` appending at the next integer key. */
function insertField(tree: FieldTree, name: string, value: string): void {
  const match = /^([^[\]]+)((?:\[[^\]]*\])+)$/.exec(name);
  const keys = match ? [match[1], ...[...match[2].matchAll(/\[([^\]]*)\]/g)].map((m) => m[1])] : [name];
  let node = tree;
  keys.forEach((key, i) => {
    const at = key === '' ? String(nextIndex(node)) : key;
    if (i === keys.length - 1) {
      node.set(at, value);
      return;
    }
    let child = node.get(at);
    if (!(child instanceof Map)) {
      child = new Map();
      node.set(at, child);
    }
    node = child;
  });
}

const INTEGER_KEY = /^(0|-?[1-9]\d{0,15})$/;

function nextIndex(node: FieldTree): number {
  let next = 0;
  for (const key of node.keys()) if (INTEGER_KEY.test(key)) next = Math.max(next, Number(key) + 1);
  return next;
}

function ksortCompare(a: string, b: string): number {
  if (INTEGER_KEY.test(a) && INTEGER_KEY.test(b)) return Number(a) - Number(b);
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function leavesInKsortOrder(node: FieldTree): string[] {
  const out: string[] = [];
  for (const key of [...node.keys()].sort(ksortCompare)) {
    const child = node.get(key)!;
    if (typeof child === 'string') out.push(child);
    else out.push(...leavesInKsortOrder(child));
  }
  return out;
}
