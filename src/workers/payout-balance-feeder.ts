/**
 * Keeps the merchants' payout balances in step with the log (application/payouts/balance-feeder.ts):
 * settled sales and captures add to them, refunds take away, and a payout that ended releases or
 * spends its hold. Every pass is idempotent (each balance stream records movements past its own
 * watermark), so a second feeder in another process only repeats work, never money.
 */
import { startPeriodic, type Periodic } from '../application/periodic';
import type { Logger } from '../application/ports/logger';
import type { PayoutService } from '../application/payouts';

export interface PayoutBalanceFeederOptions {
  payouts: Pick<PayoutService, 'feedBalances'>;
  logger: Logger;
  intervalMs?: number;
}

export function startPayoutBalanceFeeder(options: PayoutBalanceFeederOptions): Periodic {
  return startPeriodic({
    name: 'payout-balance-feeder',
    // Short: a declined payout's hold is money the merchant cannot pay out until it is released.
    intervalMs: options.intervalMs ?? 1_000,
    logger: options.logger,
    // It runs beside the projector, never as a process's only work.
    keepsProcessAlive: false,
    run: async () => void (await options.payouts.feedBalances()),
  });
}
