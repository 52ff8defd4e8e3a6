/**
 * Operators enable alternative methods per MID on the dashboard's merchant form, and that is what
 * the merchant's Checkout sessions then offer on the hosted page (card first, then the methods).
 */
import { expect } from 'chai';
import { postJson, sessionBody } from '../support/checkout-client';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway-harness';

describe('Checkout methods enabled on the dashboard', function () {
  let t: TestGateway;
  let merchant: TestMerchant;
  let cookie: string;
  before(async () => {
    t = await startTestGateway({ kind: 'sqlite' });
    merchant = await t.createMerchant({ name: 'Harbour Tea' });
    const signedIn = await t.request('/dashboard/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: t.gateway.adminToken, next: '/dashboard/health' }),
    });
    cookie = signedIn.headers.get('set-cookie')!.split(';')[0];
  });
  after(() => t.stop());

  /** The merchant form as the operator submits it, `methods` as typed. */
  async function saveMethods(methods: string) {
    const form = await t.request(`/dashboard/merchants/${merchant.merchant_id}`, { headers: { cookie } });
    expect(form.text).to.include('Alternative methods');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    return t.request(`/dashboard/merchants/${merchant.merchant_id}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, name: 'Harbour Tea', 'payment-mode': 'SMS', refunds: 'on', 'card-on-file': 'off', methods }),
    });
  }

  async function offered(): Promise<string[]> {
    const body = sessionBody(merchant);
    delete body.methods;
    const res = await postJson(t, '/api/v1/session', body);
    expect(res.status, res.text).to.equal(200);
    const model = await t.gateway.checkout.pageModel(String(res.body.redirect_url).split('/').pop()!);
    return model!.methods.map((m) => m.method);
  }

  it('Given the operator saves "sb-qr, sb-otp" for the MID, Then its sessions offer the card, sb-qr and sb-otp', async () => {
    const saved = await saveMethods('sb-qr, sb-otp');
    expect(saved.status, saved.text).to.equal(303);
    expect(await offered()).to.deep.equal(['card', 'sb-qr', 'sb-otp']);
  });

  it('Given the operator saves "none", Then its sessions offer the card alone, and a session naming sb-qr is refused', async () => {
    expect((await saveMethods('none')).status).to.equal(303);
    expect(await offered()).to.deep.equal(['card']);
    const res = await postJson(t, '/api/v1/session', sessionBody(merchant, { methods: ['sb-qr'] }));
    expect(res.body.errors).to.deep.include({ error_code: 100000, error_message: 'methods[0]: The payment method "sb-qr" is not available. Available: card.' });
  });

  it('Given a method the deployment does not offer, Then the form refuses it and nothing changes', async () => {
    expect((await saveMethods('sb-qr')).status).to.equal(303);
    const refused = await saveMethods('sb-qr, no-such-method');
    expect(refused.status).to.equal(400);
    expect(refused.text).to.include('no-such-method');
    expect(await offered()).to.deep.equal(['card', 'sb-qr']);
  });
});
