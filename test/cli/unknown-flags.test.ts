/**
 * A mistyped flag must not be ignored: every command refuses a flag its usage does not name, by
 * name, with the nearest one it takes. And `npm run gateway` without `--` lets npm keep the flags as
 * its own settings: the command says where the `--` goes instead of running without them.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COMMANDS } from '../../src/cli/index';
import { runCli } from '../support/cli-in-process';

const ROOT = path.resolve(__dirname, '../..');
const ROLES = ['all', 'api', 'projector', 'notifier', 'scheduler'];

describe('Flags the CLI does not know', function () {
  this.timeout(60_000);
  let parent = '';
  let env: Record<string, string | undefined> = {};
  before(() => {
    parent = mkdtempSync(path.join(tmpdir(), 'gw-flags-'));
    env = { EVENT_STORE: 'sqlite', DATABASE_URL: '', DATA_DIR: path.join(parent, 'data'), npm_lifecycle_event: undefined };
  });
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('merchant list --jsno: refused by name with the flag meant, exit 2, before anything is read or made', async () => {
    const r = await runCli(['merchant', 'list', '--jsno'], env);
    expect(r.code).to.equal(2);
    expect(r.stderr.trim()).to.equal('Unknown flag --jsno for "merchant list". Did you mean --json?');
    expect(r.stdout).to.equal('');
    expect(existsSync(path.join(parent, 'data'))).to.equal(false);
  });

  it('sign sale --passwrd: named as the unknown flag it is, not as a missing --password', async () => {
    const r = await runCli(['sign', 'sale', '--passwrd', 'pw', '--card', '4111111111111111'], env);
    expect(r.code).to.equal(2);
    expect(r.stderr.trim()).to.equal('Unknown flag --passwrd for "sign sale". Did you mean --password?');
  });

  it('a flag of another subcommand is refused, with the flags this one takes', async () => {
    const r = await runCli(['merchant', 'list', '--name', 'Shop'], env);
    expect(r.code).to.equal(2);
    expect(r.stderr.trim()).to.equal('Unknown flag --name for "merchant list". It takes: --json.');
  });

  // The process roles start a gateway when nothing refuses them: they are left to the processes' tests.
  for (const command of COMMANDS.filter((c) => !ROLES.includes(c.name))) {
    for (const sub of [undefined, ...Object.keys(command.subcommands ?? {})]) {
      const argv = [command.name, ...(sub ? [sub] : []), '--no-such-flag'];
      it(`${argv.join(' ')}: refused, exit 2`, async () => {
        const r = await runCli(argv, env);
        expect(r.code, r.stderr).to.equal(2);
        expect(r.stderr).to.match(new RegExp(`^Unknown flag --no-such-flag for "${command.name}${sub ? ` ${sub}` : ''}"\\.`));
      });
    }
  }

  it('the flags a command names pass: sign trans --password --value', async () => {
    const r = await runCli(['sign', 'trans', '--password', 'pw', '--value', 'T1'], env);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.match(/^[0-9a-f]{40}$/);
  });

  describe('npm run gateway without -- before the flags', () => {
    it('refuses when npm kept one of the command\'s flags for itself, saying where the -- goes', async () => {
      const r = await runCli(['merchant', 'list'], { ...env, npm_lifecycle_event: 'gateway', npm_config_json: 'true' });
      expect(r.code).to.equal(2);
      expect(r.stderr.trim()).to.equal('npm kept --json for itself: put -- before the flags: npm run gateway -- merchant list --json');
    });

    it('is not misled by the settings npm passes to every script, nor by flags the command does not take', async () => {
      const npmOwn = {
        npm_lifecycle_event: 'gateway',
        npm_config_cache: '/home/someone/.npm',
        npm_config_prefix: '/usr',
        npm_config_yes: '',
        npm_config_loglevel: 'silent',
        npm_config_user_agent: 'npm/11 node/v20 linux x64 workspaces/false',
        npm_config_json: 'true', // a flag of merchant list, not of sign trans
      };
      const r = await runCli(['sign', 'trans', '--password', 'pw', '--value', 'T1'], { ...env, ...npmOwn });
      expect(r.code, r.stderr).to.equal(0);
    });

    it('really: npm run gateway merchant list --json', () => {
      const r = spawnSync('npm', ['run', 'gateway', 'merchant', 'list', '--json'], {
        cwd: ROOT,
        env: { ...process.env, ...env, npm_lifecycle_event: undefined, DATA_DIR: path.join(parent, 'npm') } as NodeJS.ProcessEnv,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).not.to.equal(0);
      expect(r.stderr).to.include('npm kept --json for itself: put -- before the flags: npm run gateway -- merchant list --json');
    });
  });
});
