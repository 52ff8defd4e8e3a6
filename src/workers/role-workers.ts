/**
 * The periodic work a role runs besides serving, projecting or notifying: one list, started by the
 * `projector` and `scheduler` roles in their process and by `all` on its background thread.
 */
import { CommitSignal } from '../adapters/event-store/commit-signal';
import type { Gateway } from '../composition';
import type { GatewayConfig } from '../config';
import { startAuditCheckpointer } from './audit-checkpointer';
import { startPayerActionExpiry } from './payer-action-expiry';
import { startPayoutBalanceFeeder } from './payout-balance-feeder';
import { startReconciler } from './reconciler';
import { startSandboxPayouts } from './sandbox-payouts';
import { startScheduler } from './scheduler';

export type Stop = () => Promise<void> | void;

/** The work of the process that projects: expiry, reconciliation, payout balances, sandbox payouts, audit checkpoints. */
export function startProjectingWorkers(gateway: Gateway, config: GatewayConfig): Stop[] {
  const stops: Stop[] = [];
  const expiry = startPayerActionExpiry({
    candidates: gateway.readModels,
    payments: gateway.payments,
    clock: gateway.clock,
    logger: gateway.logger,
    timeoutMinutes: config.payerActionTimeoutMinutes,
  });
  stops.push(() => expiry.stop());
  const reconciler = startReconciler({ candidates: gateway.readModels, payments: gateway.payments, clock: gateway.clock, logger: gateway.logger });
  stops.push(() => reconciler.stop());
  const commits = gateway.commitSignal();
  const feeder = startPayoutBalanceFeeder({ payouts: gateway.payouts, logger: gateway.logger, commits: commits ? CommitSignal.of(commits) : undefined });
  stops.push(() => feeder.stop());
  // The sandbox payout provider settles what nobody decided within its time (docs/reference/s2s-apm.md#credit2virtual).
  if (gateway.sandboxApm) {
    const sandboxPayouts = startSandboxPayouts({ pending: gateway.readModels, provider: gateway.sandboxApm, clock: gateway.clock, logger: gateway.logger });
    stops.push(() => sandboxPayouts.stop());
  }
  if (config.auditCheckpointIntervalSeconds > 0) {
    const checkpointer = startAuditCheckpointer({
      store: gateway.rawStore,
      signer: gateway.auditSigner,
      checkpointFile: config.auditCheckpointFile,
      clock: gateway.clock,
      logger: gateway.logger,
      intervalMs: config.auditCheckpointIntervalSeconds * 1000,
    });
    stops.push(() => checkpointer.stop());
  }
  return stops;
}

/** The automatic payments of schedules. */
export function startSchedulerWorker(gateway: Gateway, config: GatewayConfig): Stop {
  const scheduler = startScheduler({ scheduler: gateway.scheduler, logger: gateway.logger, intervalMs: config.schedulerIntervalMs });
  return () => scheduler.stop();
}
