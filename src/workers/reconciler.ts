/**
 * Finds payments that a lost acquirer answer left open (a crash between recording an intent and
 * recording the answer, or an `unknown` answer) and asks the acquirer what happened. Candidates
 * come from the read models; the decider refuses anything that moved on meanwhile.
 */
import type { Kysely } from 'kysely';
import type { ReadModelDatabase } from '../../projections';
import type { Clock } from '../application/ports/clock';
import type { Logger } from '../application/ports/logger';
import type { PaymentService } from '../application/payments';
import { DomainError } from '../domain/errors';

export interface ReconcilerOptions {
  db: Kysely<ReadModelDatabase>;
  payments: PaymentService;
  clock: Clock;
  logger: Logger;
  /** Only requests older than this are considered lost (younger ones may still be in flight). */
  graceMs?: number;
  intervalMs?: number;
}

export async function reconcileOpenPayments(options: ReconcilerOptions): Promise<number> {
  const cutoff = new Date(options.clock.now().getTime() - (options.graceMs ?? 60_000)).toISOString();
  const authorizations = await options.db
    .selectFrom('payments')
    .select('payment_id')
    .where('phase', 'in', ['initiated', 'outcome_unknown'])
    .where('updated_at', '<', cutoff)
    .limit(200)
    .execute();
  const operations = await options.db
    .selectFrom('transactions')
    .select('payment_id')
    .where('status', 'in', ['pending', 'unknown'])
    .where('type', 'in', ['capture', 'void', 'refund', 'reversal'])
    .where('updated_at', '<', cutoff)
    .limit(200)
    .execute();
  const ids = new Set([...authorizations, ...operations].map((row) => row.payment_id));
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

export function startReconciler(options: ReconcilerOptions): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    reconcileOpenPayments(options)
      .catch((error) => options.logger.error('reconciler failed', { error: String(error) }))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs ?? 30_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
