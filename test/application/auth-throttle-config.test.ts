import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config';

describe('configuration of the limits on failed authentication', () => {
  it('Given no AUTH_FAILURE_* variables, then 10 per merchant and address, 50 per address, 500 per merchant, per minute, 100000 tracked', () => {
    expect(loadConfig({}).authFailures).to.deep.equal({
      subjectIpLimit: 10,
      ipLimit: 50,
      subjectLimit: 500,
      windowMs: 60_000,
      maxTracked: 100_000,
    });
  });

  it('Given each variable, then it sets its limit; 0 and off turn a counter off', () => {
    const settings = loadConfig({
      AUTH_FAILURE_LIMIT: '5',
      AUTH_FAILURE_IP_LIMIT: 'off',
      AUTH_FAILURE_KEY_LIMIT: '0',
      AUTH_FAILURE_WINDOW: '15m',
      AUTH_FAILURE_TRACKED: '5000',
    }).authFailures;
    expect(settings).to.deep.equal({ subjectIpLimit: 5, ipLimit: 0, subjectLimit: 0, windowMs: 15 * 60_000, maxTracked: 5000 });
  });

  it('Given a window as a bare number, then it is seconds', () => {
    expect(loadConfig({ AUTH_FAILURE_WINDOW: '90' }).authFailures.windowMs).to.equal(90_000);
  });

  it('Given a value that is no count or duration, then the gateway refuses to start, naming the variable', () => {
    for (const [name, value] of [
      ['AUTH_FAILURE_LIMIT', 'ten'],
      ['AUTH_FAILURE_IP_LIMIT', '-1'],
      ['AUTH_FAILURE_KEY_LIMIT', '2000000'],
      ['AUTH_FAILURE_WINDOW', '0'],
      ['AUTH_FAILURE_WINDOW', 'soon'],
      ['AUTH_FAILURE_TRACKED', '10'],
    ]) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).to.throw(ConfigError, name);
    }
  });
});
