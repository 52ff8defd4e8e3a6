/**
 * What a page needs to open the payer's own wallet for a Checkout session
 * (docs/wallets.md#the-wallet-on-the-hosted-page): the wallet's payment request built from the
 * merchant's wallet settings, and Apple Pay's merchant validation through the session, against a
 * local HTTPS server standing in for Apple's endpoint under a test CA (allowed outside production
 * only).
 */
import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { CHECKOUT_PAGE_CSP } from '../../src/api/checkout-page/render-page';
import { DEVICE_WALLET_PAYMENT_REQUEST } from '../../src/api/openapi/device-wallets';
import { ConfigError, loadConfig } from '../../src/config';
import { createSession } from '../support/checkout-client';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { giveWalletKeys } from '../support/wallet-payments';
import { startValidationServer, testCa, type Identity, type ValidationServer } from '../wallets/apple-validation-server';

describe('Checkout: the payer\'s own wallet for a session', function () {
  let t: TestGateway;
  let apple: ValidationServer;
  let identity: Identity;
  let dir: string;
  let merchant: TestMerchant;
  before(async () => {
    const ca = await testCa();
    apple = await startValidationServer(ca);
    dir = mkdtempSync(path.join(tmpdir(), 'gw-apple-ca-'));
    writeFileSync(path.join(dir, 'ca.pem'), ca.caPem);
    identity = await ca.issue({ commonName: 'Merchant ID: merchant.com.corner.books' });
    t = await startTestGateway({ kind: 'sqlite', env: { WALLET_APPLE_VALIDATION_URL: apple.url, WALLET_APPLE_VALIDATION_CA_FILE: path.join(dir, 'ca.pem') } });
  });
  after(async () => {
    await t.stop();
    await apple.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    merchant = await t.createMerchant({ name: 'Corner Bookshop', connectors: ['sandbox'] });
    await giveWalletKeys(t, merchant);
    apple.seen.length = 0;
  });

  const settings = (input: Parameters<TestGateway['gateway']['wallets']['settings']['update']>[1]) => t.gateway.wallets.settings.update(merchant.merchant_id, input);
  const route = (sessionId: string, rest: string) => `${t.baseUrl}/checkout/${sessionId}/wallet/${rest}`;

  it('Given Apple Pay settings with shop name, country, capabilities and networks, Then the session\'s Apple Pay request carries them and the amount', async () => {
    await settings({ apple: { country: 'GB', shopName: 'Corner Books', merchantCapabilities: ['supports3DS', 'supportsDebit'], supportedNetworks: ['visa', 'masterCard'] } });
    const { sessionId } = await createSession(t, merchant, { methods: ['applepay', 'card'] });
    const res = await t.request(route(sessionId, 'applepay/request'));
    expect(res.status).to.equal(200);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(res.body).to.deep.equal({
      wallet: 'applepay',
      payment_request: {
        countryCode: 'GB',
        currencyCode: 'USD',
        merchantCapabilities: ['supports3DS', 'supportsDebit'],
        supportedNetworks: ['visa', 'masterCard'],
        total: { label: 'Corner Books', amount: '10.50', type: 'final' },
      },
    });
  });

  it('Given Google Pay settings, Then its request names the environment, the gateway and the Gateway Merchant ID (else the client_key)', async () => {
    await settings({ google: { environment: 'PRODUCTION' } });
    const { sessionId } = await createSession(t, merchant, { methods: ['googlepay'] });
    const res = await t.request(route(sessionId, 'googlepay/request'));
    expect(res.body.environment).to.equal('PRODUCTION');
    expect(res.body.payment_request.merchantInfo).to.deep.equal({ merchantName: 'Corner Bookshop' });
    expect(res.body.payment_request.allowedPaymentMethods[0].tokenizationSpecification).to.deep.equal({
      type: 'PAYMENT_GATEWAY',
      parameters: { gateway: 'sandbox', gatewayMerchantId: merchant.client_key },
    });
    expect(res.body.payment_request.transactionInfo).to.deep.equal({ totalPriceStatus: 'FINAL', totalPrice: '10.50', currencyCode: 'USD' });
  });

  it('Given Apple Pay without a country, or a wallet the session does not offer, Then the request is refused saying why', async () => {
    const { sessionId } = await createSession(t, merchant, { methods: ['applepay', 'card'] });
    const res = await t.request(route(sessionId, 'applepay/request'));
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      result: 'ERROR',
      error_code: 204018,
      error_message: 'Payment digital wallet not supported',
      errors: [{ error_code: 100000, error_message: "wallet: Apple Pay is not set up: the merchant's wallet settings lack Country." }],
    });
    expect((await t.request(route(sessionId, 'googlepay/request'))).body).to.deep.equal({ result: 'ERROR', error_code: 204018, error_message: 'Payment digital wallet not supported' });
  });

  it('Given the identity certificate and key, When the page asks for validation, Then the gateway gets Apple\'s session for its own host with them', async () => {
    await settings({ apple: { certificate: identity.certificatePem, privateKey: identity.keyLine, shopName: 'Corner Books' } });
    const { sessionId } = await createSession(t, merchant, { methods: ['applepay'] });
    const res = await t.postForm(route(sessionId, 'applepay/validation'), {});
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ merchantSessionIdentifier: 'SSH-TEST', nonce: 'n0', signature: 'c2ln' });
    expect(apple.seen.map((s) => [s.clientSubject, s.body])).to.deep.equal([
      [
        'Merchant ID: merchant.com.corner.books',
        { merchantIdentifier: `merchant.sandbox.${merchant.merchant_id}`, displayName: 'Corner Books', initiative: 'web', initiativeContext: '127.0.0.1' },
      ],
    ]);
  });

  it('Given Apple refusing, or settings without the certificate, Then the page is told (502, or which settings are missing)', async () => {
    const { sessionId } = await createSession(t, merchant, { methods: ['applepay'] });
    const missing = await t.postForm(route(sessionId, 'applepay/validation'), {});
    expect(missing.body.errors).to.deep.equal([
      { error_code: 100000, error_message: "wallet: Apple Pay merchant validation is not set up: the merchant's wallet settings lack Certificate, Private Key." },
    ]);
    await settings({ apple: { certificate: identity.certificatePem, privateKey: identity.keyLine } });
    apple.answer = { status: 500, body: '{}' };
    try {
      const failed = await t.postForm(route(sessionId, 'applepay/validation'), {});
      expect(failed.status).to.equal(502);
      expect(failed.body).to.deep.equal({ result: 'ERROR', error_code: 502, error_message: 'Apple Pay merchant validation failed, try again.' });
    } finally {
      apple.answer = { status: 200, body: JSON.stringify({ merchantSessionIdentifier: 'SSH-TEST', nonce: 'n0', signature: 'c2ln' }) };
    }
  });

  it('Given the Checkout SDK on a shop\'s page, Then paymentRequest(brand) and validateMerchant(domain) give what opening the wallet needs', async () => {
    await settings({ apple: { country: 'US', certificate: identity.certificatePem, privateKey: identity.keyLine } });
    const { sessionId } = await createSession(t, merchant, { methods: ['applepay'] });
    const sdk = (await t.request('/sdk/pay-session.js')).text;
    const window: Record<string, unknown> = {};
    const document = { currentScript: { src: `${t.baseUrl}/sdk/pay-session.js` }, getElementsByTagName: () => [] };
    vm.runInNewContext(sdk, { window, document, location: new URL('https://shop.example/checkout'), fetch, URL, Promise });
    const PaySession = window.PaySession as new (config: { sessionId: string }) => {
      paymentRequest(brand: string): Promise<Record<string, unknown>>;
      validateMerchant(domain?: string): Promise<Record<string, unknown>>;
    };
    const session = new PaySession({ sessionId });
    expect(await session.paymentRequest('applepay')).to.deep.equal((await t.request(route(sessionId, 'applepay/request'))).body);
    expect(await session.validateMerchant('127.0.0.1')).to.deep.equal({ merchantSessionIdentifier: 'SSH-TEST', nonce: 'n0', signature: 'c2ln' });
    // The page's own host when none is given: shop.example is not one of this merchant's wallet domains.
    expect((await session.validateMerchant()).errors).to.deep.equal([{ error_code: 100000, error_message: "wallet: shop.example is not one of the merchant's wallet domains." }]);
  });

  it('Given production, Then a test CA for the validation endpoint, or an endpoint not on https, stops the gateway at start', () => {
    expect(() => loadConfig({ GATEWAY_ENV: 'production', WALLET_APPLE_VALIDATION_CA_FILE: '/tmp/ca.pem' })).to.throw(
      ConfigError,
      'WALLET_APPLE_VALIDATION_CA_FILE is for testing outside production only',
    );
    expect(() => loadConfig({ WALLET_APPLE_VALIDATION_URL: 'http://apple.example/paymentSession' })).to.throw(ConfigError, /must be an https URL/);
    expect(loadConfig({ GATEWAY_ENV: 'production', VAULT_KEY: 'ab'.repeat(32) }).appleMerchantValidation).to.deep.equal({
      url: 'https://apple-pay-gateway.apple.com/paymentservices/paymentSession',
      caFile: null,
      allowNonPublicAddresses: false,
    });
  });
});

