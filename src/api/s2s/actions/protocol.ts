/**
 * S2S CARD and S2S APM share `/post` (docs/reference/README.md#addresses-and-transport): a SALE with a non-empty `brand` is APM, and
 * a follow-up by `trans_id` is checked with the hash formula of the protocol that made the payment
 * (a card payment's follow-ups keep the card formulas, an APM payment's the APM ones). A payment the
 * merchant does not have has no protocol: its follow-up passes with either formula and is then
 * answered as not found, so a wrong hash never tells which payments exist.
 */
import type { MerchantAccount } from '../../../application/merchant-service';
import { constantTimeEqualHex, transIdHash } from '../../../domain/signatures';
import { errors } from '../../errors';
import { requireHash } from '../../require-hash';
import type { FormBody } from '../s2s-action';

export type Protocol = 'card' | 'apm';

/** The protocol of a payment (its channel): Checkout payments answer S2S follow-ups as cards do. */
export const protocolOf = (payment: { channel: string }): Protocol => (payment.channel === 's2s_apm' ? 'apm' : 'card');

/** Whether a request is an APM request: a non-empty `brand` (a repeated one counts, and fails its field's shape). */
export const isApmRequest = (form: FormBody): boolean => form.brand !== undefined && form.brand !== '';

/** `apmFormula`: the APM formula of this action (docs/reference/hashes.md#s2s-apm): CREDITVOID's differs from the others'. */
export function requireFollowUpHash(
  form: FormBody,
  merchant: MerchantAccount,
  protocol: Protocol | null,
  apmFormula: (transId: string, password: string) => string,
): void {
  const transId = form.trans_id as string;
  if (protocol === 'card') return requireHash(form.hash, transIdHash(transId, merchant.password));
  if (protocol === 'apm') return requireHash(form.hash, apmFormula(transId, merchant.password));
  const sent = typeof form.hash === 'string' ? form.hash : '';
  // Both compared every time: how long it takes says nothing about which one matched.
  const card = constantTimeEqualHex(sent, transIdHash(transId, merchant.password));
  const apm = constantTimeEqualHex(sent, apmFormula(transId, merchant.password));
  if (!card && !apm) throw errors.hash();
}

/** Whether the request's hash is `expected` (constant time). */
export const signedAs = (form: FormBody, expected: string): boolean => constantTimeEqualHex(typeof form.hash === 'string' ? form.hash : '', expected);
