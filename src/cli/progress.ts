/**
 * Progress of long commands (`projections rebuild`, `seed`, `audit verify`) on a terminal: one
 * line on stderr, rewritten in place at most a few times a second, with what is done, the rate and
 * the time left. Nothing at all with `--json` or when stderr is not a terminal (a pipe, a file, a
 * CI log), so what scripts read stays exactly what it was.
 */

export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

export interface ProgressOptions {
  /** What is being done: `Replaying`, `Seeding`, `Verifying`. */
  label: string;
  /** What is counted: `events`. */
  unit: string;
  /** How many there will be, when known. */
  total?: number | null;
  json: boolean;
  stream?: ProgressStream;
  now?: () => number;
  /** Least time between two redraws. Default 200 ms. */
  intervalMs?: number;
}

export interface Progress {
  /** `done` so far; `fraction` (0..1) when the share done is known better than done/total. */
  update(done: number, fraction?: number | null): void;
  /** Ends the line (the last figures stay on screen). */
  finish(): void;
}

const QUIET: Progress = { update: () => undefined, finish: () => undefined };

const count = (n: number) => Math.round(n).toLocaleString('en-US');

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.ceil(seconds))} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.ceil((seconds % 3600) / 60)} min`;
}

/** `Replaying: 120,000 / 1,000,000 events (12%), 8,000 events/s, about 1 min 50 s left`. */
export function progressLine(o: { label: string; unit: string; done: number; total?: number | null; fraction?: number | null; elapsedMs: number }): string {
  const seconds = o.elapsedMs / 1000;
  const rate = seconds > 0 ? o.done / seconds : 0;
  const fraction = o.fraction ?? (o.total ? o.done / o.total : null);
  const parts = [`${o.label}: ${count(o.done)}${o.total ? ` / ${count(o.total)}` : ''} ${o.unit}${fraction !== null ? ` (${Math.min(100, Math.floor(fraction * 100))}%)` : ''}`];
  if (seconds >= 0.5) parts.push(`${count(rate)} ${o.unit}/s`);
  if (fraction !== null && fraction > 0 && fraction < 1 && seconds >= 1) parts.push(`about ${duration((seconds / fraction) * (1 - fraction))} left`);
  return parts.join(', ');
}

export function startProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.json || !stream.isTTY) return QUIET;
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 200;
  const started = now();
  let drawn = -Infinity;
  let last = { done: 0, fraction: null as number | null | undefined };
  const draw = () => {
    drawn = now();
    // \r and "erase line": the line is rewritten in place.
    stream.write(`\r\x1b[2K${progressLine({ label: options.label, unit: options.unit, total: options.total, elapsedMs: drawn - started, ...last })}`);
  };
  return {
    update(done, fraction) {
      last = { done, fraction };
      if (now() - drawn >= interval) draw();
    },
    finish() {
      draw();
      stream.write('\n');
    },
  };
}
