/**
 * Child-process plumbing for the benchmark: free ports, starting a server under the project's
 * TypeScript loader, waiting until it answers, and stopping it (gracefully, then by force).
 * Every child and temp dir is registered so `cleanupAll` can remove them on any exit path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export class BenchFailure extends Error {}

export interface ServerChild {
  name: string;
  child: ChildProcess;
  port: number;
  baseUrl: string;
  /** The last 64 KiB the child wrote to stdout and stderr, for diagnostics. */
  output(): string;
  exited(): boolean;
}

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

export function makeTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/** Asks the kernel for a free port on the loopback interface. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = address && typeof address === 'object' ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('could not pick a free port'))));
    });
  });
}

export interface StartOptions {
  name: string;
  /** Script path relative to the repository root: `node --import tsx <script>` for .ts, `node <script>` for compiled .js. */
  script: string;
  env: NodeJS.ProcessEnv;
  port: number;
  host?: string;
  /** Extra node flags (e.g. CPU profiling). */
  nodeArgs?: string[];
  /** Arguments of the script (e.g. a CLI role). */
  args?: string[];
  /** Default true. A role without HTTP is ready once its banner is printed. */
  waitForHealth?: boolean;
  readyTimeoutMs?: number;
}

/**
 * Starts `node --import tsx <script>`: the same loader `tsx <script>` (what `npm start` runs) uses,
 * in one process instead of a wrapper plus a child, so the pid we signal is the server itself.
 */
export async function startServer(options: StartOptions): Promise<ServerChild> {
  const host = options.host ?? '127.0.0.1';
  // Compiled JavaScript (dist/, what npm start runs) needs no TypeScript loader.
  const loader = options.script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, options.script, ...(options.args ?? [])], {
    cwd: REPO_ROOT,
    env: { ...options.env, PORT: String(options.port), HOST: host },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let buffer = '';
  const keep = (chunk: Buffer) => {
    buffer = (buffer + chunk.toString('utf8')).slice(-64 * 1024);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let hasExited = false;
  let exitInfo = '';
  child.once('exit', (code, signal) => {
    hasExited = true;
    exitInfo = signal ? `signal ${signal}` : `code ${code}`;
    children.delete(child);
  });
  const server: ServerChild = {
    name: options.name,
    child,
    port: options.port,
    baseUrl: `http://${host}:${options.port}`,
    output: () => buffer,
    exited: () => hasExited,
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (hasExited) {
      throw new BenchFailure(`${options.name} exited before it was ready (${exitInfo}). Output:\n${buffer}`);
    }
    if (options.waitForHealth === false ? /no HTTP listener/.test(buffer) : (await healthStatus(server.baseUrl)) === 200) return server;
    await sleep(100);
  }
  throw new BenchFailure(`${options.name} did not answer GET /health within ${options.readyTimeoutMs ?? 60_000} ms. Output:\n${buffer}`);
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { gatewayNodeFlags } = require('../../src/cli/command-node-flags.cjs') as { gatewayNodeFlags(): string[] };

/** The gateway as `npm start` runs it: the compiled JavaScript, with the node options the launcher gives it. */
export function startGateway(options: Omit<StartOptions, 'script'>): Promise<ServerChild> {
  return startServer({ ...options, script: 'dist/src/main.js', nodeArgs: [...gatewayNodeFlags(), ...(options.nodeArgs ?? [])] });
}

function healthStatus(baseUrl: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(`${baseUrl}/health`, { timeout: 1000, agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(0));
  });
}

/** SIGTERM (the server shuts down cleanly and, when profiling, writes its profile), then SIGKILL. */
export async function stopServer(server: ServerChild, graceMs = 15_000): Promise<void> {
  const { child } = server;
  if (server.exited()) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const graceful = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!graceful && !server.exited()) {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Last resort, synchronous so it also works from an 'exit' handler. */
export function cleanupAllSync(): void {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  children.clear();
  for (const dir of tempDirs) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
  tempDirs.clear();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
