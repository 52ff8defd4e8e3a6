/**
 * Starting a module of the gateway on a thread of its own, whether the process runs the compiled
 * JavaScript (`npm start`) or the TypeScript sources under tsx (tests, tools): a thread does not
 * inherit the loader, so one started from a `.ts` file loads it first.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Runs `file` (usually the caller's `__filename`) on a new thread with `options`. */
export function startModuleThread(file: string, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const bootstrap = `${file.endsWith('.ts') ? "require('tsx/cjs'); " : ''}require(${JSON.stringify(file)});`;
  return new Worker(bootstrap, { ...options, eval: true });
}
