/**
 * `merchant create|update --notification-url`, as an operator runs it: a production gateway refuses
 * a default URL that points inside (in any spelling) with a usage error, so the merchant is not
 * stored with it; the sandbox, and an operator who lifted the rule, still accept it.
 */
import { expect } from 'chai';
import { cliWithDataDir, type CliResult } from '../support/cli-runner';

/** Runs `fn` with these variables in the environment the CLI process inherits. */
function withEnv(vars: Record<string, string>, fn: () => CliResult): CliResult {
  const previous = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return fn();
  } finally {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

const PRODUCTION = { GATEWAY_ENV: 'production', CALLBACK_ALLOW_PRIVATE_NETWORKS: '' };

describe('merchant CLI: --notification-url in production', function () {
  this.timeout(120_000);
  const cli = cliWithDataDir('gw-notification-url-');

  it('refuses an IPv4-mapped loopback URL on create with exit 2, and stores no merchant', () => {
    const r = withEnv(PRODUCTION, () => cli('merchant', 'create', '--name', 'Shop', '--notification-url', 'http://[::ffff:127.0.0.1]/cb'));
    expect(r.code, r.stderr).to.equal(2);
    expect(r.stderr).to.include('--notification-url http://[::ffff:127.0.0.1]/cb: The URL must point to a public address.');
    expect(r.stderr).to.match(/CALLBACK_ALLOW_PRIVATE_NETWORKS=true/);
    const list = withEnv(PRODUCTION, () => cli('merchant', 'list', '--json'));
    expect(JSON.parse(list.stdout)).to.deep.equal([]);
  });

  it('refuses a metadata-service URL on update with exit 2, and keeps the merchant as it was', () => {
    const created = withEnv(PRODUCTION, () => cli('merchant', 'create', '--name', 'Shop', '--json'));
    expect(created.code, created.stderr).to.equal(0);
    const id: string = JSON.parse(created.stdout).merchant_id;
    const r = withEnv(PRODUCTION, () => cli('merchant', 'update', id, '--notification-url', 'http://[::ffff:169.254.169.254]/'));
    expect(r.code, r.stderr).to.equal(2);
    expect(r.stderr).to.include('The URL must point to a public address.');
    const shown = withEnv(PRODUCTION, () => cli('merchant', 'show', id, '--json'));
    expect(JSON.parse(shown.stdout).notification_url).to.equal(null);
  });

  it('accepts it when the operator allows private networks, and in the sandbox', () => {
    const lifted = withEnv({ GATEWAY_ENV: 'production', CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' }, () =>
      cli('merchant', 'create', '--name', 'Lab', '--notification-url', 'http://[::ffff:127.0.0.1]:3000/cb'),
    );
    expect(lifted.code, lifted.stderr).to.equal(0);
    const sandbox = withEnv({ GATEWAY_ENV: 'sandbox', CALLBACK_ALLOW_PRIVATE_NETWORKS: '' }, () =>
      cli('merchant', 'create', '--name', 'Dev', '--notification-url', 'http://127.0.0.1:3000/cb'),
    );
    expect(sandbox.code, sandbox.stderr).to.equal(0);
  });
});
