/**
 * The sample shop's pages, stylesheet and browser script. Everything the shop shows about a payment
 * comes from its own server; the card fields are the gateway's iframes, so no card number ever
 * appears in these pages.
 */

export interface ShopOrder {
  number: string;
  amount: string;
  currency: string;
  description: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);

function layout(title: string, main: string, scripts: string[] = []): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/shop.css">
</head>
<body>
<header><span class="logo">Sample shop</span></header>
<main id="shop">
${main}
</main>
${scripts.map((src) => `<script src="${escapeHtml(src)}"></script>`).join('\n')}
</body>
</html>
`;
}

export function shopPage(input: { token: string; order: ShopOrder; gatewayUrl: string }): string {
  const { order } = input;
  return layout(
    'Checkout - Sample shop',
    `<h1>Checkout</h1>
<section class="summary" aria-label="Order summary">
  <p>${escapeHtml(order.description)}</p>
  <p class="total">Total <strong>${escapeHtml(order.amount)} ${escapeHtml(order.currency)}</strong></p>
  <p class="muted">Order ${escapeHtml(order.number)}</p>
</section>
<form id="payment-form" data-token="${escapeHtml(input.token)}" data-order="${escapeHtml(order.number)}" novalidate>
  <label for="cardholder">Name on card</label>
  <input id="cardholder" name="cardholder" autocomplete="cc-name" required>
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="email" value="alex@example.com">
  <span class="label" id="card-number-label">Card number</span>
  <div id="card-number" class="hosted-field" aria-labelledby="card-number-label"></div>
  <div class="row">
    <div>
      <span class="label" id="card-expiry-label">Expiry (MM / YY)</span>
      <div id="card-expiry" class="hosted-field" aria-labelledby="card-expiry-label"></div>
    </div>
    <div>
      <span class="label" id="card-cvv-label">Security code</span>
      <div id="card-cvv" class="hosted-field" aria-labelledby="card-cvv-label"></div>
    </div>
  </div>
  <p id="card-state" class="muted" data-valid="false" aria-live="polite">Enter your card details.</p>
  <button id="pay" type="submit">Pay ${escapeHtml(order.amount)} ${escapeHtml(order.currency)}</button>
  <div id="result" role="status" aria-live="polite"></div>
</form>
<p class="muted small">Sandbox cards: 4111 1111 1111 1111 with expiry 01/38 (paid), 02/38 (declined), 05/38 (3-D Secure).</p>`,
    [`${input.gatewayUrl}/sdk/hosted-fields.js`, '/shop.js'],
  );
}

/** Sends the payer's browser on to the 3-D Secure page with the fields the gateway gave. */
export function redirectPage(url: string, params: Record<string, string>): string {
  const inputs = Object.entries(params)
    .map(([name, value]) => `  <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return layout(
    'Verifying your card - Sample shop',
    `<h1>Verifying your card</h1>
<form method="post" action="${escapeHtml(url)}" data-auto-post>
${inputs}
  <p class="muted">Your bank asks you to confirm this payment. If nothing happens, select Continue.</p>
  <button type="submit">Continue</button>
</form>`,
    ['/shop.js'],
  );
}

export function returnPage(params: Record<string, string>, signature: 'valid' | 'invalid' | 'unknown order'): string {
  const rows = ['payment_id', 'trans_id', 'order_id', 'hash']
    .map((name) => `  <dt>${name}</dt><dd id="return-${name}">${escapeHtml(params[name] ?? '')}</dd>`)
    .join('\n');
  const note =
    signature === 'valid'
      ? 'The signature of these parameters is valid.'
      : signature === 'invalid'
        ? 'The signature of these parameters does not match: do not trust them.'
        : 'This order is not known to the shop.';
  return layout(
    'Back from your bank - Sample shop',
    `<h1>Back from your bank</h1>
<p id="return-signature" data-signature="${escapeHtml(signature)}">${escapeHtml(note)}</p>
<dl>
${rows}
</dl>
<p class="muted">The payment's final status arrives with the gateway's callback (or a status lookup).</p>
<p><a href="/">Back to the shop</a></p>`,
  );
}

export function errorPage(message: string): string {
  return layout('Error - Sample shop', `<h1>Checkout is not available</h1>\n<p id="error">${escapeHtml(message)}</p>`);
}

