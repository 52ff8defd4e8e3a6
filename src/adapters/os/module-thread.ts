/**
 * Starting a module of the gateway on a thread of its own, whether the process runs the compiled
 * JavaScript (`npm start`) or the TypeScript sources under tsx (tests, tools). A thread does not
 * inherit the loader: one started from a `.ts` file runs its compiled twin in dist/ when dist/ was
 * built from these very sources (loading it takes a fraction of compiling the sources again on
 * every thread), and loads the TypeScript loader first otherwise.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';
const { distIsCurrent, compiledTwin } = require('./dist-build.cjs') as {
  distIsCurrent(): boolean;
  compiledTwin(sourceFile: string): string | null;
};

/** The file a new thread loads to run `file`, and whether it needs the TypeScript loader for it. */
export function threadEntry(file: string): { file: string; needsLoader: boolean } {
  if (!file.endsWith('.ts')) return { file, needsLoader: false };
  const twin = compiledTwin(file);
  if (twin && distIsCurrent()) return { file: twin, needsLoader: false };
  return { file, needsLoader: true };
}

/** Runs `file` (usually the caller's `__filename`) on a new thread with `options`. */
export function startModuleThread(file: string, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const entry = threadEntry(file);
  const bootstrap = `${entry.needsLoader ? "require('tsx/cjs'); " : ''}require(${JSON.stringify(entry.file)});`;
  return new Worker(bootstrap, { ...options, eval: true });
}
