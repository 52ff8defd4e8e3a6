/**
 * `npm start` and `npm run gateway` run JavaScript compiled into dist/ (src/cli/launch.cjs), built
 * on first use and again whenever a source changes. Run against a copy of the sources, so the
 * repository's own dist/ is left alone.
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A process's parent, from /proc (Linux); null once it has gone. */
function parentOf(pid: string): number | null {
  try {
    // The command name in parentheses may hold spaces; the parent's id is the second field after it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** A process's children, from /proc (Linux). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && parentOf(entry) === pid)
    .map(Number);
}

const ROOT = path.resolve(__dirname, '../..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function until(what: string, ok: () => boolean | Promise<boolean>, output: () => string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('The launcher of npm start and npm run gateway', function () {
  this.timeout(120_000);
  let copy = '';
  let dataDir = '';

  before(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'gw-launch-'));
    dataDir = path.join(copy, 'data');
    for (const entry of ['src', 'projections', 'package.json', 'tsconfig.json']) cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  });
  after(() => rmSync(copy, { recursive: true, force: true }));

  const launch = (...args: string[]) =>
    spawnSync(process.execPath, ['src/cli/launch.cjs', ...args], {
      cwd: copy,
      env: { ...process.env, DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'error', EVENT_STORE: 'sqlite' },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('compiles dist/ on first use, not again while the sources are unchanged, and again after a change', () => {
    const first = launch('cli', 'sign', 'sale', '--password', '13a4822c5907ed235f3a068c76184fc3', '--card', '4111111111111111', '--email', 'doe@example.com');
    expect(first.status, first.stderr).to.equal(0);
    expect(first.stdout.trim()).to.equal('2702ae0c4f99506dc29b5615ba9ee3c0');
    expect(first.stderr).to.match(/Compiling src\/ into dist\//);
    expect(existsSync(path.join(copy, 'dist/src/cli/index.js'))).to.equal(true);

    const second = launch('cli', 'help');
    expect(second.status).to.equal(0);
    expect(second.stderr).to.equal('');

    appendFileSync(path.join(copy, 'src/cli/help.ts'), '\n// changed\n');
    const third = launch('cli', 'help');
    expect(third.status).to.equal(0);
    expect(third.stderr).to.match(/Compiling src\/ into dist\//);
  });

  it('passes exit codes through', () => {
    const refused = launch('cli', 'merchant', 'list');
    expect(refused.status).to.equal(2);
    expect(refused.stderr).to.include(`No gateway data in ${dataDir} (DATA_DIR).`);
  });

  it('starts the gateway from dist/ (worker threads included), which stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['src/cli/launch.cjs', 'main'], {
      cwd: copy,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', GATEWAY_LOG_LEVEL: 'error', EVENT_STORE: 'sqlite' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.stderr!.on('data', (chunk) => (out += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 60_000;
      while (!/listening on (http:\/\/\S+)/.test(out)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`did not start:\n${out}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const baseUrl = /listening on (http:\/\/\S+)/.exec(out)![1];
      const health = await fetch(`${baseUrl}/health`);
      expect(health.status).to.equal(200);
      expect(((await health.json()) as { status: string }).status).to.equal('ok');
      if (process.platform === 'linux') {
        // The gateway is the launcher's child; its command line carries the options it was given.
        const gateway = readdirSync('/proc').find((pid) => /^\d+$/.test(pid) && parentOf(pid) === child.pid);
        expect(gateway, 'the gateway process').to.be.a('string');
        expect(readFileSync(`/proc/${gateway}/cmdline`, 'utf8').split('\0')).to.include('--single-threaded-gc');
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).to.equal(0);
  });

  // npm passes SIGTERM on to the shell it runs the script with, and nothing else; a terminal's Ctrl-C
  // reaches the whole process group. Whichever gets it, the gateway stops cleanly.
  const cases: Array<{ signal: NodeJS.Signals; to: string; pid(npm: number): number }> = [
    { signal: 'SIGTERM', to: "npm's own process", pid: (npm) => npm },
    { signal: 'SIGTERM', to: 'the shell npm runs the script with', pid: (npm) => childrenOf(npm)[0] },
    { signal: 'SIGINT', to: 'the whole process group, as Ctrl-C in a terminal', pid: (npm) => -npm },
  ];
  for (const { signal, to, pid } of cases) {
    it(`stops the gateway of npm start cleanly on ${signal} to ${to}`, async () => {
      // Given `npm start`, in a process group of its own so that whatever it leaves behind can be ended
      const port = await freePort();
      const npm = spawn('npm', ['start'], {
        cwd: copy,
        env: { ...process.env, DATA_DIR: path.join(copy, `data-${port}`), PORT: String(port), GATEWAY_LOG_LEVEL: 'info', EVENT_STORE: 'sqlite' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let out = '';
      npm.stdout!.on('data', (chunk) => (out += chunk));
      npm.stderr!.on('data', (chunk) => (out += chunk));
      try {
        await until('the gateway', () => /listening on http/.test(out), () => out);
        expect(await listening(port)).to.equal(true);

        // When the signal is sent
        process.kill(pid(npm.pid!), signal);

        // Then the gateway logs that it shuts down and the port is free again
        await until('the port to be freed', async () => !(await listening(port)), () => out, 20_000);
        await until('the shutdown line', () => out.includes('"message":"shutting down"'), () => out, 5_000);
      } finally {
        try {
          process.kill(-npm.pid!, 'SIGKILL');
        } catch {
          // all gone already
        }
      }
    });
  }

  it('runs the gateway in its own process when started with the options it needs, as npm start does', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const { gatewayNodeFlags } = require('../../src/cli/command-node-flags.cjs') as { gatewayNodeFlags(): string[] };
    expect(scripts.start).to.equal(['node', ...gatewayNodeFlags(), 'src/cli/launch.cjs', 'main'].join(' '));
  });
});
