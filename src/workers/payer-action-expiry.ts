/**
 * Declines payments whose payer never came back from the ACS or the redirect page
 * (decisions.md section 6: default 15 minutes). It reads candidates from the payments read model
 * and lets the decider refuse any payment that moved on in the meantime.
 */
import type { Kysely } from 'kysely';
import type { ReadModelDatabase } from '../../projections';
import type { Clock } from '../application/ports/clock';
import type { Logger } from '../application/ports/logger';
import type { PaymentService } from '../application/payments';

export interface PayerActionExpiryOptions {
  db: Kysely<ReadModelDatabase>;
  payments: PaymentService;
  clock: Clock;
  logger: Logger;
  timeoutMinutes: number;
  intervalMs?: number;
}

export async function expireAbandonedPayerActions(options: PayerActionExpiryOptions): Promise<number> {
  const cutoff = new Date(options.clock.now().getTime() - options.timeoutMinutes * 60_000).toISOString();
  const rows = await options.db
    .selectFrom('payments')
    .select(['payment_id', 'phase'])
    .where('phase', 'in', ['awaiting_3ds', 'awaiting_redirect'])
    .where('updated_at', '<', cutoff)
    .limit(500)
    .execute();
  for (const row of rows) {
    const reason =
      row.phase === 'awaiting_3ds'
        ? '3-D Secure authentication was not completed in time'
        : 'The payer did not return from the redirect in time';
    await options.payments.expirePayerAction(row.payment_id, reason);
  }
  if (rows.length) options.logger.info('expired abandoned payer actions', { count: rows.length });
  return rows.length;
}

export function startPayerActionExpiry(options: PayerActionExpiryOptions): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    expireAbandonedPayerActions(options)
      .catch((error) => options.logger.error('payer action expiry failed', { error: String(error) }))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs ?? 30_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
