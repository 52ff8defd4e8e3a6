// Loaded by mocha before any spec (in each parallel worker too): keeps test runs quiet and deterministic.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

process.env.GATEWAY_LOG_LEVEL ??= 'silent';

/**
 * Once per run, before the workers start: compiles dist/ if the sources changed since it was built,
 * so the CLI processes the tests start (cli-runner.ts) find it ready instead of each compiling it.
 */
export function mochaGlobalSetup(): void {
  const root = path.resolve(__dirname, '../..');
  spawnSync(process.execPath, [path.join(root, 'src/cli/launch.cjs'), 'cli', 'help'], { cwd: root, stdio: 'ignore', timeout: 120_000 });
}
