/** The seeded mix of `seed`: the same seed gives the same payments, scenario by scenario. */

/** Deterministic, so two seeded stores have the same mix. */
export function seededRandom(seed = 0x5eed): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The draws a seeded payment is made of, all from one source of randomness. */
export interface Dice {
  random: () => number;
  pick<T>(items: readonly T[]): T;
  /** An integer from `low` to `high`, both included. */
  between(low: number, high: number): number;
}

export function diceOf(random: () => number): Dice {
  return {
    random,
    pick: <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)],
    between: (low: number, high: number): number => low + Math.floor(random() * (high - low + 1)),
  };
}

export function weighted<T>(random: () => number, options: ReadonlyArray<readonly [T, number]>): T {
  const total = options.reduce((n, [, w]) => n + w, 0);
  let roll = random() * total;
  for (const [value, weight] of options) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return options[options.length - 1][0];
}
