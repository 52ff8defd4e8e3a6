/**
 * `npm start` as a real process (the launcher running the compiled gateway in its own process, with
 * the node options `npm start` gives it), against a data directory of the test's choosing: for what
 * only a whole process shows (file modes, exit codes, the banner, signals).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { gatewayArgv } from './launcher';

const ROOT = path.resolve(__dirname, '../..');

export interface GatewayProcess {
  baseUrl: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/** Resolves once the banner names the base URL; rejects with the output if the process exits first. */
export async function startGatewayProcess(dataDir: string, args: string[] = [], env: Record<string, string> = {}): Promise<GatewayProcess> {
  const child = spawnGateway(dataDir, args, env);
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk) => (out += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 60_000;
  while (!/listening on (http:\/\/\S+)/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`gateway did not start (exit ${child.exitCode}):\n${out}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { baseUrl: /listening on (http:\/\/\S+)/.exec(out)![1], output: () => out, stop };
}

/** Runs the gateway until it exits by itself (a refused start); resolves with its exit code and output. */
export function runGatewayToExit(dataDir: string, args: string[] = [], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<{ code: number | null; output: string }> {
  const child = spawnGateway(dataDir, args, env);
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk) => (out += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: out });
    });
  });
}

function spawnGateway(dataDir: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, gatewayArgv(...args), {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', GATEWAY_LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
