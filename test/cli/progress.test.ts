/**
 * Progress of long commands: one line rewritten on a terminal's stderr with the count, the rate
 * and the time left; nothing with --json or when stderr is not a terminal.
 */
import { expect } from 'chai';
import { progressLine, startProgress } from '../../src/cli/progress';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { cliWithDataDir } from '../support/cli-runner';

describe('CLI progress', function () {
  describe('the line', () => {
    it('Given a quarter done in 10 s, then it says the count, the share, the rate and about 30 s left', () => {
      expect(progressLine({ label: 'Replaying', unit: 'events', done: 25_000, total: 100_000, elapsedMs: 10_000 })).to.equal(
        'Replaying: 25,000 / 100,000 events (25%), 2,500 events/s, about 30 s left',
      );
    });

    it('Given a share known from positions rather than a total, then it estimates from the share', () => {
      expect(progressLine({ label: 'Verifying', unit: 'events', done: 5_000, fraction: 0.5, elapsedMs: 120_000 })).to.equal(
        'Verifying: 5,000 events (50%), 42 events/s, about 2 min 0 s left',
      );
    });
  });

  describe('where it is written', () => {
    const recorder = (isTTY: boolean) => {
      const written: string[] = [];
      return { stream: { isTTY, write: (text: string) => written.push(text) }, written };
    };

    it('Given a terminal, then updates rewrite one line (no faster than the interval) and finish ends it', () => {
      let now = 0;
      const { stream, written } = recorder(true);
      const progress = startProgress({ label: 'Seeding', unit: 'events', total: 10, json: false, stream, now: () => now, intervalMs: 200 });
      progress.update(1);
      now = 100;
      progress.update(2);
      now = 400;
      progress.update(5);
      progress.finish();
      expect(written.filter((w) => w.startsWith('\r'))).to.have.length(3);
      expect(written[written.length - 1]).to.equal('\n');
      expect(written[written.length - 2]).to.include('Seeding: 5 / 10 events (50%)');
    });

    for (const [what, isTTY, json] of [['--json', true, true], ['a pipe', false, false]] as const) {
      it(`Given ${what}, then nothing is written`, () => {
        const { stream, written } = recorder(isTTY);
        const progress = startProgress({ label: 'Seeding', unit: 'events', total: 10, json, stream });
        progress.update(5);
        progress.finish();
        expect(written).to.deep.equal([]);
      });
    }
  });

  describe('the commands on a terminal', function () {
    this.timeout(180_000);
    const cli = cliWithDataDir('gw-progress-tty-');
    /** Runs the CLI under a pseudo-terminal (util-linux `script`): stdout and stderr both land in what it prints. */
    const onTerminal = (...args: string[]) => {
      const command = ['node_modules/.bin/tsx', 'src/cli/index.ts', ...args].map((a) => `'${a}'`).join(' ');
      const r = spawnSync('script', ['-qec', command, '/dev/null'], {
        cwd: path.resolve(__dirname, '../..'),
        env: { ...process.env, DATA_DIR: cli.dataDir, GATEWAY_LOG_LEVEL: 'error', EVENT_STORE: 'sqlite', DATABASE_URL: '' },
        encoding: 'utf8',
        timeout: 120_000,
      });
      return { code: r.status, output: r.stdout };
    };
    before(function () {
      if (spawnSync('script', ['--version']).status !== 0) this.skip();
    });

    it('Given a terminal, then seed, projections rebuild and audit verify each show their progress, then their results as before', () => {
      const seed = onTerminal('seed', '--events', '300', '--merchants', '1');
      expect(seed.code, seed.output).to.equal(0);
      expect(seed.output).to.match(/\r\x1b\[2KSeeding: [\d,]+ \/ [\d,]+ events \(\d+%\)/);
      expect(seed.output).to.match(/\nSeeded \d+ events/);

      const rebuild = onTerminal('projections', 'rebuild');
      expect(rebuild.code, rebuild.output).to.equal(0);
      expect(rebuild.output).to.match(/Replaying: [\d,]+ events \(100%\)/);
      expect(rebuild.output).to.match(/\nRebuilt /);

      const verify = onTerminal('audit', 'verify');
      expect(verify.code, verify.output).to.equal(0);
      expect(verify.output).to.match(/Verifying: [\d,]+ events \(100%\)/);
      expect(verify.output).to.match(/\nOK: \d+ events/);
    });

    it('Given --json on a terminal, then only the JSON is printed', () => {
      const verify = onTerminal('audit', 'verify', '--json');
      expect(verify.code, verify.output).to.equal(0);
      expect(verify.output).not.to.include('Verifying');
      expect(JSON.parse(verify.output)).to.include({ ok: true });
    });
  });

  describe('as a process writing to a pipe', () => {
    const cli = cliWithDataDir('gw-progress-pipe-');
    it('Given stderr is a pipe, then seed and audit verify write no progress to it', function () {
      this.timeout(120_000);
      const seed = cli('seed', '--events', '200', '--merchants', '1');
      expect(seed.code, seed.stderr).to.equal(0);
      expect(seed.stderr).to.equal('');
      const verify = cli('audit', 'verify');
      expect(verify.code, verify.stderr).to.equal(0);
      expect(verify.stderr).to.equal('');
    });
  });
});
