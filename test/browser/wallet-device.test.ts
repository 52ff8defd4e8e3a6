/**
 * The hosted page opening the payer's own wallet outside the sandbox, in a real browser (Debian's
 * Chromium, which has neither wallet: a stand-in `ApplePaySession` plays the device, and a stand-in
 * of Google's pay.js is served at its address, so the page's policy is what lets it in). Apple's
 * merchant session is answered for the validation route, whose call to Apple
 * test/api/checkout-wallet-device.test.ts covers. The page's own script asks the session's payment
 * request, opens the sheet with it (validating the Apple Pay merchant), hands the device's token to
 * the session and sends the payer on: the shop's success page, the payment settled by the wallet.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { mintAppleToken, mintGoogleToken } from '../../src/adapters/wallets/mint';
import { initSandboxWalletMaterial } from '../../src/adapters/wallets/sandbox-trust';
import { launchBrowser, screenshot } from '../support/browser';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';
import { WALLET_CARDS } from '../support/wallet-payments';
import { p256 } from '../wallets/support';
import { landedOnShop, openCheckout } from './checkout-payer';

const MERCHANT_SESSION = { merchantSessionIdentifier: 'SSH-BROWSER', nonce: 'n0', signature: 'c2ln' };

/** The device: Apple Pay can pay; begin() validates the merchant, then authorizes with `token`. */
const standInApplePay = (token: unknown) => `(function () {
  var record = window.recordApplePay;
  function Session(version, request) { record('request', { version: version, request: request }); }
  Session.STATUS_SUCCESS = 0;
  Session.STATUS_FAILURE = 1;
  Session.canMakePayments = function () { return true; };
  Session.prototype.begin = function () {
    var self = this;
    setTimeout(function () { self.onvalidatemerchant({ validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession' }); }, 0);
  };
  Session.prototype.completeMerchantValidation = function (merchantSession) {
    var self = this;
    record('merchantSession', merchantSession);
    setTimeout(function () { self.onpaymentauthorized({ payment: { token: ${JSON.stringify(token)} } }); }, 0);
  };
  Session.prototype.completePayment = function (status) { record('completed', status); };
  Session.prototype.abort = function () { record('completed', 'aborted'); };
  window.ApplePaySession = Session;
})();`;

/** Google's pay.js as the device's Google Pay answers it: ready, and the payer's approval gives `token`. */
const standInPayJs = (token: string) => `(function () {
  var record = window.recordGooglePay;
  function PaymentsClient(options) { record('client', options); }
  PaymentsClient.prototype.isReadyToPay = function (request) { record('ready', request); return Promise.resolve({ result: true }); };
  PaymentsClient.prototype.loadPaymentData = function (request) {
    record('load', request.transactionInfo);
    return Promise.resolve({ paymentMethodData: { type: 'CARD', tokenizationData: { type: 'PAYMENT_GATEWAY', token: ${JSON.stringify(token)} } } });
  };
  window.google = { payments: { api: { PaymentsClient: PaymentsClient } } };
})();`;

