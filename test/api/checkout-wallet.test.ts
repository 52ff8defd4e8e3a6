/**
 * Checkout with a wallet in `methods` (docs/wallets.md#checkout): a session names the wallet, the hosted
 * page shows its button, the sandbox's simulated wallet sheet hands over a token and the payment
 * goes through the wallet flows: the card flow where the merchant has the wallet's keys (the card
 * vaulted, pan_type DPAN/FPAN), else the virtual flow (Checkout's fallback: the sandbox's wallet
 * provider, nothing kept). Callbacks and status carry checkout_payment_method, digital_wallet and
 * pan_type; no card number anywhere.
 */
import { expect } from 'chai';
import { CallbackReceiver } from '../support/callback-receiver';
import { createSession, operationHash, postJson, sessionBody, type Json } from '../support/checkout-client';
import { forEachStore, startTestGateway, type HttpResult, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { giveWalletKeys, mintToken, sandboxWallets, type WalletKeys } from '../support/wallet-payments';
import type { SandboxWalletMaterial } from '../../src/adapters/wallets/sandbox-trust';

const SUCCESS_URL = 'https://shop.example/success';
const PAN = '4111111111111111';

const sheetUrl = (t: TestGateway, sessionId: string, wallet: string) => `${t.baseUrl}/checkout/${sessionId}/wallet/${wallet}`;
const approve = (t: TestGateway, sessionId: string, wallet: string, fields: Record<string, string> = { card: 'settles' }): Promise<HttpResult> =>
  t.postForm(sheetUrl(t, sessionId, wallet), fields);

async function latestPayment(t: TestGateway, sessionId: string) {
  const model = await t.gateway.checkout.pageModel(sessionId);
  const id = model!.session.attempts.at(-1)!;
  return (await t.gateway.payments.current(id))!;
}

const merchantStatus = (t: TestGateway, m: TestMerchant, paymentId: string) =>
  postJson(t, '/api/v1/payment/status', { merchant_key: m.merchant_key, payment_id: paymentId, hash: operationHash([paymentId], m.password) });

forEachStore('Checkout: wallets on the hosted page', (h) => {
  const receiver = new CallbackReceiver();
  let merchant: TestMerchant;
  before(async () => {
    await receiver.start();
    await h().gateway.notifier.start();
  });
  after(async () => {
    await receiver.stop();
  });
  beforeEach(async () => {
    merchant = await h().createMerchant({
      name: 'Corner Bookshop',
      notificationUrl: receiver.url,
      protocolMapping: { fields: ['card', 'checkout_payment_method', 'wallet'], returnParameters: ['payment_method'], requiredFields: [] },
    });
  });

  const session = (methods: string[] = ['card', 'applepay', 'googlepay'], overrides: Json = {}) => createSession(h(), merchant, { methods, ...overrides });
  const callbackOf = async (paymentId: string) => {
    await h().gateway.notifier.catchUp();
    return receiver.received.filter((r) => r.fields.get('id') === paymentId);
  };

  describe('sessions', () => {
    it('Given methods naming both wallets, Then the session offers them in that order; a session naming none offers no wallet', async () => {
      const { sessionId } = await session(['googlepay', 'card', 'applepay']);
      const model = await h().gateway.checkout.pageModel(sessionId);
      expect(model!.methods.map((m) => [m.method, m.label])).to.deep.equal([
        ['googlepay', 'Google Pay'],
        ['card', 'Card'],
        ['applepay', 'Apple Pay'],
      ]);
      const plain = await createSession(h(), merchant, { methods: undefined });
      const offered = (await h().gateway.checkout.pageModel(plain.sessionId))!.methods.map((m) => m.method);
      expect(offered).to.include('card').and.not.to.include.members(['applepay']);
      expect(offered).not.to.include('googlepay');
    });

    it('Given a wallet the merchant does not take, Then the session is refused naming it', async () => {
      const limited = await h().createMerchant({ methods: ['googlepay'] });
      const res = await postJson(h(), '/api/v1/session', sessionBody(limited, { methods: ['card', 'applepay'] }));
      expect(res.status).to.equal(400);
      expect(res.body.errors).to.deep.include({ error_code: 100000, error_message: 'methods[1]: The payment method "applepay" is not available. Available: card, googlepay.' });
    });
  });

  describe('chains', () => {
    it('Given a recurring_init session paid with Google Pay, Then without the wallet\'s keys (the virtual flow starts no chain) nothing is charged and the payer may pay another way; with them the chain starts on the decrypted card', async () => {
      const { sessionId } = await session(['card', 'googlepay'], { recurring_init: true });
      const refused = await approve(h(), sessionId, 'googlepay');
      expect(refused.status).to.equal(422);
      const said = refused.text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      expect(said).to.include('Google Pay could not pay: Payment action not supported. Please choose another way to pay.');
      expect((await h().gateway.checkout.pageModel(sessionId))!.session.attempts).to.deep.equal([]);

      await giveWalletKeys(h(), merchant, ['googlepay']);
      await approve(h(), sessionId, 'googlepay');
      const first = await latestPayment(h(), sessionId);
      expect(first.phase).to.equal('settled');
      expect(first.card).to.include({ wallet: 'googlepay', panType: 'DPAN' });
    });
  });

  describe('the page', () => {
    it('Given the wallet chosen, Then the page shows its button opening the sandbox\'s sheet, which names the shop, the amount and the sandbox cards', async () => {
      const { sessionId } = await session();
      const page = await h().request(`/checkout/${sessionId}?method=applepay`);
      expect(page.status).to.equal(200);
      expect(page.text).to.include(`action="/checkout/${sessionId}/wallet/applepay"`).and.include('Pay with Apple Pay');
      const sheet = await h().request(sheetUrl(h(), sessionId, 'applepay'));
      expect(sheet.status).to.equal(200);
      expect(sheet.headers.get('content-security-policy')).to.include("default-src 'none'");
      expect(sheet.text).to.include('data-wallet-sheet="applepay"').and.include('Corner Bookshop').and.include('Approve');
      expect(sheet.text).to.include('value="settles"').and.include('value="declines"').and.include('value="verifies"');
      expect(sheet.text).not.to.include('PAN_ONLY');
      expect((await h().request(sheetUrl(h(), sessionId, 'googlepay'))).text).to.include('name="pan_only"');
    });

    it('Given a merchant no flow can pay a wallet for (no keys, no connector offering it), Then the page shows no button for it, as the SDK\'s brands say; its keys make both offer it', async () => {
      const cardOnly = await h().createMerchant({ connectors: ['sandbox'] });
      const { sessionId } = await createSession(h(), cardOnly, { methods: ['card', 'applepay', 'googlepay'] });
      const brands = async () => (await h().request(`/sdk/pay-session/brands?session=${sessionId}`)).body.brands;
      // What the page lists, and whether choosing the wallet there shows its button.
      const buttons = async () => {
        const listed = (await h().request(`/checkout/${sessionId}`)).text;
        const shown: string[] = [];
        for (const w of ['applepay', 'googlepay']) {
          const page = await h().request(`/checkout/${sessionId}?method=${w}`);
          expect(page.status).to.equal(200);
          const button = page.text.includes(`action="/checkout/${sessionId}/wallet/${w}"`);
          expect(listed.includes(`data-method="${w}"`), w).to.equal(button);
          if (button) shown.push(w);
        }
        return shown;
      };
      expect(await brands()).to.deep.equal([]);
      expect(await buttons()).to.deep.equal([]);
      expect((await h().request(sheetUrl(h(), sessionId, 'applepay'))).status).to.equal(404);
      await giveWalletKeys(h(), cardOnly, ['googlepay']);
      expect(await brands()).to.deep.equal(['googlepay']);
      expect(await buttons()).to.deep.equal(['googlepay']);
    });

    it('Given a wallet the session does not offer, or no wallet at all, Then the sheet is not found', async () => {
      const { sessionId } = await session(['card', 'googlepay']);
      expect((await h().request(sheetUrl(h(), sessionId, 'applepay'))).status).to.equal(404);
      expect((await h().request(sheetUrl(h(), sessionId, 'samsungpay'))).status).to.equal(404);
      expect((await approve(h(), sessionId, 'applepay')).status).to.equal(404);
    });
  });

  describe('virtual flow (the merchant has no wallet keys: Checkout\'s fallback)', () => {
    for (const wallet of ['applepay', 'googlepay']) {
      it(`Given ${wallet} approved on the sheet, Then the sandbox's wallet provider settles it and the payer returns to success_url; callback and status say ${wallet}, no pan_type, no card`, async () => {
        const { sessionId } = await session();
        const paid = await approve(h(), sessionId, wallet);
        expect(paid.status).to.equal(303);
        const back = new URL(paid.headers.get('location')!);
        expect(`${back.origin}${back.pathname}`).to.equal(SUCCESS_URL);
        expect(back.searchParams.get('payment_method')).to.equal(wallet);
        const payment = await latestPayment(h(), sessionId);
        expect(payment.phase).to.equal('settled');
        expect(payment.method).to.deep.include({ brand: wallet });
        expect(payment.card).to.equal(undefined);
        const [initiated] = await h().paymentEvents(payment.paymentId);
        expect(initiated.data).to.include({ connector: 'sandbox-wallet' });

        const [callback] = await callbackOf(payment.paymentId);
        expect(Object.fromEntries(callback.fields)).to.include({ status: 'success', checkout_payment_method: wallet, digital_wallet: wallet, pan_type: '' });
        await h().gateway.readModels.catchUpToHead(5000);
        const status = await merchantStatus(h(), merchant, payment.paymentId);
        expect(status.body, status.text).to.include({ status: 'settled', checkout_payment_method: wallet, digital_wallet: wallet });
        expect(status.body).not.to.have.property('pan_type');
      });
    }
  });

  describe('card flow (the merchant has the wallets\' keys)', () => {
    beforeEach(async () => {
      await giveWalletKeys(h(), merchant);
    });

    for (const wallet of ['applepay', 'googlepay']) {
      it(`Given ${wallet} approved on the sheet, Then the gateway decrypts it and the card sandbox settles it: DPAN, the mask, never the number`, async () => {
        const { sessionId } = await session();
        const paid = await approve(h(), sessionId, wallet);
        expect(new URL(paid.headers.get('location')!).pathname).to.equal('/success');
        const payment = await latestPayment(h(), sessionId);
        expect(payment.phase).to.equal('settled');
        expect(payment.card).to.include({ mask: '411111******1111', wallet, panType: 'DPAN' });
        const [initiated] = await h().paymentEvents(payment.paymentId);
        expect(initiated.data).to.include({ connector: 'sandbox' });

        const [callback] = await callbackOf(payment.paymentId);
        expect(Object.fromEntries(callback.fields)).to.include({ checkout_payment_method: wallet, digital_wallet: wallet, pan_type: 'DPAN', card: '411111******1111' });
        expect(callback.body).not.to.include(PAN);
        await h().gateway.readModels.catchUpToHead(5000);
        const status = await merchantStatus(h(), merchant, payment.paymentId);
        expect(status.body, status.text).to.include({ checkout_payment_method: wallet, digital_wallet: wallet, pan_type: 'DPAN' });
        expect(status.text).not.to.include(PAN);
      });
    }

    it('Given the declining card on the sheet, Then the payer is back on the page with the decline and may pay another way', async () => {
      const { sessionId } = await session();
      const paid = await approve(h(), sessionId, 'applepay', { card: 'declines' });
      expect(paid.headers.get('location')).to.equal(`${h().baseUrl}/checkout/${sessionId}`);
      expect((await latestPayment(h(), sessionId)).phase).to.equal('declined');
      const page = await h().request(`/checkout/${sessionId}`);
      expect(page.text).to.include('Your payment was declined');
    });

    it('Given a Google Pay card without a device token (PAN_ONLY) of the 3-D Secure card, Then the payer goes to the ACS; approving there settles it with pan_type FPAN', async () => {
      const { sessionId } = await session();
      const paid = await approve(h(), sessionId, 'googlepay', { card: 'verifies', pan_only: 'Y' });
      // The ACS takes a POST: the payer's browser is handed a form that posts itself there.
      expect(paid.status).to.equal(200);
      expect(paid.text).to.include('/sandbox/acs');
      const payment = await latestPayment(h(), sessionId);
      expect(payment.phase).to.equal('awaiting_3ds');
      const params = payment.payerAction!.params as Record<string, string>;
      await h().postForm(params.TermUrl, { PaRes: 'approve', PaReq: params.PaReq, MD: params.MD });
      const after = (await h().gateway.payments.current(payment.paymentId))!;
      expect(after.phase).to.equal('settled');
      expect(after.card).to.include({ panType: 'FPAN', wallet: 'googlepay' });
    });

    it('Given a payment already settled on the session, When the sheet is approved again, Then nothing more is paid', async () => {
      const { sessionId } = await session();
      await approve(h(), sessionId, 'applepay');
      const again = await approve(h(), sessionId, 'googlepay');
      expect(again.status).to.equal(303);
      expect((await h().gateway.checkout.pageModel(sessionId))!.session.attempts).to.have.length(1);
    });
  });
});

forEachStore('Checkout: a device\'s wallet token handed to the session', (h) => {
  let merchant: TestMerchant;
  let keys: WalletKeys;
  let material: SandboxWalletMaterial;
  before(async () => {
    material = await sandboxWallets(h());
  });
  beforeEach(async () => {
    merchant = await h().createMerchant({ connectors: ['sandbox'] });
    keys = await giveWalletKeys(h(), merchant);
  });
  const tokenRoute = (sessionId: string, wallet: string) => `${h().baseUrl}/checkout/${sessionId}/wallet/${wallet}/token`;

  it('Given a token of the device posted to the session\'s route, Then it is verified, decrypted and paid as the session\'s attempt: the answer says where the payer goes, readable by the shop\'s page', async () => {
    const { sessionId } = await createSession(h(), merchant, { methods: ['card', 'applepay'] });
    const token = await mintToken(h(), material, merchant, keys, 'applepay');
    const res = await h().postForm(tokenRoute(sessionId, 'applepay'), { payment_token: token });
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    const paymentId = (await h().gateway.checkout.pageModel(sessionId))!.session.attempts[0];
    expect(res.body).to.deep.equal({ result: 'success', public_id: paymentId, redirect_url: `${h().baseUrl}/checkout/${sessionId}`, redirect_method: 'GET' });
    const payment = (await h().gateway.payments.current(paymentId))!;
    expect(payment.phase).to.equal('settled');
    expect(payment.card).to.include({ wallet: 'applepay', panType: 'DPAN' });
    expect(JSON.stringify(await h().paymentEvents(paymentId), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.to.include('4111111111111111');
    const page = await h().request(`/checkout/${sessionId}`, { redirect: 'manual' });
    expect(page.headers.get('location')).to.match(/^https:\/\/shop\.example\/success\?payment_id=/);
  });

  it('Given a token that fails verification, a wallet the session does not offer, or no token, Then the spec\'s refusal and no attempt', async () => {
    const { sessionId } = await createSession(h(), merchant, { methods: ['card', 'googlepay'] });
    const foreign = await mintToken(h(), material, merchant, keys, 'googlepay', { foreignKey: true });
    const refused = await h().postForm(tokenRoute(sessionId, 'googlepay'), { payment_token: foreign });
    expect(refused.status).to.equal(400);
    expect(refused.body).to.deep.equal({ result: 'ERROR', error_code: 250003, error_message: 'The payment token signature has expired' });
    const apple = await mintToken(h(), material, merchant, keys, 'applepay');
    expect((await h().postForm(tokenRoute(sessionId, 'applepay'), { payment_token: apple })).body).to.deep.equal({
      result: 'ERROR',
      error_code: 204018,
      error_message: 'Payment digital wallet not supported',
    });
    expect((await h().postForm(tokenRoute(sessionId, 'googlepay'), {})).body).to.deep.include({
      error_code: 100000,
      errors: [{ error_code: 100000, error_message: 'payment_token: This value should not be blank.' }],
    });
    expect((await h().gateway.checkout.pageModel(sessionId))!.session.attempts).to.deep.equal([]);
  });

  it('Given the SDK, Then PaySession.pay(brand, token) posts the token to the session\'s route of the gateway that served it', async () => {
    const script = (await h().request('/sdk/pay-session.js')).text;
    expect(script).to.include('PaySession.prototype.pay = function');
    expect(script).to.include('"/wallet/" + encodeURIComponent(brand) + "/token"');
    expect(script).to.include('payment_token=');
  });
});

describe('Checkout wallets outside the sandbox', function () {
  let g: TestGateway;
  before(async () => {
    g = await startTestGateway({ kind: 'sqlite', env: { GATEWAY_ENV: 'production' } });
  });
  after(async () => {
    await g?.stop();
  });

  it('Given a production session naming Apple Pay, Then the page has no simulated sheet: its button opens the device\'s wallet, and the sheet is not found', async () => {
    const merchant = await g.createMerchant({ methods: ['applepay'] });
    const { sessionId } = await createSession(g, merchant, { methods: ['card', 'applepay'] });
    const page = await g.request(`/checkout/${sessionId}?method=applepay`);
    expect(page.status).to.equal(200);
    expect(page.text).to.include('data-device-wallet="applepay"').and.not.include('data-wallet-button');
    expect((await g.request(`/checkout/${sessionId}/wallet/applepay`)).status).to.equal(404);
    expect((await g.postForm(`${g.baseUrl}/checkout/${sessionId}/wallet/applepay`, { card: 'settles' })).status).to.equal(404);
  });
});
