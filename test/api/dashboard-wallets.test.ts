/**
 * Operators change a merchant's wallet settings on the dashboard as with `wallet set`: what they
 * save is what the hosted page's wallet request then carries; the service's refusals come back on
 * the form with nothing saved; keys are never shown again, kept when their field is left empty and
 * removed only by their box.
 */
import { expect } from 'chai';
import { createSession } from '../support/checkout-client';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { giveWalletKeys } from '../support/wallet-payments';
import { oneLine, p256 } from '../wallets/support';

describe('Wallet settings on the dashboard', function () {
  let t: TestGateway;
  let merchant: TestMerchant;
  let cookie: string;
  before(async () => {
    t = await startTestGateway({ kind: 'sqlite' });
    const signedIn = await t.request('/dashboard/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: t.gateway.adminToken, next: '/dashboard/health' }),
    });
    cookie = signedIn.headers.get('set-cookie')!.split(';')[0];
  });
  after(() => t.stop());
  beforeEach(async () => {
    merchant = await t.createMerchant({ name: 'Harbour Tea', connectors: ['sandbox'] });
    await giveWalletKeys(t, merchant);
  });

  const pagePath = () => `/dashboard/merchants/${merchant.merchant_id}/wallets`;

  /** The form as the operator submits it: the page's fields as they stand, with `changes`. */
  async function save(changes: Array<[string, string]>) {
    const form = await t.request(pagePath(), { headers: { cookie } });
    expect(form.status).to.equal(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    const standing: Array<[string, string]> = [['merchant-identifier', `merchant.sandbox.${merchant.merchant_id}`], ['environment', 'TEST'], ['gateway', 'sandbox']];
    const changed = new Set(changes.map(([name]) => name));
    const body = new URLSearchParams([['_csrf', csrf], ...standing.filter(([name]) => !changed.has(name)), ...changes]);
    return t.request(pagePath(), { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body });
  }

  it('Given the merchant\'s page, Then it links the wallet settings, whose page says which keys are set without showing them', async () => {
    const merchantPage = await t.request(`/dashboard/merchants/${merchant.merchant_id}`, { headers: { cookie } });
    expect(merchantPage.text).to.include(`href="${pagePath()}"`);
    const page = await t.request(pagePath(), { headers: { cookie } });
    expect(page.text).to.include('Processing Private Key').and.include('set (never shown again); empty keeps it.');
    expect(page.text).not.to.include('BEGIN PRIVATE KEY-----MI');
  });

  it('Given the operator saves country, shop name, capabilities, networks and the Google environment, Then the hosted page\'s wallet requests carry them and the keys are kept', async () => {
    const saved = await save([
      ['country', 'DE'],
      ['shop-name', 'Harbour Tea Shop'],
      ['capabilities', 'supports3DS'],
      ['capabilities', 'supportsDebit'],
      ['networks', 'visa'],
      ['networks', 'girocard'],
      ['environment', 'PRODUCTION'],
    ]);
    expect(saved.status, saved.text).to.equal(303);
    expect(saved.headers.get('location')).to.equal(`${pagePath()}?done=saved`);
    const { sessionId } = await createSession(t, merchant, { methods: ['applepay', 'googlepay'] });
    const apple = await t.request(`/checkout/${sessionId}/wallet/applepay/request`);
    expect(apple.body.payment_request).to.deep.include({ countryCode: 'DE', merchantCapabilities: ['supports3DS', 'supportsDebit'], supportedNetworks: ['visa', 'girocard'] });
    expect(apple.body.payment_request.total.label).to.equal('Harbour Tea Shop');
    expect((await t.request(`/checkout/${sessionId}/wallet/googlepay/request`)).body.environment).to.equal('PRODUCTION');
    const view = await t.gateway.wallets.settings.view(merchant.merchant_id);
    expect(view.apple).to.include({ processingPrivateKeySet: true });
    expect(view.google).to.include({ privateKeySet: true });
  });

  it('Given a refused value, Then the form says why with the service\'s words and nothing is saved; a key\'s Remove box removes it', async () => {
    const refused = await save([['country', 'Germany'], ['shop-name', 'Changed']]);
    expect(refused.status).to.equal(400);
    expect(refused.text).to.include('Country must be an ISO 3166-1 alpha-2 code such as US. Nothing was saved.');
    expect((await t.gateway.wallets.settings.view(merchant.merchant_id)).apple!.shopName).to.equal(null);
    const badKey = await save([['private-key', 'not a key']]);
    expect(badKey.text).to.include('Private Key must be pasted as one line');
    expect((await save([['processing-key-remove', 'on']])).status).to.equal(303);
    expect((await t.gateway.wallets.settings.view(merchant.merchant_id)).apple!.processingPrivateKeySet).to.equal(false);
    expect((await save([['google-key', oneLine(p256().privateKey)]])).status).to.equal(303);
  });
});
