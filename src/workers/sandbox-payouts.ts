/**
 * The sandbox payout provider's own decision (docs/reference/s2s-apm.md#credit2virtual): a payout nobody decided on the
 * provider page settles SANDBOX_PAYOUT_SETTLE_SECONDS after it was made, on the gateway's clock (so
 * the sandbox test clock moves it too). It is told to the gateway as every decision of that
 * provider is, by its signed notification, so callbacks, the balance and the ledger follow as they
 * would for a real provider. Only payouts of the sandbox's APM provider are touched.
 */
import { randomUUID } from 'node:crypto';
import { SANDBOX_PAYOUT_SETTLE_SECONDS } from '../adapters/connectors/sandbox-apm';
import type { SandboxApmProvider } from '../adapters/connectors/sandbox-apm/provider';
import { startPeriodic, type Periodic } from '../application/periodic';
import type { Clock } from '../application/ports/clock';
import type { Logger } from '../application/ports/logger';
import type { PendingPayouts } from '../application/ports/pending-payouts';

export interface SandboxPayoutsOptions {
  pending: PendingPayouts;
  provider: Pick<SandboxApmProvider, 'find' | 'decide'>;
  clock: Clock;
  logger: Logger;
  intervalMs?: number;
}

/** Settles the sandbox payouts waiting longer than their time; answers how many. */
export async function settleWaitingSandboxPayouts(options: SandboxPayoutsOptions): Promise<number> {
  const cutoff = new Date(options.clock.now().getTime() - SANDBOX_PAYOUT_SETTLE_SECONDS * 1000).toISOString();
  let settled = 0;
  for (const paymentId of await options.pending.pendingPayouts(cutoff, 200)) {
    const found = await options.provider.find(paymentId);
    // Another provider's payout, or decided since the read model last saw it.
    if (!found || found.payment.phase !== 'awaiting_provider') continue;
    const told = await options.provider.decide(found, 'approve', randomUUID());
    if (told.kind === 'recorded' && told.payment.phase === 'settled') settled++;
  }
  if (settled) options.logger.info('sandbox payouts settled by the provider', { count: settled });
  return settled;
}

export function startSandboxPayouts(options: SandboxPayoutsOptions): Periodic {
  return startPeriodic({
    name: 'sandbox-payouts',
    intervalMs: options.intervalMs ?? 1_000,
    logger: options.logger,
    keepsProcessAlive: false,
    run: async () => void (await settleWaitingSandboxPayouts(options)),
  });
}
