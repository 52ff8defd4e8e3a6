/**
 * Node arguments that run the gateway or its CLI as `npm start` and `npm run gateway --` do: through
 * the launcher, which runs the compiled dist/ in its own process when given the node options the
 * command needs. A process started this way starts in about a second instead of compiling the
 * sources first, and its PID is the command's own (signals reach it, as they do a deployed one).
 */
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const LAUNCHER = path.join(ROOT, 'src/cli/launch.cjs');
const flags = require('../../src/cli/command-node-flags.cjs') as {
  nodeFlagsFor(args: string[]): string[];
  gatewayNodeFlags(): string[];
};

/** `npm run gateway -- <args>`, for spawn(process.execPath, cliArgv(...)). */
export function cliArgv(...args: string[]): string[] {
  return [...flags.nodeFlagsFor(args), LAUNCHER, 'cli', ...args];
}

/** `npm start <args>`, for spawn(process.execPath, gatewayArgv(...)). */
export function gatewayArgv(...args: string[]): string[] {
  return [...flags.gatewayNodeFlags(), LAUNCHER, 'main', ...args];
}
