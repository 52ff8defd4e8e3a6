import { expect } from 'chai';
import { EMPTY_BUCKET, lockRemaining, recordFailure, type FailureBucket, type FailurePolicy } from '../../src/domain/auth-throttle/failure-bucket';

const policy: FailurePolicy = { limit: 5, windowMs: 60_000 };

/** Records failures at the given times; answers the bucket and which of them locked it. */
function failAt(times: number[], start: FailureBucket = EMPTY_BUCKET) {
  let bucket = start;
  const locked: number[] = [];
  for (const t of times) {
    const result = recordFailure(bucket, t, policy);
    bucket = result.bucket;
    if (result.locked) locked.push(t);
  }
  return { bucket, locked };
}

describe('failed-authentication bucket', () => {
  it('Given a burst of limit - 1 failures, then the counter is not locked', () => {
    const { bucket, locked } = failAt([1000, 1000, 1001, 1002]);
    expect(locked).to.deep.equal([]);
    expect(lockRemaining(bucket, 1002)).to.equal(0);
  });

  it('Given a burst of limit failures, then the last one locks for exactly one window', () => {
    const { bucket, locked } = failAt([1000, 1000, 1000, 1000, 1000]);
    expect(locked).to.deep.equal([1000]);
    expect(lockRemaining(bucket, 1000)).to.equal(60_000);
    expect(lockRemaining(bucket, 60_999)).to.equal(1);
    expect(lockRemaining(bucket, 61_000)).to.equal(0);
  });

  it('Given a lock, when failures keep arriving during it, then the lock neither grows nor shrinks', () => {
    const { bucket } = failAt([0, 0, 0, 0, 0, 10_000, 20_000, 59_999]);
    expect(bucket.lockedUntil).to.equal(60_000);
  });

  it('Given a lock has ended, then the counter starts full: limit - 1 more failures do not lock it', () => {
    const locked = failAt([0, 0, 0, 0, 0]).bucket;
    const after = failAt([60_000, 60_000, 60_000, 60_000], locked);
    expect(after.locked).to.deep.equal([]);
    expect(failAt([60_000], after.bucket).locked).to.deep.equal([60_000]);
  });

  it('Given limit failures a few milliseconds apart, then the last one locks all the same', () => {
    expect(failAt([1000, 1003, 1009, 1010, 1020]).locked).to.deep.equal([1020]);
  });

  it('Given limit failures spread over most of a window, then the bucket has refilled and none locks', () => {
    expect(failAt([0, 15_000, 30_000, 45_000, 59_000]).locked).to.deep.equal([]);
  });

  it('Given failures no faster than limit per window, then the counter never locks', () => {
    const every = policy.windowMs / policy.limit;
    const times = Array.from({ length: 50 }, (_, i) => i * every);
    expect(failAt(times).locked).to.deep.equal([]);
  });

  it('Given failures faster than limit per window for long enough, then the counter locks', () => {
    const every = policy.windowMs / policy.limit / 2;
    const times = Array.from({ length: 50 }, (_, i) => i * every);
    expect(failAt(times).locked.length).to.be.greaterThan(0);
  });

  it('Given a limit of 1, then the first failure locks', () => {
    expect(recordFailure(EMPTY_BUCKET, 5, { limit: 1, windowMs: 1000 }).locked).to.equal(true);
  });

  it('Given a limit and window whose ratio is no whole number, then the limit-th failure of a burst still locks', () => {
    const odd: FailurePolicy = { limit: 7, windowMs: 10_001 };
    let bucket = EMPTY_BUCKET;
    const locks: boolean[] = [];
    for (let i = 0; i < 7; i++) {
      const result = recordFailure(bucket, 123, odd);
      bucket = result.bucket;
      locks.push(result.locked);
    }
    expect(locks).to.deep.equal([false, false, false, false, false, false, true]);
  });
});
