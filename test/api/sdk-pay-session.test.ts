/**
 * The Checkout SDK (docs/wallets.md#the-checkout-sdk): `/sdk/pay-session.js` served by the gateway itself, and the
 * brands its `getAvailableBrands()` starts from, authenticated by the Checkout session's token:
 * the merchant's enabled wallets a flow can pay, in `methods` order, none for a session that does
 * not offer them or can no longer be paid; `simulated` only in the sandbox.
 */
import { expect } from 'chai';
import vm from 'node:vm';
import { createSession, createSessionToken } from '../support/checkout-client';
import { forEachStore, startTestGateway, type TestClock, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { giveWalletKeys } from '../support/wallet-payments';

const brandsOf = (g: TestGateway, sessionId: string) => g.request(`/sdk/pay-session/brands?session=${encodeURIComponent(sessionId)}`);
const brandsByToken = (g: TestGateway, token: string) => g.request(`/sdk/pay-session/brands?token=${encodeURIComponent(token)}`);
/** A hosted page session of `merchant` offering `methods`; its id. */
const sessionOffering = async (g: TestGateway, merchant: TestMerchant, methods: string[]) => (await createSession(g, merchant, { methods })).sessionId;

forEachStore('Checkout SDK pay-session', (h) => {
  describe('the script', () => {
    it('is served by the gateway as JavaScript defining PaySession, with no inline evaluation and no other origin\'s script', async () => {
      const res = await h().request('/sdk/pay-session.js');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/javascript/);
      expect(res.headers.get('cross-origin-resource-policy')).to.equal('cross-origin');
      expect(res.text).to.include('window.PaySession = PaySession').and.include('getAvailableBrands');
      expect(res.text).not.to.match(/\beval\(|new Function|document\.write|createElement\(['"]script/);
      // It compiles (a browser would otherwise drop it silently).
      expect(() => new vm.Script(res.text)).not.to.throw();
      // It fetches only from the origin that served it.
      expect(res.text).to.include('gatewayOrigin + "/sdk/pay-session/brands"');
      // On the hosted page it finds its session in the page's own address.
      expect(res.text).to.include('location.pathname');
    });
  });

  describe('the brands', () => {
    it('Given a sandbox session offering both wallets, Then both in the session\'s order, simulated, readable by any origin', async () => {
      const merchant = await h().createMerchant();
      const sessionId = await sessionOffering(h(), merchant, ['card', 'googlepay', 'sb-qr', 'applepay']);
      const res = await brandsOf(h(), sessionId);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ brands: ['googlepay', 'applepay'], simulated: true });
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(res.headers.get('cache-control')).to.equal('no-store');
    });

    it('Given a wallet the session offers but the merchant\'s methods leave out since, Then only the enabled one; none enabled, []', async () => {
      const merchant = await h().createMerchant({ methods: ['applepay', 'googlepay', 'sb-qr'] });
      const sessionId = await sessionOffering(h(), merchant, ['googlepay', 'applepay']);
      await h().gateway.merchants.update(merchant.merchant_id, { methods: ['applepay', 'sb-qr'] });
      expect((await brandsOf(h(), sessionId)).body.brands).to.deep.equal(['applepay']);
      await h().gateway.merchants.update(merchant.merchant_id, { methods: ['sb-qr'] });
      expect((await brandsOf(h(), sessionId)).body.brands).to.deep.equal([]);
    });

    it('Given a session offering only the card, or a hosted fields session (asked by its token), Then []', async () => {
      const merchant = await h().createMerchant();
      expect((await brandsOf(h(), await sessionOffering(h(), merchant, ['card']))).body).to.deep.equal({ brands: [], simulated: true });
      const { token } = await createSessionToken(h(), merchant);
      const res = await brandsByToken(h(), token);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ brands: [], simulated: true });
    });

    it('Given a merchant whose connectors offer no wallet, Then only a wallet whose keys make the card flow possible', async () => {
      const merchant = await h().createMerchant({ connectors: ['sandbox'] });
      const sessionId = await sessionOffering(h(), merchant, ['applepay', 'googlepay']);
      expect((await brandsOf(h(), sessionId)).body.brands).to.deep.equal([]);
      await giveWalletKeys(h(), merchant, ['googlepay']);
      expect((await brandsOf(h(), sessionId)).body.brands).to.deep.equal(['googlepay']);
    });

    it('Given a session paid (its card settled), Then []: it can no longer be paid, as its page offers no wallet any more', async () => {
      const merchant = await h().createMerchant();
      const sessionId = await sessionOffering(h(), merchant, ['card', 'applepay', 'googlepay']);
      expect((await brandsOf(h(), sessionId)).body.brands).to.deep.equal(['applepay', 'googlepay']);
      const card = { number: '4111111111111111', expMonth: '01', expYear: '2038', cvv: '123' };
      const paid = await h().gateway.checkout.pay(sessionId, { card, payerIp: '203.0.113.10' }, 'sdk-paid');
      expect(paid).to.have.property('kind', 'done');
      expect((await h().gateway.checkout.pageModel(sessionId))!.view).to.equal('elsewhere');
      expect((await brandsOf(h(), sessionId)).body).to.deep.equal({ brands: [], simulated: true });
    });

    it('Given no session, an unknown one, or a token not of ours, Then 100000 naming the field', async () => {
      expect((await h().request('/sdk/pay-session/brands')).body).to.deep.equal({
        result: 'ERROR',
        error_code: 100000,
        error_message: 'Request data is invalid.',
        errors: [{ error_code: 100000, error_message: 'session: This value should not be blank.' }],
      });
      for (const unknown of ['nonsense', '0b6c4d4e-8f7a-4a8e-9d55-3c1f2a9e7b10']) {
        const res = await brandsOf(h(), unknown);
        expect(res.status).to.equal(400);
        expect(res.body.errors).to.deep.equal([{ error_code: 100000, error_message: 'session: The session does not exist.' }]);
      }
      const merchant = await h().createMerchant();
      const { token } = await createSessionToken(h(), merchant);
      // The signature's first character: its last holds two padding bits, so changing it may decode to the same bytes.
      const [sessionId, sig] = token.split('.');
      const altered = `${sessionId}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
      for (const bad of ['nonsense', altered]) {
        const res = await brandsByToken(h(), bad);
        expect(res.status).to.equal(400);
        expect(res.body.errors).to.deep.equal([{ error_code: 100000, error_message: 'token: The session token is not valid.' }]);
      }
    });

    it('Given a session past its expiry (the gateway\'s clock), Then []', async () => {
      const merchant = await h().createMerchant();
      const sessionId = await sessionOffering(h(), merchant, ['applepay', 'googlepay']);
      expect((await brandsOf(h(), sessionId)).body.brands).to.have.length(2);
      // Last in this suite: the clock does not go back.
      (h().clock as TestClock).advance(3 * 24 * 60 * 60_000);
      expect((await brandsOf(h(), sessionId)).body).to.deep.equal({ brands: [], simulated: true });
    });
  });
});

describe('Checkout SDK pay-session in production', function () {
  let g: TestGateway;
  before(async () => {
    g = await startTestGateway({ kind: 'sqlite', env: { GATEWAY_ENV: 'production' } });
  });
  after(async () => {
    await g?.stop();
  });

  it('Given a production merchant with both wallets enabled, Then the answer is not simulated: the device decides', async () => {
    const merchant = await g.createMerchant({ methods: ['applepay', 'googlepay'] });
    const res = await brandsOf(g, (await createSession(g, merchant, { methods: ['card'] })).sessionId);
    expect(res.status).to.equal(200);
    expect(res.body.simulated).to.equal(false);
  });
});
