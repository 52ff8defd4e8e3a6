/**
 * A merchant endpoint that keeps timing out is left alone for a while instead of being hammered
 * (docs/callbacks.md#delivery-guarantees): five timeouts within five minutes block the URL for fifteen minutes. Its
 * deliveries wait for the block to end; none is dropped and none uses up a retry meanwhile.
 */
export interface UrlBlockPolicy {
  timeouts: number;
  windowMs: number;
  blockMs: number;
}

export const DEFAULT_URL_BLOCK_POLICY: UrlBlockPolicy = { timeouts: 5, windowMs: 5 * 60_000, blockMs: 15 * 60_000 };

/**
 * Given the times (ms) of a URL's timeouts, returns when its block ends, or null if it is not
 * blocked at `now`. Each run of `timeouts` timeouts inside one window blocks from the last of them.
 */
export function blockedUntil(timeoutTimes: readonly number[], now: number, policy: UrlBlockPolicy): number | null {
  const times = [...timeoutTimes].sort((a, b) => a - b);
  let until: number | null = null;
  for (let i = policy.timeouts - 1; i < times.length; i++) {
    if (times[i] - times[i - policy.timeouts + 1] <= policy.windowMs) {
      const end = times[i] + policy.blockMs;
      if (until === null || end > until) until = end;
    }
  }
  return until !== null && until > now ? until : null;
}
