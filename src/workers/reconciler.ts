/**
 * Finds payments that a lost acquirer answer left open (a crash between recording an intent and
 * recording the answer, or an `unknown` answer) and asks the acquirer what happened. Candidates
 * come from the read models; the decider refuses anything that moved on meanwhile.
 */
import { startPeriodic, type Periodic } from '../application/periodic';
import type { Clock } from '../application/ports/clock';
import type { Logger } from '../application/ports/logger';
import type { OperationsToReconcile } from '../application/ports/operations-to-reconcile';
import type { PaymentService } from '../application/payments';
import { DomainError } from '../domain/errors';

export interface ReconcilerOptions {
  candidates: OperationsToReconcile;
  payments: PaymentService;
  clock: Clock;
  logger: Logger;
  /** Only requests older than this are considered lost (younger ones may still be in flight). */
  graceMs?: number;
  intervalMs?: number;
}

export async function reconcileOpenPayments(options: ReconcilerOptions): Promise<number> {
  const cutoff = new Date(options.clock.now().getTime() - (options.graceMs ?? 60_000)).toISOString();
  const ids = await options.candidates.paymentsToReconcile(cutoff, 200);
  let settled = 0;
  for (const paymentId of ids) {
    try {
      if ((await options.payments.reconcile(paymentId)) !== 'nothing') settled++;
    } catch (error) {
      if (error instanceof DomainError) continue; // decided meanwhile by the original request
      options.logger.error('reconciliation failed', { paymentId, error: String(error) });
    }
  }
  if (settled) options.logger.info('reconciled open payments', { count: settled });
  return settled;
}

export function startReconciler(options: ReconcilerOptions): Periodic {
  return startPeriodic({
    name: 'reconciler',
    intervalMs: options.intervalMs ?? 30_000,
    logger: options.logger,
    // It runs beside the projector, never as a process's only work.
    keepsProcessAlive: false,
    run: async () => void (await reconcileOpenPayments(options)),
  });
}
