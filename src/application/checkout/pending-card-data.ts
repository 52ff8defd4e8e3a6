/**
 * How long hosted-fields card data is kept, and the sweep that deletes what was never used. The
 * data itself is kept by a PendingCardData adapter (ports/pending-card-data.ts) in the store every
 * API process shares, so the card frame's request and the merchant's processing request may reach
 * different processes.
 */
import type { PendingCardData } from '../ports/pending-card-data';

/** The payer has this long from typing the card to the merchant's processing request. */
export const PENDING_CARD_TTL_MS = 15 * 60_000;

/** Often enough that expired card data never outlives its time to live by much. */
export const PENDING_CARD_SWEEP_INTERVAL_MS = 60_000;

export interface PendingCardSweep {
  /** Stops sweeping; resolves once a sweep under way has finished (before its database is closed). */
  stop(): Promise<void>;
}

/**
 * Deletes expired card data every `intervalMs`, so a session whose merchant never asked for its
 * card does not keep the sealed CVV around until some later request happens to sweep. A failed
 * sweep (the database briefly unreachable) is reported and tried again at the next tick.
 */
export function sweepPendingCardsPeriodically(
  cards: PendingCardData,
  options: { intervalMs?: number; onError: (error: unknown) => void },
): PendingCardSweep {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = cards
      .sweep()
      .then(() => undefined, options.onError)
      .finally(() => {
        running = null;
      });
  }, options.intervalMs ?? PENDING_CARD_SWEEP_INTERVAL_MS);
  // The sweep alone must never keep a process (or a test run) alive.
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
