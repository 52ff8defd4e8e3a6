/**
 * One counter of failed authentications: a token bucket that holds `limit` failures and refills at
 * `limit` per window, kept as the single number GCRA needs. A burst of `limit` failures, or
 * failures arriving faster than `limit` per window for long enough, empties it; an empty bucket
 * locks its counter for one whole window, and the counter starts full again after that.
 *
 * "Empty" means less than one whole failure's room is left: the refill between the failures of a
 * burst (a few milliseconds' worth) must not buy the guesser one more attempt. So within any
 * window a client gets at most `limit` failures plus what the bucket refilled meanwhile.
 *
 * Pure: time comes in as milliseconds, a new state goes out. Integer arithmetic only (each failure
 * weighs `windowMs`, time drains `limit` per millisecond), so no rounding moves a lock.
 */
export interface FailurePolicy {
  /** Failures a counter absorbs before it locks; at least 1. */
  limit: number;
  /** Refill period and lockout length, in ms. */
  windowMs: number;
}

export interface FailureBucket {
  /** Failures still weighing on the bucket, in units of `windowMs` per failure. */
  debt: number;
  /** When `debt` was last brought up to date. */
  at: number;
  /** The lock's end; 0 when the counter is not locked. */
  lockedUntil: number;
}

export const EMPTY_BUCKET: FailureBucket = { debt: 0, at: 0, lockedUntil: 0 };

/** Milliseconds until the counter accepts attempts again; 0 when it is not locked. */
export function lockRemaining(bucket: FailureBucket, now: number): number {
  return bucket.lockedUntil > now ? bucket.lockedUntil - now : 0;
}

/**
 * Records one failure at `now`. A failure that empties the bucket locks the counter until
 * `now + windowMs` and forgets what came before, so after the lock the counter is full again.
 * A failure recorded while locked (a request admitted before the lock, finishing after it) changes
 * nothing: the lock neither grows nor is it cut short.
 */
export function recordFailure(bucket: FailureBucket, now: number, policy: FailurePolicy): { bucket: FailureBucket; locked: boolean } {
  if (lockRemaining(bucket, now) > 0) return { bucket, locked: false };
  const drained = Math.max(0, bucket.debt - Math.max(0, now - bucket.at) * policy.limit);
  const debt = drained + policy.windowMs;
  if (debt > (policy.limit - 1) * policy.windowMs) {
    return { bucket: { debt: 0, at: now, lockedUntil: now + policy.windowMs }, locked: true };
  }
  return { bucket: { debt, at: now, lockedUntil: 0 }, locked: false };
}