export const SHOP_CSS = `* { box-sizing: border-box; }
body { margin: 0; background: #f5f6f8; color: #1f2933; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header { background: #1f2933; color: #ffffff; padding: 0.75rem 1.25rem; }
.logo { font-weight: 700; letter-spacing: 0.02em; }
main { max-width: 28rem; margin: 1.5rem auto; background: #ffffff; border: 1px solid #d9dee4; border-radius: 12px; padding: 1.5rem; }
h1 { font-size: 1.35rem; margin: 0 0 1rem; }
.summary { border-bottom: 1px solid #e4e7eb; margin-bottom: 1rem; }
.summary p { margin: 0 0 0.4rem; }
.total { font-size: 1.1rem; }
.muted { color: #52606d; }
.small { font-size: 0.85rem; margin-top: 1rem; }
label, .label { display: block; font-weight: 600; margin: 0.9rem 0 0.3rem; }
input { width: 100%; height: 2.75rem; padding: 0.5rem 0.75rem; font: inherit; border: 1px solid #8c959f; border-radius: 8px; }
input:focus { outline: 2px solid #0b5cad; outline-offset: -2px; border-color: #0b5cad; }
.hosted-field { min-height: 2.75rem; }
.hosted-field.focused iframe { outline: 2px solid #0b5cad; outline-offset: 0; border-radius: 8px; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
#card-state { min-height: 1.5rem; margin: 0.75rem 0; }
#card-state[data-valid="true"] { color: #1a7f37; }
button { width: 100%; min-height: 2.75rem; margin-top: 0.5rem; font: inherit; font-weight: 600; color: #ffffff; background: #0b5cad; border: 0; border-radius: 8px; cursor: pointer; }
button:disabled { background: #7a8ea3; cursor: progress; }
button:focus-visible { outline: 3px solid #1f2933; outline-offset: 2px; }
#result { margin-top: 1rem; }
#result:empty { display: none; }
#result.success { color: #1a7f37; font-weight: 600; }
#result.failure { color: #b42318; font-weight: 600; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; word-break: break-all; }
dt { font-weight: 600; }
dd { margin: 0; font-family: ui-monospace, monospace; font-size: 0.85rem; }
@media (max-width: 30rem) { main { margin: 0; border-radius: 0; border-width: 0 0 1px; } }
`;

/**
 * The shop page's script: sets up the hosted fields, and on Pay asks the gateway's frames to hand
 * the card over (collectIframesData), then has the shop's server pay with the session token.
 */
export const SHOP_JS = `(function () {
  'use strict';
  var autoPost = document.querySelector('form[data-auto-post]');
  if (autoPost) { HTMLFormElement.prototype.submit.call(autoPost); return; }
  var form = document.getElementById('payment-form');
  if (!form || !window.HostedFields) return;
  var button = document.getElementById('pay');
  var result = document.getElementById('result');
  var cardState = document.getElementById('card-state');
  var NAMES = { card: 'Card number', expiry: 'Expiry date', cvv: 'Security code' };
  var CONTAINERS = { card: 'card-number', expiry: 'card-expiry', cvv: 'card-cvv' };
  var valid = { card: false, expiry: false, cvv: false };

  function show(kind, text) {
    result.className = kind;
    result.textContent = text;
  }
  function done() { button.disabled = false; }

  function browserInfo() {
    return {
      color_depth: screen.colorDepth,
      screen_height: screen.height,
      screen_width: screen.width,
      java_enabled: false,
      java_script_enabled: true,
      language: navigator.language || '',
      time_zone_offset: new Date().getTimezoneOffset(),
      user_agent: navigator.userAgent,
      platform: navigator.platform || ''
    };
  }

  function pay() {
    show('', 'Processing your payment...');
    fetch('/pay', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        order: form.getAttribute('data-order'),
        name: document.getElementById('cardholder').value,
        email: document.getElementById('email').value,
        browser_info: browserInfo()
      })
    })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        if (answer.result === 'redirect' && answer.next) { location.assign(answer.next); return; }
        if (answer.result === 'success') show('success', 'Payment successful. Thank you for your order!');
        else if (answer.result === 'decline') show('failure', 'Payment declined: ' + (answer.decline_message || 'Declined'));
        else show('failure', answer.message || 'The payment could not be completed.');
        done();
      })
      .catch(function () { show('failure', 'The shop could not reach the payment service.'); done(); });
  }

  var fields = window.HostedFields.init({
    sessionToken: form.getAttribute('data-token'),
    fields: {
      card: { id: 'card-number', placeholder: '4111 1111 1111 1111' },
      expiry: { id: 'card-expiry', placeholder: 'MM / YY' },
      cvv: { id: 'card-cvv', placeholder: '123' }
    },
    style: { 'font-size': '16px', color: '#1f2933', 'border-radius': '8px', border: '1px solid #8c959f' },
    cardOn: {
      focus: function (e) { document.getElementById(CONTAINERS[e.field]).classList.add('focused'); },
      blur: function (e) { document.getElementById(CONTAINERS[e.field]).classList.remove('focused'); },
      input: function (state) {
        valid[state.field] = state.valid;
        if (state.field !== 'card') return;
        cardState.setAttribute('data-valid', state.valid ? 'true' : 'false');
        cardState.textContent = state.empty ? 'Enter your card details.'
          : state.valid ? 'Card number looks valid' + (state.brand && state.brand !== 'UNKNOWN' ? ' (' + state.brand + ')' : '') + '.'
          : NAMES.card + ' is not complete yet.';
      }
    },
    onSubmitResult: function (data) {
      if (data.result === 'success') { pay(); return; }
      show('failure', data.message || 'Check your card details.');
      done();
    }
  });

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (!document.getElementById('cardholder').value.trim()) {
      show('failure', 'Enter the name on the card.');
      document.getElementById('cardholder').focus();
      return;
    }
    button.disabled = true;
    show('', 'Checking your card...');
    fields.collectIframesData();
  });
})();
`;
