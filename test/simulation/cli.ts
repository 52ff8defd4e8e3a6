/**
 * `npm run simulate -- [--seeds N] [--seed S] [--steps K] [--store sqlite|postgres] [--no-shrink]`
 *
 * Runs seeds S, S+1, … S+N-1 (default: 20 seeds from a seed drawn now, printed first so the run can
 * be repeated), each a workload of K steps (default 60) against the whole gateway, and stops at the
 * first seed that breaks an invariant: it prints the seed, the invariant with the payment's history,
 * and the shortest step list that still breaks it. Exit 0 when every seed held, 1 otherwise, 2 on
 * a wrong flag.
 */
import { runWorkload, type RunResult } from './run';
import { shrink } from './shrink';
import { describeStep, generateWorkload, type Step } from './workload';
import type { SimStore } from './world';

export interface SimulateOptions {
  seeds: number;
  seed: number;
  steps: number;
  store: SimStore;
  shrink: boolean;
}

const USAGE = 'usage: npm run simulate -- [--seeds N] [--seed S] [--steps K] [--store sqlite|postgres] [--no-shrink]';

export function parseSimulateArgs(argv: string[]): SimulateOptions | string {
  const options: SimulateOptions = { seeds: 20, seed: Math.floor(Math.random() * 2 ** 31), steps: 60, store: 'sqlite', shrink: true };
  let seedGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--no-shrink') {
      options.shrink = false;
      continue;
    }
    const value = argv[i + 1];
    if (!['--seeds', '--seed', '--steps', '--store'].includes(flag)) return `unknown flag ${flag}\n${USAGE}`;
    if (value === undefined) return `${flag} needs a value\n${USAGE}`;
    i++;
    if (flag === '--store') {
      if (value !== 'sqlite' && value !== 'postgres') return `--store is sqlite or postgres (got ${value})`;
      options.store = value;
      continue;
    }
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < (flag === '--seed' ? 0 : 1)) return `${flag} takes a whole number (got ${value})`;
    if (flag === '--seeds') options.seeds = n;
    if (flag === '--seed') {
      options.seed = n;
      seedGiven = true;
    }
    if (flag === '--steps') options.steps = n;
  }
  // One seed named: that seed alone, unless --seeds says how many from it.
  if (seedGiven && !argv.includes('--seeds')) options.seeds = 1;
  return options;
}

export interface SimulationReport {
  passed: number;
  failed: RunResult | null;
  shrunk: Step[] | null;
}

export async function simulate(options: SimulateOptions, print: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<SimulationReport> {
  print(`simulating seeds ${options.seed}..${options.seed + options.seeds - 1}, ${options.steps} steps each, on ${options.store}`);
  let passed = 0;
  for (let seed = options.seed; seed < options.seed + options.seeds; seed++) {
    const steps = generateWorkload(seed, options.steps);
    const started = Date.now();
    const result = await runWorkload(steps, { seed, store: options.store });
    if (result.ok) {
      passed++;
      print(`seed ${seed}: ok (${result.stats.payments} payments asked for, ${result.stats.checkout} of them on Checkout, ${result.stats.scheduled} scheduled, ${result.stats.events} events, ${result.stats.callbacks} callbacks, ${result.stats.faults} faults, ${Date.now() - started} ms)`);
      continue;
    }
    const f = result.failure!;
    print(`seed ${seed}: FAILED at step ${f.step}: ${f.invariant}`);
    print(`  ${f.detail}`);
    let shortest: Step[] = steps.slice(0, f.step + 1);
    let shown = result;
    if (options.shrink) {
      print('  shrinking…');
      const shrunk = await shrink(steps, result, (candidate) => runWorkload(candidate, { seed, store: options.store }));
      shortest = shrunk.steps;
      shown = shrunk.result;
      print(`  ${shortest.length} steps still fail (${shrunk.runs} runs):`);
    } else {
      print(`  the ${shortest.length} steps up to the failure:`);
    }
    shortest.forEach((step, i) => print(`    ${i}: ${describeStep(step)}`));
    if (shown.failure?.paymentId) print(`  payment ${shown.failure.paymentId}:\n${shown.failure.history ?? ''}`);
    print(`  again: npm run simulate -- --seed ${seed} --steps ${options.steps} --store ${options.store}`);
    return { passed, failed: result, shrunk: shortest };
  }
  print(`${passed} seeds held every invariant`);
  return { passed, failed: null, shrunk: null };
}

if (require.main === module) {
  const parsed = parseSimulateArgs(process.argv.slice(2));
  if (typeof parsed === 'string') {
    process.stderr.write(`${parsed}\n`);
    process.exit(2);
  }
  simulate(parsed).then(
    (report) => process.exit(report.failed ? 1 : 0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
