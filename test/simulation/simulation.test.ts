/**
 * The seeded simulation of the whole gateway (docs/simulation.md): a fixed budget of seeds must hold
 * every invariant, each planted bug must be caught within 200 seeds, and the bugs it found stay
 * found (their shortened step lists, kept as regressions).
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requirePostgres } from '../support/postgres';
import { parseSimulateArgs, simulate } from './cli';
import { INVARIANTS } from './invariants';
import { plant, PLANTED_BUGS, type PlantedBug } from './planted-bugs';
import { runWorkload } from './run';
import { shrink } from './shrink';
import { generateWorkload, type Step } from './workload';

/** The CI budget: seeds and steps that fit in about two minutes on the 2-core machine. */
const CI_SEEDS = Number(process.env.SIM_SEEDS ?? 10);
const CI_STEPS = 50;

describe('Simulation: the CI budget of seeds holds every invariant', function () {
  this.timeout(600_000);

  it(`on SQLite, seeds 1 to ${CI_SEEDS}, ${CI_STEPS} steps each`, async () => {
    const lines: string[] = [];
    const report = await simulate({ seeds: CI_SEEDS, seed: 1, steps: CI_STEPS, store: 'sqlite', shrink: false }, (line) => lines.push(line));
    expect(report.failed, lines.join('\n')).to.equal(null);
    expect(report.passed).to.equal(CI_SEEDS);
  });

  describe('on PostgreSQL', function () {
    requirePostgres(this);
    it('seed 1', async () => {
      const lines: string[] = [];
      const report = await simulate({ seeds: 1, seed: 1, steps: 40, store: 'postgres', shrink: false }, (line) => lines.push(line));
      expect(report.failed, lines.join('\n')).to.equal(null);
    });
  });
});

describe('Simulation: planted bugs are caught within 200 seeds', function () {
  this.timeout(900_000);
  const caughtBy: Record<PlantedBug, (keyof typeof INVARIANTS)[]> = {
    'refund-beyond-settled': ['amounts'],
    'hold-kept-on-decline': ['payoutBalance', 'holdsReleased'],
    'callback-skipped-after-store-error': ['callbacks'],
  };

  for (const bug of PLANTED_BUGS) {
    it(`${bug}: caught by ${caughtBy[bug].join(' or ')}`, async () => {
      const unplant = plant(bug);
      try {
        for (let seed = 1; seed <= 200; seed++) {
          const result = await runWorkload(generateWorkload(seed, 40), { seed, store: 'sqlite' });
          if (result.ok) continue;
          expect(caughtBy[bug], `seed ${seed}: ${result.failure!.detail}`).to.include(result.failure!.invariant);
          return;
        }
        expect.fail(`${bug} was not caught within 200 seeds`);
      } finally {
        unplant();
      }
    });
  }

  it('a failure shrinks to a shorter step list that still breaks the same invariant, and fails again when replayed', async () => {
    const unplant = plant('hold-kept-on-decline');
    try {
      let seed = 1;
      let steps: Step[] = [];
      let result = await runWorkload((steps = generateWorkload(seed, 40)), { seed, store: 'sqlite' });
      while (result.ok && seed < 200) result = await runWorkload((steps = generateWorkload(++seed, 40)), { seed, store: 'sqlite' });
      expect(result.ok).to.equal(false);
      const shrunk = await shrink(steps, result, (candidate) => runWorkload(candidate, { seed, store: 'sqlite' }), 10);
      expect(shrunk.steps.length).to.be.below(steps.length);
      const again = await runWorkload(shrunk.steps, { seed, store: 'sqlite' });
      expect(again.failure?.invariant).to.equal(result.failure!.invariant);
    } finally {
      unplant();
    }
  });
});

describe('Simulation: bugs it found stay fixed', function () {
  this.timeout(300_000);

  // Kept as the step lists that found them: the workload's generator may change, these do not.
  for (const file of readdirSync(join(__dirname, 'regressions')).filter((f) => f.endsWith('.json'))) {
    const kept = JSON.parse(readFileSync(join(__dirname, 'regressions', file), 'utf8')) as { seed: number; found: string; steps: Step[] };
    it(`seed ${kept.seed}: ${kept.found} (${file})`, async () => {
      const result = await runWorkload(kept.steps, { seed: kept.seed, store: 'sqlite' });
      expect(result.failure, result.failure?.detail).to.equal(undefined);
    });
  }

});

describe('npm run simulate: its flags', function () {
  it('takes --seeds, --seed, --steps and --store; one --seed alone runs that seed', () => {
    expect(parseSimulateArgs(['--seed', '42', '--steps', '10', '--store', 'postgres'])).to.include({ seed: 42, seeds: 1, steps: 10, store: 'postgres' });
    expect(parseSimulateArgs(['--seeds', '10000', '--seed', '5'])).to.include({ seed: 5, seeds: 10000 });
  });

  it('refuses an unknown flag or a wrong value by name', () => {
    expect(parseSimulateArgs(['--seedz', '1'])).to.match(/unknown flag --seedz/);
    expect(parseSimulateArgs(['--store', 'mysql'])).to.match(/--store is sqlite or postgres/);
    expect(parseSimulateArgs(['--steps', 'ten'])).to.match(/--steps takes a whole number/);
  });

  it('draws the same workload from the same seed, and another from another', () => {
    expect(generateWorkload(9, 30)).to.deep.equal(generateWorkload(9, 30));
    expect(generateWorkload(9, 30)).to.not.deep.equal(generateWorkload(10, 30));
  });
});
