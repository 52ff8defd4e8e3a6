/** `--help` on every command and subcommand, and `help`: what a newcomer types first. */
import { expect } from 'chai';
import { COMMANDS } from '../../src/cli/index';
import { helpText } from '../../src/cli/help';
import { clockHelp } from '../../src/cli/clock-command';
import { merchantHelp } from '../../src/cli/merchant-help';
import { cliWithDataDir } from '../support/cli-runner';
import { runCli } from '../support/cli-in-process';

describe('npm run gateway -- <command> --help', () => {
  const cases = COMMANDS.flatMap((c) => [[c.name], ...Object.keys(c.subcommands ?? {}).map((sub) => [c.name, sub])]);

  for (const words of cases) {
    it(`${words.join(' ')} --help prints its usage and exits 0`, async () => {
      // Given no gateway data at all (help must not need any, nor create any)
      const r = await runCli([...words, '--help'], { DATA_DIR: '/nonexistent/gateway-help-test' });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.match(/^usage: npm run gateway -- /);
      expect(r.stdout).to.include(`npm run gateway -- ${words.join(' ')}`);
      expect(r.stderr).to.equal('');
    });
  }

  it('-h works like --help', async () => {
    const r = await runCli(['clock', 'advance', '-h']);
    expect(r.code).to.equal(0);
    expect(r.stdout.trim()).to.equal(helpText(clockHelp, 'advance'));
  });

  it('a usage error prints the same usage as --help, after saying what was wrong', async () => {
    const bad = await runCli(['clock', 'advance', 'soon'], { DATA_DIR: '/nonexistent/gateway-help-test' });
    const help = await runCli(['clock', 'advance', '--help']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.equal(`Not a duration: "soon"\n\n${help.stdout}`);

    const none = await runCli(['clock']);
    expect(none.code).to.equal(2);
    expect(none.stderr.trim()).to.equal(helpText(clockHelp));
  });

  it('help and no arguments list every command one per line, each with a one-line description', async () => {
    for (const argv of [['help'], []]) {
      const r = await runCli(argv);
      expect(r.code).to.equal(0);
      const lines = r.stdout.split('\n');
      for (const c of COMMANDS) {
        const line = lines.find((l) => l.trim().startsWith(`${c.name} `));
        expect(line, c.name).to.match(new RegExp(`^  ${c.name} +\\S`));
        expect(line).to.include(c.summary);
      }
    }
    expect((await runCli(['help', 'merchant', 'create'])).stdout.trim()).to.equal(helpText(merchantHelp, 'create'));
  });

  it('an unknown command is a usage error that lists the commands', async () => {
    const r = await runCli(['merchants']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/^Unknown command: merchants/);
    expect(r.stderr).to.match(/^ {2}merchant +create, list/m);
  });
});

describe('npm run gateway -- merchant create --help, as a process', function () {
  this.timeout(60_000);
  const cli = cliWithDataDir('gw-help-');

  it('prints the flags of merchant create and exits 0 instead of asking for --name', () => {
    const r = cli('merchant', 'create', '--help');
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.include('usage: npm run gateway -- merchant create --name N');
    expect(r.stdout).to.include('--notification-url U');
    expect(r.stderr).not.to.match(/needs --name/);
  });
});
