/**
 * Declines payments whose payer never came back from the ACS or the redirect page, or never
 * confirmed with an alternative method's provider (docs/reference/sandbox.md#abandoned-payer-steps: default 15
 * minutes), and payments whose provider's deadline passed (a QR code lives 60 seconds: `QR code
 * expired`). It reads candidates from the payments read model and lets the decider refuse any
 * payment that moved on in the meantime, or whose payer still has time.
 */
import { startPeriodic, type Periodic } from '../application/periodic';
import type { Clock } from '../application/ports/clock';
import type { Logger } from '../application/ports/logger';
import type { AbandonedPayerAction, PayerActionsDue } from '../application/ports/payer-actions-due';
import type { PaymentService } from '../application/payments';
import { payerTimeoutReason } from '../domain/payment/payer-timeout';

export interface PayerActionExpiryOptions {
  candidates: PayerActionsDue;
  payments: PaymentService;
  clock: Clock;
  logger: Logger;
  timeoutMinutes: number;
  intervalMs?: number;
}

export async function expireAbandonedPayerActions(options: PayerActionExpiryOptions): Promise<number> {
  const now = options.clock.now();
  const cutoff = new Date(now.getTime() - options.timeoutMinutes * 60_000).toISOString();
  const expired = await options.candidates.expiredPayerActions(now.toISOString(), 500);
  const abandoned = await options.candidates.abandonedPayerActions(cutoff, 500);
  const due = new Map<string, AbandonedPayerAction>();
  for (const candidate of [...expired, ...abandoned]) due.set(candidate.paymentId, candidate);
  for (const candidate of due.values()) await options.payments.expirePayerAction(candidate.paymentId, reasonOf(candidate));
  if (due.size) options.logger.info('expired abandoned payer actions', { count: due.size });
  return due.size;
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

function reasonOf({ phase, qr }: AbandonedPayerAction): string {
  return payerTimeoutReason(phase, qr === true);
}
