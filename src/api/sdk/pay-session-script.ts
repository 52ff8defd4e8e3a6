/**
 * `GET /sdk/pay-session.js`: the Checkout SDK's `PaySession` (docs/wallets.md#the-checkout-sdk). A page creates
 * `new PaySession({ sessionId })` with its Checkout session's id (on the hosted page, its own
 * address says it; a hosted fields page passes `sessionToken` instead) and asks
 * `getAvailableBrands()`, a Promise of the wallet identifiers it may show buttons for: the
 * merchant's enabled wallets the gateway can pay for this session, in `methods` order
 * (BRANDS_PATH answers that), kept only where the device can use them. In the sandbox the
 * simulated wallets are always usable; elsewhere Apple Pay needs `ApplePaySession.canMakePayments()`
 * and Google Pay a browser whose Payment Request API can pay with it. Any failure answers `[]`.
 * `pay(brand, token)` hands the token the device's wallet made to the session, which pays with it;
 * `paymentRequest(brand)` and `validateMerchant(domain)` give what opening the wallet needs.
 *
 * Served by the gateway itself (no third-party script), with no inline code, eval or injected
 * styles, so a page under a strict Content-Security-Policy (`script-src` naming the gateway,
 * `connect-src` too) can load it.
 */
export const PAY_SESSION_SDK_PATH = '/sdk/pay-session.js';
export const BRANDS_PATH = '/sdk/pay-session/brands';

