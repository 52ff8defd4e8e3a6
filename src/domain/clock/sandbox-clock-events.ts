/**
 * The sandbox test clock (stream `sandbox-clock`): how far the gateway's notion of now runs ahead
 * of real time. Every process of a sandbox deployment follows the latest offset, so a merchant can
 * test a year of a subscription in seconds. Production never writes or reads it.
 */
export const SANDBOX_CLOCK_STREAM = 'sandbox-clock';
export const SANDBOX_CLOCK_EVENT_SCHEMA_VERSION = 1;

export interface SandboxClockAdvanced {
  type: 'SandboxClockAdvanced';
  data: {
    /** Milliseconds ahead of real time from now on; never smaller than before. */
    offsetMs: number;
    /** The gateway's now after the move. */
    to: string;
    /** Real time of the move. */
    at: string;
  };
}

const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** At most ten years in one move: enough for any schedule test, and keeps dates sane. */
export const MAX_ADVANCE_MS = 3_653 * 86_400_000;

/**
 * `30d`, `12h`, `90m`, `45s`, `2w` (or a combination such as `1d12h`) as milliseconds; null when
 * malformed, zero or beyond MAX_ADVANCE_MS. Months and years are not offered: their length varies.
 */
export function parseClockDuration(text: string): number | null {
  const trimmed = text.trim();
  if (!/^(\d{1,6}[smhdw])+$/.test(trimmed)) return null;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d{1,6})([smhdw])/g)) total += Number(amount) * UNIT_MS[unit];
  return total > 0 && total <= MAX_ADVANCE_MS ? total : null;
}
