/**
 * The CLI's `run` in this process, its output captured: for tests of what a command does and says,
 * which would otherwise take a process start per call (the process itself, its exit, signals and
 * file modes, is covered by the tests that use cli-runner.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../../src/cli/index';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run gateway -- <argv>` in this process with `env` set for its duration. */
export async function runCli(argv: string[], env: Record<string, string | undefined> = {}): Promise<InProcessResult> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const out: string[] = [];
  const err: string[] = [];
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => (out.push(String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (err.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    const code = await run(argv);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** `npm run gateway -- <args>` in this process; `dataDir` is the suite's data directory (its SQLite files). */
export type InProcessCli = ((...args: string[]) => Promise<InProcessResult>) & { readonly dataDir: string };

/**
 * The in-process counterpart of cli-runner.ts's `cliWithDataDir`: the same environment, against a
 * data directory of the suite's own (made before the suite, removed after it). Call inside `describe`.
 */
export function inProcessCliWithDataDir(prefix: string): InProcessCli {
  let dataDir = '';
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const cli = (...args: string[]): Promise<InProcessResult> =>
    runCli(args, { DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error', EVENT_STORE: 'sqlite', DATABASE_URL: '' });
  return Object.defineProperty(cli, 'dataDir', { get: () => dataDir }) as InProcessCli;
}
