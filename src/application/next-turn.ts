/**
 * Lets the event loop run what is waiting (I/O, timers, other work on the same thread) before
 * continuing. A long pass over the log on an embedded store reads synchronously, so without this
 * it holds its thread, and everything else on it, until the pass ends.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
