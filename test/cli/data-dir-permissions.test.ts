/**
 * The data directory holds payer data, stored cards and the vault key. Given a gateway started as
 * `npm start` does (a real process, the usual 022 file mode mask), then its data directory is 0700
 * and every file in it 0600, journals included; given a directory an earlier release left 0755 with
 * 0644 files, then starting the gateway tightens it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startGatewayProcess } from '../support/gateway-process';

/** Starts `npm start`'s entry point, runs `whileUp`, then stops it. */
async function runOnce(dataDir: string, whileUp: () => void = () => undefined): Promise<void> {
  const gateway = await startGatewayProcess(dataDir);
  try {
    whileUp();
  } finally {
    await gateway.stop();
  }
}

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

function loosenedModes(dir: string): Record<string, number> {
  return Object.fromEntries([[dir, modeOf(dir)], ...fs.readdirSync(dir).map((f) => [f, modeOf(path.join(dir, f))])]);
}

describe('The data directory is private to the account that runs the gateway', function () {
  this.timeout(120_000);
  let root: string;
  before(function () {
    if (process.platform === 'win32') this.skip();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-modes-'));
  });
  after(() => root && fs.rmSync(root, { recursive: true, force: true }));

  it('Given a new data directory, when the gateway has run, then the directory is 0700 and every file in it 0600', async () => {
    const dataDir = path.join(root, 'fresh', 'data');
    // Checked while it runs: SQLite's journal files exist only then.
    await runOnce(dataDir, () => {
      const files = fs.readdirSync(dataDir);
      expect(files).to.include.members(['events.db', 'read-models.db', 'vault.db', 'vault.key', 'demo-merchant.json']);
      expect(files.some((f) => f.endsWith('-wal')), `journal files among ${files.join(', ')}`).to.equal(true);
      expect(modeOf(dataDir).toString(8)).to.equal('700');
      for (const file of files) expect(`${file} ${modeOf(path.join(dataDir, file)).toString(8)}`).to.equal(`${file} 600`);
    });
  });

  it('Given a data directory left 0755 with 0644 files, when the gateway starts, then it is tightened to 0700 and 0600', async () => {
    const dataDir = path.join(root, 'older', 'data');
    await runOnce(dataDir);
    fs.chmodSync(dataDir, 0o755);
    // The vault key is refused when others can read it (an older, stricter check): loosen the rest.
    for (const file of fs.readdirSync(dataDir).filter((f) => f !== 'vault.key')) fs.chmodSync(path.join(dataDir, file), 0o644);

    await runOnce(dataDir);

    const modes = loosenedModes(dataDir);
    expect(modes[dataDir].toString(8)).to.equal('700');
    for (const file of fs.readdirSync(dataDir)) expect(`${file} ${modes[file].toString(8)}`).to.equal(`${file} 600`);
  });
});
