/**
 * `merchant create|update` and the dashboard's merchant forms read settings with one parser
 * (src/application/merchant-settings-input.ts): for each setting the CLI refuses, it says
 * `--<setting> <message>`, and the dashboard `<Label> <message>.`, with the same message.
 */
import { expect } from 'chai';
import { MERCHANT_SETTINGS, parseMerchantSettings, type MerchantSettingsInput } from '../../src/application/merchant-settings-input';
import { merchantHelp } from '../../src/cli/merchant-help';
import { runCli } from '../support/cli-in-process';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';

/** One bad value per setting the dashboard's form posts as typed (checkbox lists are not typed). */
const BAD: Array<[keyof MerchantSettingsInput & string, string, string]> = [
  ['payment-mode', 'MONTHLY', 'Payment mode'],
  ['notification-url', 'ftp://shop.example/cb', 'Notification URL'],
  ['ip-allowlist', '10.0.0.0/33', 'IP allowlist'],
  ['refunds', 'maybe', 'Refunds'],
  ['card-on-file', 'yes', 'Card on file'],
  ['link-target', '_window', 'Link target'],
  ['methods', ',', 'Alternative methods'],
];

const messageOf = (setting: keyof MerchantSettingsInput & string, value: string): string => {
  const parsed = parseMerchantSettings({ [setting]: value }, { forUpdate: false });
  if (parsed.ok) throw new Error(`${setting}=${value} was accepted`);
  return parsed.problems[0].message;
};

describe('Merchant settings: the CLI and the dashboard agree', function () {
  let t: TestGateway;
  let cookie: string;
  before(async () => {
    t = await startTestGateway({ kind: 'sqlite' });
    const signedIn = await t.request('/dashboard/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: t.gateway.adminToken }),
    });
    cookie = signedIn.headers.get('set-cookie')!.split(';')[0];
  });
  after(async () => t?.stop());

  for (const [setting, value, label] of BAD) {
    it(`Given ${setting} ${JSON.stringify(value)}, then the CLI and the dashboard refuse it with the same message`, async () => {
      const message = messageOf(setting, value);
      const cli = await runCli(['merchant', 'create', '--name', 'Shop', `--${setting}`, value]);
      expect(cli.code).to.equal(2);
      expect(cli.stderr.trim()).to.equal(`--${setting} ${message}`);

      const page = await t.request('/dashboard/merchants/new', { headers: { cookie } });
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
      const form = new URLSearchParams({ _csrf: csrf, name: 'Shop', 'payment-mode': 'SMS', refunds: 'on', 'card-on-file': 'off', [setting]: value });
      const refused = await t.request('/dashboard/merchants', { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: form });
      expect(refused.status).to.equal(400);
      const escaped = `${label} ${message}.`.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      expect(refused.text).to.include(escaped);
    });
  }

  it('Given the settings the parser reads, then the CLI\'s help names every one of them as a flag', () => {
    for (const setting of MERCHANT_SETTINGS) expect(merchantHelp.usage, setting).to.include(`--${setting} `);
  });
});
