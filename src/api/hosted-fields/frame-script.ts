/**
 * `GET /hosted-fields/frame.js`: the script of every field frame. It formats and checks what the
 * payer types, reports only validity to the merchant's page, and, in the card frame, gathers the
 * three values on `collect` and sends them to the gateway. The expiry and CVV are read from the
 * sibling frames directly: they are the gateway's own origin, so nothing passes through the
 * merchant's page. Messages are accepted only from the window that embeds the frame, from the
 * origin the SDK named, and only of the known types.
 */
import { CARD_DATA_PATH, FRAME_PATH, MESSAGE_SOURCE } from './field-frame';
import { STYLE_RULES_JS } from './style-rules';

export const FRAME_JS = `(function () {
  'use strict';
  var SOURCE = ${JSON.stringify(MESSAGE_SOURCE)};
  var FRAME_PATH = ${JSON.stringify(FRAME_PATH)};
  ${STYLE_RULES_JS}

  var params = new URLSearchParams(location.search);
  var field = params.get('field');
  var token = params.get('token') || '';
  var group = params.get('group') || '';
  var parentOrigin = params.get('origin') || '';
  var input = document.getElementById('field');
  if (!input || window.parent === window) return;
  if (!/^https?:\\/\\/[^\\/\\s]+$/.test(parentOrigin)) return;

  function send(message) {
    message.source = SOURCE;
    message.field = field;
    window.parent.postMessage(message, parentOrigin);
  }

  function digits(value) { return String(value || '').replace(/\\D/g, ''); }

  function luhn(number) {
    var sum = 0, double = false;
    for (var i = number.length - 1; i >= 0; i--) {
      var d = number.charCodeAt(i) - 48;
      if (double) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
      double = !double;
    }
    return sum % 10 === 0;
  }

  function brandOf(number) {
    if (number.length < 4) return '';
    var p2 = Number(number.slice(0, 2)), p4 = Number(number.slice(0, 4));
    if (number[0] === '4') return 'VISA';
    if (p2 === 34 || p2 === 37) return 'AMEX';
    if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return 'MASTERCARD';
    if (p4 >= 3528 && p4 <= 3589) return 'JCB';
    if (p4 === 6011 || p2 === 65) return 'DISCOVER';
    if (p2 === 36 || p2 === 38 || p2 === 39 || (Number(number.slice(0, 3)) >= 300 && Number(number.slice(0, 3)) <= 305)) return 'DINERS';
    if (p2 === 62) return 'UNIONPAY';
    return 'UNKNOWN';
  }

  function formatCard(d) {
    d = d.slice(0, 19);
    if (brandOf(d) === 'AMEX') return [d.slice(0, 4), d.slice(4, 10), d.slice(10, 15)].filter(Boolean).join(' ');
    return d.replace(/(\\d{4})(?=\\d)/g, '$1 ');
  }

  function formatExpiry(d) {
    if (d.length === 1 && d > '1') d = '0' + d;
    d = d.slice(0, 4);
    return d.length > 2 ? d.slice(0, 2) + ' / ' + d.slice(2) : d;
  }

  function expiryParts(value) {
    var m = /^\\s*(\\d{2})\\s*\\/\\s*(\\d{2})\\s*$/.exec(value);
    return m ? { month: Number(m[1]), year: 2000 + Number(m[2]) } : null;
  }

  var checks = {
    card: function (value) { var d = digits(value); return d.length >= 12 && d.length <= 19 && luhn(d); },
    expiry: function (value) {
      var parts = expiryParts(value);
      if (!parts || parts.month < 1 || parts.month > 12) return false;
      var now = new Date();
      return parts.year > now.getFullYear() || (parts.year === now.getFullYear() && parts.month >= now.getMonth() + 1);
    },
    cvv: function (value) { return /^\\d{3,4}$/.test(value); }
  };
  var formats = {
    card: formatCard,
    expiry: formatExpiry,
    cvv: function (d) { return d.slice(0, 4); }
  };
  if (!checks[field]) return;

  // Reformats while keeping the caret after the same number of digits.
  function reformat() {
    var caret = input.selectionStart === null ? input.value.length : input.selectionStart;
    var digitsBefore = digits(input.value.slice(0, caret)).length;
    var formatted = formats[field](digits(input.value));
    if (formatted === input.value) return;
    input.value = formatted;
    var pos = 0, seen = 0;
    while (pos < formatted.length && seen < digitsBefore) {
      if (/\\d/.test(formatted[pos])) seen++;
      pos++;
    }
    try { input.setSelectionRange(pos, pos); } catch (e) { /* not focused */ }
  }

  var touched = false;
  function state() {
    var valid = checks[field](input.value);
    var message = { type: 'input', valid: valid, empty: input.value === '' };
    if (field === 'card') message.brand = brandOf(digits(input.value)) || undefined;
    return message;
  }
  function markValidity(showErrors) {
    var invalid = showErrors && input.value !== '' && !checks[field](input.value);
    input.classList.toggle('invalid', invalid);
    input.setAttribute('aria-invalid', invalid ? 'true' : 'false');
  }

  input.addEventListener('input', function () {
    reformat();
    markValidity(touched);
    send(state());
  });
  input.addEventListener('focus', function () { send({ type: 'focus' }); });
  input.addEventListener('blur', function () {
    touched = true;
    markValidity(true);
    send({ type: 'blur' });
    send(state());
  });

  function applyStyle(style) {
    var safe = safeStyle(style);
    for (var name in safe) input.style.setProperty(name, safe[name]);
    send({ type: 'size', height: document.documentElement.scrollHeight });
  }

  function sibling(name) {
    var frames = window.parent.frames;
    for (var i = 0; i < frames.length; i++) {
      try {
        var w = frames[i];
        if (w === window || w.location.origin !== location.origin || w.location.pathname !== FRAME_PATH) continue;
        var p = new URLSearchParams(w.location.search);
        if (p.get('field') !== name || p.get('token') !== token || p.get('group') !== group) continue;
        var other = w.document.getElementById('field');
        if (other) return other;
      } catch (e) { /* another origin's frame */ }
    }
    return null;
  }

  var busy = false;
  function result(outcome, message) {
    busy = false;
    send({ type: 'result', result: outcome, message: message });
  }

  function collect() {
    if (field !== 'card' || busy) return;
    busy = true;
    var expiry = sibling('expiry');
    var cvv = sibling('cvv');
    if (!expiry || !cvv) return result('undefined', 'The expiry date or security code field is missing.');
    touched = true;
    markValidity(true);
    if (!checks.card(input.value)) return result('undefined', 'Enter a valid card number.');
    if (!checks.expiry(expiry.value)) return result('undefined', 'Enter a valid expiry date (MM / YY) that has not passed.');
    if (!checks.cvv(cvv.value)) return result('undefined', 'Enter the 3 or 4 digit security code.');
    fetch(${JSON.stringify(CARD_DATA_PATH)}, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'omit',
      cache: 'no-store',
      body: JSON.stringify({ token: token, number: digits(input.value), expiry: expiry.value, cvv: cvv.value })
    })
      .then(function (response) { return response.json(); })
      .then(function (body) {
        result(body && body.result === 'success' ? 'success' : 'undefined', body && typeof body.message === 'string' ? body.message : 'The card data was not accepted.');
      })
      .catch(function () { result('undefined', 'The card data could not be sent. Check the connection and try again.'); });
  }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || event.origin !== parentOrigin) return;
    var data = event.data;
    if (!data || data.source !== SOURCE) return;
    switch (data.type) {
      case 'configure': applyStyle(data.style); break;
      case 'collect': collect(); break;
      case 'focus': input.focus(); break;
    }
  });

  send({ type: 'ready' });
})();
`;
