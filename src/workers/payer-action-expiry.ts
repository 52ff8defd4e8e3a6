/**
 * Declines payments whose payer never came back from the ACS or the redirect page
 * (decisions.md section 6: default 15 minutes). It reads candidates from the payments read model
 * and lets the decider refuse any payment that moved on in the meantime.
 */
import { startPeriodic, type Periodic } from '../application/periodic';
import type { Clock } from '../application/ports/clock';
import type { Logger } from '../application/ports/logger';
import type { PayerActionsDue } from '../application/ports/payer-actions-due';
import type { PaymentService } from '../application/payments';

export interface PayerActionExpiryOptions {
  candidates: PayerActionsDue;
  payments: PaymentService;
  clock: Clock;
  logger: Logger;
  timeoutMinutes: number;
  intervalMs?: number;
}

export async function expireAbandonedPayerActions(options: PayerActionExpiryOptions): Promise<number> {
  const cutoff = new Date(options.clock.now().getTime() - options.timeoutMinutes * 60_000).toISOString();
  const abandoned = await options.candidates.abandonedPayerActions(cutoff, 500);
  for (const { paymentId, phase } of abandoned) {
    const reason =
      phase === 'awaiting_3ds' ? '3-D Secure authentication was not completed in time' : 'The payer did not return from the redirect in time';
    await options.payments.expirePayerAction(paymentId, reason);
  }
  if (abandoned.length) options.logger.info('expired abandoned payer actions', { count: abandoned.length });
  return abandoned.length;
}

export function startPayerActionExpiry(options: PayerActionExpiryOptions): Periodic {
  return startPeriodic({
    name: 'payer action expiry',
    intervalMs: options.intervalMs ?? 30_000,
    logger: options.logger,
    // It runs beside the projector or the API, never as a process's only work.
    keepsProcessAlive: false,
    run: async () => void (await expireAbandonedPayerActions(options)),
  });
}
