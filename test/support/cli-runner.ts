/**
 * The gateway's CLI as a real process, the way an operator runs it (through the launcher that
 * `npm run gateway` runs, so the compiled dist/ rather than the TypeScript sources), against a data
 * directory of the suite's own (made before the suite, removed after it). Call inside `describe`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const ROOT = path.resolve(__dirname, '../..');
const LAUNCHER = path.join(ROOT, 'src/cli/launch.cjs');

/** Runs `npm run gateway -- <args>`; `dataDir` is the suite's data directory (its SQLite files). */
export type Cli = ((...args: string[]) => CliResult) & { readonly dataDir: string };

export function cliWithDataDir(prefix: string, { timeoutMs = 60_000 }: { timeoutMs?: number } = {}): Cli {
  let dataDir = '';
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const run = (...args: string[]): CliResult => {
    const r = spawnSync(process.execPath, [LAUNCHER, 'cli', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error', EVENT_STORE: 'sqlite', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: timeoutMs,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return Object.defineProperty(run, 'dataDir', { get: () => dataDir }) as Cli;
}
