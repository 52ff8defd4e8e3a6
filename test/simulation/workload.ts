/**
 * The workload: a list of steps drawn from the seed before anything runs, so a failing run can be
 * printed, shortened and replayed. Steps name their targets by a share (`pick`, 0 to 1) of the
 * payments that fit when the step runs, so a shortened list still means something.
 */
import { Random } from './random';

export type Step =
  | { op: 'sale'; amount: number; currency: string; auth: boolean; repeat: 'none' | 'at-once' | 'later'; scheduled?: boolean }
  | { op: 'checkout-session'; amount: number }
  | { op: 'checkout-pay'; pick: number }
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
  // Each kind of step with its weight: how often it comes, out of the total.
  const kinds: [number, () => Step][] = [
    [20, () => {
      const auth = r.chance(0.3);
      return { op: 'sale', amount: r.int(1, 500) * 100 + r.int(0, 99), currency: r.pick(['USD', 'EUR']), auth, repeat: r.pick(['none', 'none', 'none', 'at-once', 'later'] as const), ...(!auth && r.chance(0.3) ? { scheduled: true } : {}) };
    }],
    [8, () => ({ op: 'apm', amount: r.int(1, 300) * 100, method: r.pick(['sim-redirect', 'sim-pending'] as const) })],
    [3, () => ({ op: 'recurring', pick: r.next(), amount: r.int(1, 100) * 100 })],
    [4, () => ({ op: 'checkout-session', amount: r.int(1, 200) * 100 })],
    [6, () => ({ op: 'checkout-pay', pick: r.next() })],
    [7, () => ({ op: 'payer', pick: r.next(), result: r.chance(0.7) ? 'ok' : 'fail', times: r.chance(0.2) ? 2 : 1 })],
    [5, () => ({ op: 'capture', pick: r.next(), share: r.pick([1, 1, 0.5, 0.25]) })],
    [3, () => ({ op: 'void', pick: r.next() })],
    [10, () => ({ op: 'refunds', pick: r.next(), shares: Array.from({ length: r.int(1, 3) }, () => r.pick([1, 0.5, 0.3, 0.1])) })],
    [9, () => ({ op: 'payouts', amounts: Array.from({ length: r.int(1, 3) }, () => r.int(1, 80) * 100) })],
    [3, () => ({ op: 'top-up', amount: r.int(1, 20) * 1000 })],
    [6, () => ({ op: 'provider-decides', pick: r.next(), copies: r.int(1, 3) })],
    [5, () => ({ op: 'notifications', order: Array.from({ length: 4 }, () => r.next()) })],
    [3, () => ({ op: 'status', pick: r.next() })],
    [8, () => ({ op: 'advance', ms: r.pick([1, 3, 10, 20, 90, 60 * 30]) * MINUTE })],
    [3, () => ({ op: 'restart-workers' })],
    [4, () => ({ op: 'store-faults', on: (faults = !faults) })],
    [3, () => ({ op: 'endpoint', down: (down = !down) })],
  ];
  const total = kinds.reduce((n, [weight]) => n + weight, 0);
  while (out.length < steps) {
    let draw = r.next() * total;
    const kind = kinds.find(([weight]) => (draw -= weight) < 0) ?? kinds[kinds.length - 1]!;
    out.push(kind[1]());
  }
  return out;
}

export const describeStep = (step: Step): string => JSON.stringify(step);
