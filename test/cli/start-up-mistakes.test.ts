/**
 * A start that cannot work says so in one line naming the fix, exits 2, and changes nothing on disk:
 * no data directory, no vault key, no demo merchant whose credentials would never be printed.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runGatewayToExit } from '../support/gateway-process';
import { runCli } from '../support/cli-in-process';

const SQLITE = { EVENT_STORE: 'sqlite', DATABASE_URL: '' };

async function occupyPort(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: Server) => (server.address() as { port: number }).port;

/** The whole output is one line, with no stack trace. */
function oneLine(output: string): string {
  const lines = output.trim().split('\n');
  expect(lines, output).to.have.length(1);
  expect(output).not.to.match(/^\s+at /m);
  return lines[0];
}

describe('Start-up mistakes', function () {
  this.timeout(60_000);
  let parent = '';
  let busy: Server;
  before(async () => {
    parent = mkdtempSync(path.join(tmpdir(), 'gw-start-mistakes-'));
    busy = await occupyPort();
  });
  after(() => {
    busy.close();
    rmSync(parent, { recursive: true, force: true });
  });

  it('a port in use: one line naming the port and PORT, exit 2, and no data directory made', async () => {
    const dataDir = path.join(parent, 'port-in-use');
    const r = await runGatewayToExit(dataDir, [], { ...SQLITE, PORT: String(portOf(busy)), HOST: '127.0.0.1' });
    expect(r.code, r.output).to.equal(2);
    const line = oneLine(r.output);
    expect(line).to.include(`port ${portOf(busy)} on 127.0.0.1 (PORT) is in use`);
    expect(line).to.match(/PORT=\d+/);
    expect(existsSync(dataDir), 'data directory').to.equal(false);
  });

  it('a METRICS_PORT in use: the same, naming METRICS_PORT', async () => {
    const dataDir = path.join(parent, 'metrics-port-in-use');
    const r = await runGatewayToExit(dataDir, [], { ...SQLITE, METRICS_PORT: String(portOf(busy)), METRICS_HOST: '127.0.0.1' });
    expect(r.code, r.output).to.equal(2);
    const line = oneLine(r.output);
    expect(line).to.include(`port ${portOf(busy)} on 127.0.0.1 (METRICS_PORT) is in use`);
    expect(line).to.match(/METRICS_PORT=\d+/);
    expect(existsSync(dataDir), 'data directory').to.equal(false);
  });

  it('a VAULT_KEY that is not a key: one line saying what it must be, exit 2, and no data directory made', async () => {
    const dataDir = path.join(parent, 'bad-vault-key');
    const r = await runGatewayToExit(dataDir, [], { ...SQLITE, VAULT_KEY: 'abc' });
    expect(r.code, r.output).to.equal(2);
    const line = oneLine(r.output);
    expect(line).to.include('VAULT_KEY must be 64 hexadecimal characters');
    expect(line).to.include('unset it to use DATA_DIR/vault.key');
    expect(existsSync(dataDir), 'data directory').to.equal(false);
  });

  it('a vault key file that holds no key: one line naming the file, exit 2', async () => {
    const dataDir = path.join(parent, 'broken-key-file');
    mkdirSync(dataDir, { mode: 0o700 });
    writeFileSync(path.join(dataDir, 'vault.key'), 'not a key\n', { mode: 0o600 });
    const r = await runGatewayToExit(dataDir, [], SQLITE, 30_000);
    expect(r.code, r.output).to.equal(2);
    expect(oneLine(r.output)).to.include(`Vault key file ${path.join(dataDir, 'vault.key')} must be 64 hexadecimal characters`);
  });

  it('the CLI refuses a VAULT_KEY that is not a key the same way', async () => {
    const r = await runCli(['merchant', 'list'], { ...SQLITE, DATA_DIR: path.join(parent, 'cli'), VAULT_KEY: 'abc' });
    expect(r.code).to.equal(2);
    expect(oneLine(r.stderr)).to.include('VAULT_KEY must be 64 hexadecimal characters');
  });

  it('callbacks listen on a port in use: one line suggesting --port, exit 2', async () => {
    const r = await runCli(['callbacks', 'listen', '--port', String(portOf(busy))], { ...SQLITE, DATA_DIR: path.join(parent, 'listen') });
    expect(r.code).to.equal(2);
    const line = oneLine(r.stderr);
    expect(line).to.include(`Port ${portOf(busy)} on 127.0.0.1 is in use`);
    expect(line).to.include('--port');
  });
});
