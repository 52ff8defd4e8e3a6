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
    /** Milliseconds ahead of real time from now on; never smaller than before (until a reset). */
    offsetMs: number;
    /** The gateway's now after the move. */
    to: string;
    /** Real time of the move. */
    at: string;
  };
}

/**
 * The clock is back on real time (offset 0): the one move backwards, for starting a test afresh.
 * What was made at the moved dates keeps its dates; chains pay their next dates when real time
 * reaches them, and a due date already claimed is never charged again.
 */
export interface SandboxClockReset {
  type: 'SandboxClockReset';
  data: {
    /** The offset it had before the reset. */
    previousOffsetMs: number;
    /** Real time of the reset. */
    at: string;
  };
}

/** Where the recorded clock stands: its offset, and how many resets led there (the era). */
export interface SandboxClockReading {
  offsetMs: number;
  resets: number;
}

/** Folds the stream: the largest offset recorded since the last reset. */
export function readSandboxClock(events: ReadonlyArray<{ type: string; data: unknown }>): SandboxClockReading {
  const reading: SandboxClockReading = { offsetMs: 0, resets: 0 };
  for (const event of events) {
    if (event.type === 'SandboxClockAdvanced') {
      reading.offsetMs = Math.max(reading.offsetMs, Number((event.data as SandboxClockAdvanced['data']).offsetMs));
    } else if (event.type === 'SandboxClockReset') {
      reading.offsetMs = 0;
      reading.resets++;
    }
  }
  return reading;
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

/** `30d 0h 0m` */
export function formatClockOffset(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  const days = Math.floor(abs / 86_400_000);
  const hours = Math.floor((abs % 86_400_000) / 3_600_000);
  const minutes = Math.floor((abs % 3_600_000) / 60_000);
  return `${sign}${days}d ${hours}h ${minutes}m`;
}
