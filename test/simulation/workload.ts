/**
 * The workload: a list of steps drawn from the seed before anything runs, so a failing run can be
 * printed, shortened and replayed. Steps name their targets by a share (`pick`, 0 to 1) of the
 * payments that fit when the step runs, so a shortened list still means something.
 */
import { Random } from './random';

export type Step =
  | { op: 'sale'; amount: number; currency: string; auth: boolean; repeat: 'none' | 'at-once' | 'later' }
  | { op: 'apm'; amount: number; method: 'sim-redirect' | 'sim-pending' }
  | { op: 'recurring'; pick: number; amount: number }
  | { op: 'payer'; pick: number; result: 'ok' | 'fail'; times: 1 | 2 }
  | { op: 'capture'; pick: number; share: number }
  | { op: 'void'; pick: number }
  | { op: 'refunds'; pick: number; shares: number[] }
  | { op: 'payouts'; amounts: number[] }
  | { op: 'top-up'; amount: number }
  | { op: 'provider-decides'; pick: number; copies: number }
  | { op: 'notifications'; order: number[] }
  | { op: 'status'; pick: number }
  | { op: 'advance'; ms: number }
  | { op: 'restart-workers' }
  | { op: 'store-faults'; on: boolean }
  | { op: 'endpoint'; down: boolean };

const MINUTE = 60_000;

export function generateWorkload(seed: number, steps: number): Step[] {
  const r = new Random(seed).fork(3);
  const out: Step[] = [{ op: 'top-up', amount: r.int(5, 40) * 1000 }];
  let faults = false;
  let down = false;
  while (out.length < steps) {
    const draw = r.next();
    if (draw < 0.2) out.push({ op: 'sale', amount: r.int(1, 500) * 100 + r.int(0, 99), currency: r.pick(['USD', 'EUR']), auth: r.chance(0.3), repeat: r.pick(['none', 'none', 'none', 'at-once', 'later'] as const) });
    else if (draw < 0.28) out.push({ op: 'apm', amount: r.int(1, 300) * 100, method: r.pick(['sim-redirect', 'sim-pending'] as const) });
    else if (draw < 0.31) out.push({ op: 'recurring', pick: r.next(), amount: r.int(1, 100) * 100 });
    else if (draw < 0.38) out.push({ op: 'payer', pick: r.next(), result: r.chance(0.7) ? 'ok' : 'fail', times: r.chance(0.2) ? 2 : 1 });
    else if (draw < 0.43) out.push({ op: 'capture', pick: r.next(), share: r.pick([1, 1, 0.5, 0.25]) });
    else if (draw < 0.46) out.push({ op: 'void', pick: r.next() });
    else if (draw < 0.56) out.push({ op: 'refunds', pick: r.next(), shares: Array.from({ length: r.int(1, 3) }, () => r.pick([1, 0.5, 0.3, 0.1])) });
    else if (draw < 0.65) out.push({ op: 'payouts', amounts: Array.from({ length: r.int(1, 3) }, () => r.int(1, 80) * 100) });
    else if (draw < 0.68) out.push({ op: 'top-up', amount: r.int(1, 20) * 1000 });
    else if (draw < 0.74) out.push({ op: 'provider-decides', pick: r.next(), copies: r.int(1, 3) });
    else if (draw < 0.79) out.push({ op: 'notifications', order: Array.from({ length: 4 }, () => r.next()) });
    else if (draw < 0.82) out.push({ op: 'status', pick: r.next() });
    else if (draw < 0.9) out.push({ op: 'advance', ms: r.pick([1, 3, 10, 20, 90, 60 * 30]) * MINUTE });
    else if (draw < 0.93) out.push({ op: 'restart-workers' });
    else if (draw < 0.97) out.push({ op: 'store-faults', on: (faults = !faults) });
    else out.push({ op: 'endpoint', down: (down = !down) });
  }
  return out;
}

export const describeStep = (step: Step): string => JSON.stringify(step);
