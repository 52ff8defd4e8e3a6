/**
 * The simulation's one source of chance: every choice of the workload, the provider, the faults and
 * the merchant's endpoint is drawn from it, so a seed names one run.
 */
import { seededRandom } from '../../src/cli/seed/seeded-random';

export class Random {
  private readonly draw: () => number;

  constructor(readonly seed: number) {
    this.draw = seededRandom(seed);
  }

  next(): number {
    return this.draw();
  }

  chance(p: number): boolean {
    return this.draw() < p;
  }

  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.draw() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.draw() * items.length)]!;
  }

  /** A derived generator, so that one part's extra draws do not shift another's. */
  fork(salt: number): Random {
    return new Random((Math.imul(this.seed ^ 0x9e3779b9, 0x85ebca6b) + salt) >>> 0);
  }

  /**
   * Lets a few other pieces of work run first: how racing requests interleave at the provider is
   * drawn from the seed too.
   */
  async turns(): Promise<void> {
    for (let i = this.int(0, 3); i > 0; i--) await Promise.resolve();
  }
}
