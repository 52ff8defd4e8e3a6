/**
 * The shortest step list that still breaks the same invariant: whole chunks are dropped while the
 * run still fails (halves, then quarters, down to single steps), then each step alone.
 */
import type { RunResult } from './run';
import type { Step } from './workload';

export interface Shrunk {
  steps: Step[];
  result: RunResult;
  runs: number;
}

export async function shrink(steps: Step[], failure: RunResult, run: (steps: Step[]) => Promise<RunResult>, budget = 60): Promise<Shrunk> {
  const invariant = failure.failure!.invariant;
  let best = steps.slice(0, Math.min(steps.length, (failure.failure!.step ?? steps.length) + 1));
  let bestResult = failure;
  let runs = 0;
  const stillFails = async (candidate: Step[]): Promise<boolean> => {
    if (runs >= budget) return false;
    runs++;
    const result = await run(candidate);
    if (result.ok || result.failure?.invariant !== invariant) return false;
    bestResult = result;
    return true;
  };
  // The steps after the failing one never ran: they are gone already. Then drop chunks.
  for (let chunk = Math.max(1, Math.floor(best.length / 2)); chunk >= 1; chunk = Math.floor(chunk / 2)) {
    for (let start = best.length - chunk; start >= 0 && runs < budget; start -= chunk) {
      // The first step funds the payouts: keep it, or most payouts fail for want of money.
      if (start === 0 && best.length > 1) continue;
      const candidate = [...best.slice(0, start), ...best.slice(start + chunk)];
      if (candidate.length > 0 && (await stillFails(candidate))) best = candidate;
    }
    if (chunk === 1) break;
  }
  return { steps: best, result: bestResult, runs };
}
