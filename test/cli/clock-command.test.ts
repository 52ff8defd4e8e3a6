/** `npm run gateway -- clock show|advance`, as an operator runs it. */
import { expect } from 'chai';
import { cliWithDataDir } from '../support/cli-runner';

describe('npm run gateway -- clock, as a process', function () {
  this.timeout(120_000);
  const cli = cliWithDataDir('gw-clock-');

  it('shows the gateway time, moves it forward by a duration and keeps the move for the next process', () => {
    const before = cli('clock', 'show', '--json');
    expect(before.code, before.stderr).to.equal(0);
    expect(JSON.parse(before.stdout).offset_ms).to.be.lessThan(60_000);

    const moved = cli('clock', 'advance', '2d');
    expect(moved.code, moved.stderr).to.equal(0);
    expect(moved.stdout).to.match(/Gateway time moved 2d 0h 0m forward, from \S+ to \S+\./);

    const after = cli('clock', 'show', '--json');
    expect(JSON.parse(after.stdout).offset_ms).to.be.within(2 * 86_400_000 - 60_000, 2 * 86_400_000 + 60_000);
  });

  it('refuses a duration it cannot read with usage and exit 2', () => {
    const r = cli('clock', 'advance', 'soon');
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/usage: clock show \| clock advance/);
  });

  it('refuses in production with exit 1', () => {
    const previous = process.env.GATEWAY_ENV;
    process.env.GATEWAY_ENV = 'production';
    try {
      const r = cli('clock', 'advance', '1d');
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(/sandbox only/);
    } finally {
      if (previous === undefined) delete process.env.GATEWAY_ENV;
      else process.env.GATEWAY_ENV = previous;
    }
  });
});