describe('Checkout: the hosted page opens the payer\'s own wallet outside the sandbox', function () {
  let g: TestGateway;
  let merchant: TestMerchant;
  before(async () => {
    g = await startTestGateway({ kind: 'sqlite', env: { GATEWAY_ENV: 'production' } });
    merchant = await g.createMerchant({ methods: ['applepay', 'googlepay'] });
  });
  after(async () => {
    await g?.stop();
  });

  const scriptOf = (html: string) => /<script src="([^"]*device-wallet\.js\?v=[0-9a-f]+)" defer><\/script>/.exec(html)?.[1];

  it('Given Apple Pay chosen, Then its button (hidden until the script finds the wallet) names the session\'s routes, and the policy stays the strict one', async () => {
    const { sessionId } = await createSession(g, merchant, { methods: ['card', 'applepay'] });
    const page = await g.request(`/checkout/${sessionId}?method=applepay`);
    const base = `/checkout/${sessionId}/wallet/applepay`;
    expect(page.text).to.include(`data-device-wallet="applepay" data-label="Apple Pay" data-request="${base}/request" data-validation="${base}/validation" data-token="${base}/token"`);
    expect(page.text).to.include('<button type="button" class="primary wallet-button" data-device-wallet-button hidden>Pay with Apple Pay</button>');
    expect(page.headers.get('content-security-policy')).to.equal(CHECKOUT_PAGE_CSP);
    const script = await g.request(scriptOf(page.text)!);
    expect(script.status).to.equal(200);
    expect(script.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(script.text).to.include('new Session(3, config.payment_request)').and.include('completeMerchantValidation');
  });

  it('Given Google Pay chosen, Then only that page lets Google\'s script, its connections and its frame in; the card\'s page does not', async () => {
    const { sessionId } = await createSession(g, merchant, { methods: ['card', 'googlepay'] });
    const page = await g.request(`/checkout/${sessionId}?method=googlepay`);
    expect(page.text).to.include('data-device-wallet="googlepay"').and.not.include('data-validation');
    expect(page.headers.get('content-security-policy')).to.equal(
      "default-src 'none'; script-src 'self' https://pay.google.com; style-src 'self'; img-src 'self' data:; connect-src 'self' https://pay.google.com https://google.com; " +
        "form-action 'self' https: http:; base-uri 'none'; frame-src https://pay.google.com",
    );
    const card = await g.request(`/checkout/${sessionId}?method=card`);
    expect(card.headers.get('content-security-policy')).to.equal(CHECKOUT_PAGE_CSP);
  });
});

describe('Checkout: the wallet routes in /openapi.json', function () {
  let g: TestGateway;
  before(async () => {
    g = await startTestGateway({ kind: 'sqlite' });
  });
  after(async () => {
    await g?.stop();
  });

  it('Given the document, Then it describes the token, payment request and validation routes of a session, and a request answer fits its schema', async () => {
    const doc = (await g.request('/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.paths['/checkout/{sessionId}/wallet/{wallet}/token'].post.operationId).to.equal('checkoutWalletToken');
    expect(doc.paths['/checkout/{sessionId}/wallet/{wallet}/request'].get.operationId).to.equal('checkoutWalletPaymentRequest');
    expect(doc.paths['/checkout/{sessionId}/wallet/applepay/validation'].post.operationId).to.equal('checkoutApplePayMerchantValidation');
    const validate = new Ajv2020({ strict: false });
    expect(validate.validate(DEVICE_WALLET_PAYMENT_REQUEST, { wallet: 'googlepay', environment: 'TEST', payment_request: { apiVersion: 2 } })).to.equal(true);
    expect(validate.validate(DEVICE_WALLET_PAYMENT_REQUEST, { wallet: 'card', payment_request: {} })).to.equal(false);
  });
});
