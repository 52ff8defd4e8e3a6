/**
 * The hosted page's script for the payer's own wallet outside the sandbox
 * (docs/wallets.md#the-wallet-on-the-hosted-page). It asks the session for the wallet's payment
 * request first, so the sheet opens within the payer's click as the wallets demand, then:
 *
 * - Apple Pay: `ApplePaySession`, whose merchant validation asks the session's validation route
 *   and whose authorized payment's token goes to the session's token route;
 * - Google Pay: Google's `pay.js` (the one outside script, on this page only), a `PaymentsClient`
 *   in the merchant's environment, whose `PaymentData` token goes to the token route.
 *
 * The token route's answer says where the payer goes (the session's page, which sends them on). A
 * device without the wallet is told so, and may choose another way to pay. Plain ES5, no inline code.
 */
import { createHash } from 'node:crypto';

export const DEVICE_WALLET_JS_PATH = '/checkout/assets/device-wallet.js';
export const GOOGLE_PAY_JS = 'https://pay.google.com/gp/p/js/pay.js';

export const DEVICE_WALLET_JS = `(function () {
  'use strict';
  var box = document.querySelector('[data-device-wallet]');
  if (!box || !window.fetch) return;
  var wallet = box.getAttribute('data-device-wallet');
  var label = box.getAttribute('data-label');
  var button = box.querySelector('[data-device-wallet-button]');
  var note = box.querySelector('[data-device-wallet-note]');
  var routes = { request: box.getAttribute('data-request'), validation: box.getAttribute('data-validation'), token: box.getAttribute('data-token') };

  function say(text) { note.textContent = text; }
  function unavailable() {
    button.hidden = true;
    say(label + ' is not available on this device. Please choose another way to pay.');
  }
  function refused(answer) {
    var why = answer && answer.error_message ? answer.error_message : 'it could not be reached';
    say(label + ' could not pay: ' + why + '. Please try again or choose another way to pay.');
  }
  function json(response) {
    return response.json().then(function (body) { return response.ok ? body : Promise.reject(body); });
  }
  function form(fields) {
    return Object.keys(fields).map(function (k) { return encodeURIComponent(k) + '=' + encodeURIComponent(fields[k]); }).join('&');
  }
  function post(url, fields) {
    return fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, body: form(fields) }).then(json);
  }
  /** Hands the device's token to the session; resolves with its answer (null when refused: the payer is told). */
  function payWith(token) {
    say('Paying with ' + label + '…');
    return post(routes.token, { payment_token: typeof token === 'string' ? token : JSON.stringify(token) }).then(
      function (answer) { return answer; },
      function (answer) { refused(answer); return null; }
    );
  }
  /** The session's page says how the attempt stands and sends the payer on. */
  function goOn(answer) { if (answer) location.assign(answer.redirect_url); }

  function apple(config) {
    var Session = window.ApplePaySession;
    if (!Session || !Session.canMakePayments()) return unavailable();
    button.hidden = false;
    say('');
    button.addEventListener('click', function () {
      var session = new Session(3, config.payment_request);
      session.onvalidatemerchant = function () {
        post(routes.validation, {}).then(
          function (merchantSession) { session.completeMerchantValidation(merchantSession); },
          function (answer) { session.abort(); refused(answer); }
        );
      };
      session.onpaymentauthorized = function (event) {
        payWith(event.payment.token).then(function (answer) {
          session.completePayment(answer && answer.result !== 'decline' ? Session.STATUS_SUCCESS : Session.STATUS_FAILURE);
          goOn(answer);
        });
      };
      session.begin();
    });
  }

  function google(config) {
    var script = document.createElement('script');
    script.src = '${GOOGLE_PAY_JS}';
    script.onerror = unavailable;
    script.onload = function () {
      var client = new window.google.payments.api.PaymentsClient({ environment: config.environment });
      var card = config.payment_request.allowedPaymentMethods[0];
      client.isReadyToPay({ apiVersion: 2, apiVersionMinor: 0, allowedPaymentMethods: [{ type: card.type, parameters: card.parameters }] }).then(function (ready) {
        if (!ready.result) return unavailable();
        button.hidden = false;
        say('');
      }, unavailable);
      button.addEventListener('click', function () {
        client.loadPaymentData(config.payment_request).then(
          function (data) { payWith(data.paymentMethodData.tokenizationData.token).then(goOn); },
          function (error) { if (!error || error.statusCode !== 'CANCELED') refused(null); }
        );
      });
    };
    document.head.appendChild(script);
  }

  fetch(routes.request, { credentials: 'same-origin', headers: { Accept: 'application/json' } }).then(json).then(function (config) {
    if (wallet === 'applepay') apple(config); else google(config);
  }, function (answer) {
    if (answer && answer.error_message) refused(answer); else unavailable();
  });
})();
`;

export const DEVICE_WALLET_JS_VERSION = createHash('sha256').update(DEVICE_WALLET_JS).digest('hex').slice(0, 12);

/**
 * The page's policy where it shows Google Pay's button: Google's script, what it connects to and
 * the frame it opens, besides the gateway itself. Apple Pay is the browser's own and needs none.
 */
export function googlePayPageCsp(base: string): string {
  return base
    .replace("script-src 'self'", "script-src 'self' https://pay.google.com")
    .replace("connect-src 'self'", "connect-src 'self' https://pay.google.com https://google.com")
    .concat('; frame-src https://pay.google.com');
}
