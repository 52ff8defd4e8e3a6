/**
 * Failure buckets by name (a merchant and an address, an address, a merchant), at most
 * `maxTracked` of them: the least recently touched is forgotten first, so a flood of new names
 * costs bounded memory, and every operation is O(1).
 */
import { LRUCache } from 'lru-cache';
import { lockRemaining, recordFailure, type FailureBucket, type FailurePolicy, EMPTY_BUCKET } from '../../domain/auth-throttle/failure-bucket';

export class FailureCounters {
  private readonly buckets: LRUCache<string, FailureBucket>;

  constructor(
    readonly policy: FailurePolicy,
    maxTracked: number,
  ) {
    this.buckets = new LRUCache({ max: maxTracked });
  }

  /** Milliseconds until `name` is unlocked; 0 when it is not locked (or not tracked). */
  lockRemaining(name: string, now: number): number {
    // peek: a lookup must not keep a name alive; only failures do.
    const bucket = this.buckets.peek(name);
    return bucket ? lockRemaining(bucket, now) : 0;
  }

  /** Records a failure of `name`; true when this failure locked it. */
  fail(name: string, now: number): boolean {
    const { bucket, locked } = recordFailure(this.buckets.get(name) ?? EMPTY_BUCKET, now, this.policy);
    this.buckets.set(name, bucket);
    return locked;
  }

  get size(): number {
    return this.buckets.size;
  }
}
