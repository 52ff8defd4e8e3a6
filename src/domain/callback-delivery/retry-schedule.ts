/**
 * When failed deliveries are tried again (docs/callbacks.md#delivery-guarantees): after 1, 5, 15 and 30 minutes, then 1, 2,
 * 4, 8, 16 and 24 hours, about 2.3 days in all; after the last retry the delivery has failed for good.
 * Operators may set their own (CALLBACK_RETRY_SCHEDULE=30s,2m,1h).
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  1 * MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  16 * HOUR,
  24 * HOUR,
];

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: MINUTE, h: HOUR, d: 24 * HOUR };

/** Parses `1m,5m,2h` (units ms, s, m, h, d); null when the text is not such a list. */
export function parseRetrySchedule(text: string): number[] | null {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.length > 100) return null;
  const out: number[] = [];
  for (const part of parts) {
    const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(part);
    if (!match) return null;
    const ms = Number(match[1]) * UNIT_MS[match[2]];
    if (ms <= 0 || ms > 30 * 24 * HOUR) return null;
    out.push(ms);
  }
  return out;
}