describe('The hosted page opens the payer\'s own wallet (production, in a browser)', function () {
  this.timeout(90_000);
  let browser: Browser;
  let production: TestGateway;
  let dataDir: string;
  const contexts: BrowserContext[] = [];

  before(async function () {
    browser = await launchBrowser(this);
    production = await startTestGateway({ kind: 'sqlite', env: { GATEWAY_ENV: 'production' } });
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-device-wallet-'));
  });
  after(async () => {
    for (const context of contexts.splice(0)) await context.close();
    await browser?.close();
    await production?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('Given Apple Pay chosen on a device that has it, When the payer pays, Then the sheet opens with the merchant\'s request, is validated, and the token pays: the payer lands on the shop\'s success page', async () => {
    const merchant = await production.createMerchant({ name: 'Corner Bookshop', methods: ['applepay'] });
    await production.gateway.wallets.settings.update(merchant.merchant_id, {
      apple: { merchantIdentifier: 'merchant.com.corner.books', country: 'GB', shopName: 'Corner Books', supportedNetworks: ['visa', 'masterCard'] },
    });
    // Signed with a root production does not trust: the merchant has no wallet keys, so the virtual flow takes it undecrypted.
    const { material } = await initSandboxWalletMaterial(dataDir, new Date());
    const token = await mintAppleToken({ material, processingKey: p256().privateKey, merchantIdentifier: 'merchant.com.corner.books', card: WALLET_CARDS.settles, signedAt: new Date() });

    const payer = await openCheckout(browser, production, merchant, { methods: ['card', 'applepay'] });
    contexts.push(payer.context);
    const { page } = payer;
    const device: Array<[string, unknown]> = [];
    await payer.context.exposeBinding('recordApplePay', (_source, kind: string, value: unknown) => void device.push([kind, value]));
    await payer.context.addInitScript(standInApplePay(token));
    await payer.context.route('**/wallet/applepay/validation', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(MERCHANT_SESSION) }));
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    page.on('pageerror', (error) => blocked.push(`page error: ${error.message}`));

    await page.getByRole('link', { name: /Apple Pay/ }).click();
    const button = page.getByRole('button', { name: 'Pay with Apple Pay' });
    await button.waitFor({ state: 'visible' });
    await screenshot(page, 'wallet-device-apple-pay-button');
    await button.click();
    const landed = await landedOnShop(payer, '/success');

    expect(device).to.deep.equal([
      [
        'request',
        {
          version: 3,
          request: {
            countryCode: 'GB',
            currencyCode: 'USD',
            merchantCapabilities: ['supports3DS'],
            supportedNetworks: ['visa', 'masterCard'],
            total: { label: 'Corner Books', amount: '10.50', type: 'final' },
          },
        },
      ],
      ['merchantSession', MERCHANT_SESSION],
      ['completed', 0],
    ]);
    const payment = (await production.gateway.payments.current(landed.searchParams.get('payment_id')!))!;
    expect(payment.phase).to.equal('settled');
    expect(payment.method?.brand).to.equal('applepay');
    expect(blocked, 'nothing the page policy refused').to.deep.equal([]);
  });

  it('Given Google Pay chosen, When the payer pays, Then Google\'s script loads under the page\'s policy, its client is made in the merchant\'s environment, and the token pays', async () => {
    const merchant = await production.createMerchant({ name: 'Corner Bookshop', methods: ['googlepay'] });
    await production.gateway.wallets.settings.update(merchant.merchant_id, { google: { environment: 'PRODUCTION', gateway: 'sandbox' } });
    const { material } = await initSandboxWalletMaterial(dataDir, new Date());
    const token = JSON.stringify(
      mintGoogleToken({ material, recipientKey: p256().privateKey, recipientId: 'gateway:sandbox', gatewayMerchantId: merchant.client_key, card: WALLET_CARDS.settles, authMethod: 'CRYPTOGRAM_3DS', signedAt: new Date() }),
    );
    const payer = await openCheckout(browser, production, merchant, { methods: ['googlepay', 'card'] });
    contexts.push(payer.context);
    const device: Array<[string, unknown]> = [];
    await payer.context.exposeBinding('recordGooglePay', (_source, kind: string, value: unknown) => void device.push([kind, value]));
    await payer.context.route('https://pay.google.com/gp/p/js/pay.js', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: standInPayJs(token) }));
    const blocked: string[] = [];
    payer.page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await payer.page.goto(`${payer.redirectUrl}?method=googlepay`);
    const button = payer.page.getByRole('button', { name: 'Pay with Google Pay' });
    await button.waitFor({ state: 'visible' });
    await button.click();
    const landed = await landedOnShop(payer, '/success');
    expect(device.map(([kind]) => kind)).to.deep.equal(['client', 'ready', 'load']);
    expect(device[0][1]).to.deep.equal({ environment: 'PRODUCTION' });
    expect(device[2][1]).to.deep.equal({ totalPriceStatus: 'FINAL', totalPrice: '10.50', currencyCode: 'USD' });
    const payment = (await production.gateway.payments.current(landed.searchParams.get('payment_id')!))!;
    expect(payment.phase).to.equal('settled');
    expect(payment.method?.brand).to.equal('googlepay');
    expect(blocked, 'nothing the page policy refused').to.deep.equal([]);
  });

  it('Given a device without Apple Pay, Then the button stays hidden and the payer is told to choose another way', async () => {
    const merchant = await production.createMerchant({ name: 'Corner Bookshop', methods: ['applepay'] });
    await production.gateway.wallets.settings.update(merchant.merchant_id, { apple: { merchantIdentifier: 'merchant.com.corner.books', country: 'GB' } });
    const payer = await openCheckout(browser, production, merchant, { methods: ['applepay', 'card'] });
    contexts.push(payer.context);
    await payer.page.goto(`${payer.redirectUrl}?method=applepay`);
    await payer.page.getByText('Apple Pay is not available on this device. Please choose another way to pay.').waitFor();
    expect(await payer.page.getByRole('button', { name: 'Pay with Apple Pay' }).isVisible()).to.equal(false);
  });
});
