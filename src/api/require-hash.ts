/**
 * The one check of a request's `hash`, for every API: compared in constant time, case-insensitively
 * (the formulas give lowercase hex; the same digest upper-cased is the same digest). A wrong hash,
 * or none, is `100000 Hash is not valid`.
 */
import { constantTimeEqualHex } from '../domain/signatures';
import { errors } from './errors';

export function requireHash(sent: unknown, expected: string): void {
  if (typeof sent !== 'string' || !constantTimeEqualHex(sent, expected)) throw errors.hash();
}
