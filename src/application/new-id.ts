/**
 * Ids of new payments, payment operations and events: UUIDs of version 7, which begin with the
 * millisecond they were made in. Every table and index keyed by them (the events' ids and streams,
 * the read models' payments, operations and postings) then takes new rows at its right edge, on a
 * page the last commit already wrote, instead of on a random page of its own: a SALE's appends
 * write a quarter of the bytes to the write-ahead log (measured with `npm run bench`). At least 48 bits of
 * each id stay random, and no id here is a credential: every lookup is scoped to its merchant.
 *
 * Ids that are a secret or stand for one (Checkout sessions, card tokens) stay random (version 4).
 */
export { v7 as newId } from 'uuid';
