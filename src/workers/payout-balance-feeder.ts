/**
 * Keeps the merchants' payout balances in step with the log (application/payouts/balance-feeder.ts):
 * settled sales and captures add to them, refunds take away, and a payout that ended releases or
 * spends its hold. Every pass is idempotent (each balance stream records movements past its own
 * watermark), so a second feeder in another process only repeats work, never money.
 */
import { startPeriodic, type Periodic, type WakeSignal } from '../application/periodic';
import type { Logger } from '../application/ports/logger';
import type { PayoutService } from '../application/payouts';

export interface PayoutBalanceFeederOptions {
  payouts: Pick<PayoutService, 'feedBalances'>;
  logger: Logger;
  intervalMs?: number;
  /**
   * The event store writer's commits in this process: a pass then follows them within
   * `settleMs` instead of waiting out the interval, which stays the pace for other processes' writes.
   */
  commits?: WakeSignal;
  settleMs?: number;
}

/**
 * A sale's money reaches the payout balance within a quarter of a second of its commit, not up to a
 * second later; shorter would record a balance event for every few commits under load (each pass
 * that found money appends one), and the balance streams would grow with the pace, not the money.
 */
const DEFAULT_SETTLE_MS = 250;

export function startPayoutBalanceFeeder(options: PayoutBalanceFeederOptions): Periodic {
  return startPeriodic({
    name: 'payout-balance-feeder',
    // Short: a declined payout's hold is money the merchant cannot pay out until it is released.
    intervalMs: options.intervalMs ?? 1_000,
    logger: options.logger,
    // It runs beside the projector, never as a process's only work.
    keepsProcessAlive: false,
    run: async (signal) => void (await options.payouts.feedBalances(signal)),
    wakeOn: options.commits ? { signal: options.commits, settleMs: options.settleMs ?? DEFAULT_SETTLE_MS } : undefined,
  });
}