/** What Google Pay is asked through the Payment Request API: can this browser pay with a card at all. */
const GOOGLE_PAY_PROBE = {
  supportedMethods: 'https://google.com/pay',
  data: {
    apiVersion: 2,
    apiVersionMinor: 0,
    allowedPaymentMethods: [
      {
        type: 'CARD',
        parameters: { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'], allowedCardNetworks: ['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA'] },
      },
    ],
  },
};

export const PAY_SESSION_JS = `(function () {
  'use strict';
  if (window.PaySession) return;

  function scriptSrc() {
    var current = document.currentScript;
    if (current && current.src) return current.src;
    var scripts = document.getElementsByTagName('script');
    for (var i = scripts.length - 1; i >= 0; i--) {
      if (/\\/sdk\\/pay-session\\.js(\\?|$)/.test(scripts[i].src)) return scripts[i].src;
    }
    return location.href;
  }
  // Read once, while this script is the one running: the gateway that served it answers for it.
  var gatewayOrigin = new URL(scriptSrc(), location.href).origin;
  var GOOGLE_PAY_PROBE = ${JSON.stringify(GOOGLE_PAY_PROBE)};

  function appleUsable() {
    try {
      return !!(window.ApplePaySession && window.ApplePaySession.canMakePayments());
    } catch (e) {
      return false;
    }
  }

  function googleUsable() {
    if (typeof window.PaymentRequest !== 'function') return Promise.resolve(false);
    try {
      var request = new window.PaymentRequest([GOOGLE_PAY_PROBE], { total: { label: 'Total', amount: { currency: 'USD', value: '0.00' } } });
      return request.canMakePayment().then(function (yes) { return yes === true; }, function () { return false; });
    } catch (e) {
      return Promise.resolve(false);
    }
  }

  function deviceUsable(brand, simulated) {
    if (simulated) return Promise.resolve(true);
    if (brand === 'applepay') return Promise.resolve(appleUsable());
    if (brand === 'googlepay') return googleUsable();
    return Promise.resolve(false);
  }

  // The hosted page's own address names its session.
  function sessionOfPage() {
    var match = /\\/checkout\\/([0-9a-fA-F-]{36})(?:[/?#]|$)/.exec(location.pathname);
    return match ? match[1] : '';
  }

  function PaySession(config) {
    if (!(this instanceof PaySession)) return new PaySession(config);
    config = config || {};
    this.sessionToken = typeof config.sessionToken === 'string' ? config.sessionToken : '';
    this.sessionId = typeof config.sessionId === 'string' && config.sessionId ? config.sessionId : sessionOfPage();
    if (!this.sessionToken && !this.sessionId) {
      throw new Error('PaySession: sessionId (the id at the end of the session redirect_url) or sessionToken is required');
    }
  }

  /** The wallet identifiers to show, in the session's order; [] when none (never rejects). */
  PaySession.prototype.getAvailableBrands = function () {
    var query = this.sessionToken ? 'token=' + encodeURIComponent(this.sessionToken) : 'session=' + encodeURIComponent(this.sessionId);
    var url = gatewayOrigin + ${JSON.stringify(BRANDS_PATH)} + '?' + query;
    return fetch(url, { credentials: 'omit', cache: 'no-store' })
      .then(function (response) { return response.ok ? response.json() : { brands: [] }; })
      .then(function (answer) {
        var brands = Array.isArray(answer.brands) ? answer.brands.filter(function (b) { return typeof b === 'string'; }) : [];
        return Promise.all(brands.map(function (brand) { return deviceUsable(brand, answer.simulated === true); })).then(function (usable) {
          return brands.filter(function (_brand, i) { return usable[i]; });
        });
      })
      .catch(function () { return []; });
  };

  /**
   * Hands the token the device's wallet made (Apple Pay's payment.token, Google Pay's
   * paymentMethodData.tokenizationData.token: an object, or its JSON unchanged) to the session,
   * which pays with it. Resolves to the gateway's answer ({result, public_id, redirect_url,
   * redirect_method}: send the payer to redirect_url) or its refusal ({result: 'ERROR', error_code,
   * error_message}); rejects only when the gateway cannot be reached.
   */
  PaySession.prototype.pay = function (brand, paymentToken) {
    if (!this.sessionId) return Promise.reject(new Error('PaySession: pay() needs the sessionId of a hosted page session'));
    var token = typeof paymentToken === 'string' ? paymentToken : JSON.stringify(paymentToken);
    var url = gatewayOrigin + "/checkout/" + encodeURIComponent(this.sessionId) + "/wallet/" + encodeURIComponent(brand) + "/token";
    // A form body: a simple cross-origin request, with no preflight.
    return fetch(url, {
      method: 'POST',
      credentials: 'omit',
      cache: 'no-store',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'payment_token=' + encodeURIComponent(token)
    }).then(function (response) { return response.json(); });
  };

  function walletRoute(session, brand, rest) {
    if (!session.sessionId) return null;
    return gatewayOrigin + "/checkout/" + encodeURIComponent(session.sessionId) + "/wallet/" + encodeURIComponent(brand) + "/" + rest;
  }

  /**
   * The request to open the device's wallet with, built from the merchant's wallet settings and the
   * session's amount: {wallet, payment_request} (Google Pay: with environment, for its
   * PaymentsClient), or the gateway's refusal; rejects only when the gateway cannot be reached.
   */
  PaySession.prototype.paymentRequest = function (brand) {
    var url = walletRoute(this, brand, 'request');
    if (!url) return Promise.reject(new Error('PaySession: paymentRequest() needs the sessionId of a hosted page session'));
    return fetch(url, { credentials: 'omit', cache: 'no-store' }).then(function (response) { return response.json(); });
  };

  /**
   * Apple Pay's merchant validation for the page on domain (one of the merchant's wallet domains):
   * resolves to Apple's merchant session, for completeMerchantValidation(), or the gateway's refusal
   * ({result: 'ERROR', ...}); rejects only when the gateway cannot be reached.
   */
  PaySession.prototype.validateMerchant = function (domain) {
    var url = walletRoute(this, 'applepay', 'validation');
    if (!url) return Promise.reject(new Error('PaySession: validateMerchant() needs the sessionId of a hosted page session'));
    return fetch(url, {
      method: 'POST',
      credentials: 'omit',
      cache: 'no-store',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'domain=' + encodeURIComponent(domain || location.hostname)
    }).then(function (response) { return response.json(); });
  };

  window.PaySession = PaySession;
})();
`;
