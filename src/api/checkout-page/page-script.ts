/**
 * The hosted payment page's script, served from the gateway (the CSP forbids inline script).
 * Progressive enhancement only: the page works without it, because the server checks everything
 * again. It catches typing mistakes before a round trip, formats what the payer types, and stops a
 * second click from sending a second payment.
 *
 * Written as plain ES5 text so it runs in every browser a payer may have without a build step.
 * CARD_CHECKS_JS is kept separate (it touches no DOM) so the unit tests can run it in a sandbox.
 */

import { BROWSER_VALUES_JS } from '../html/browser-info';

/** Defines `CardChecks`: pure functions over what the payer typed. */
export const CARD_CHECKS_JS = `var CardChecks = (function () {
  function digits(value) { return String(value == null ? '' : value).replace(/\\D/g, ''); }
  function between(d, length, low, high) {
    if (d.length < length) return false;
    var p = Number(d.slice(0, length));
    return p >= low && p <= high;
  }
  // Narrow ranges before the wide ones containing them, as the gateway's own brand detection does.
  var BRANDS = [
    { name: 'Visa', test: function (d) { return d.charAt(0) === '4'; } },
    { name: 'American Express', cvv: 4, max: 15, groups: [4, 6, 5], test: function (d) { return between(d, 2, 34, 34) || between(d, 2, 37, 37); } },
    { name: 'Mastercard', test: function (d) { return between(d, 2, 51, 55) || between(d, 4, 2221, 2720); } },
    { name: 'JCB', test: function (d) { return between(d, 4, 3528, 3589); } },
    { name: 'Diners Club', test: function (d) { return between(d, 3, 300, 305) || between(d, 4, 3095, 3095) || between(d, 2, 36, 36) || between(d, 2, 38, 39); } },
    { name: 'Discover', test: function (d) { return between(d, 4, 6011, 6011) || between(d, 3, 644, 649) || between(d, 2, 65, 65); } },
    { name: 'UnionPay', test: function (d) { return between(d, 2, 62, 62) || between(d, 2, 81, 81); } },
    { name: 'Maestro', test: function (d) { return between(d, 2, 50, 50) || between(d, 2, 56, 58) || between(d, 4, 6304, 6304) || between(d, 3, 639, 639) || between(d, 2, 67, 67); } }
  ];
  function brandOf(value) {
    var d = digits(value);
    if (d.length < 2) return null;
    for (var i = 0; i < BRANDS.length; i++) if (BRANDS[i].test(d)) return BRANDS[i];
    return null;
  }
  function luhn(d) {
    if (!/^\\d+$/.test(d)) return false;
    var sum = 0, double = false;
    for (var i = d.length - 1; i >= 0; i--) {
      var n = d.charCodeAt(i) - 48;
      if (double) { n *= 2; if (n > 9) n -= 9; }
      sum += n;
      double = !double;
    }
    return sum % 10 === 0;
  }
  function maxDigits(value) { var b = brandOf(value); return b && b.max ? b.max : 19; }
  /** Groups of four; 4-6-5 for American Express, 4-6-4 for a 14 digit number. */
  function formatNumber(value) {
    var d = digits(value).slice(0, maxDigits(value));
    var b = brandOf(d);
    var groups = b && b.groups ? b.groups : d.length === 14 ? [4, 6, 4] : [4, 4, 4, 4, 3];
    var out = [], at = 0;
    for (var i = 0; i < groups.length && at < d.length; i++) { out.push(d.slice(at, at + groups[i])); at += groups[i]; }
    if (at < d.length) out.push(d.slice(at));
    return out.join(' ');
  }
  function checkNumber(value) {
    var d = digits(value);
    if (!d) return 'Enter your card number.';
    if (/[^\\d\\s-]/.test(value)) return 'Enter a card number using digits only.';
    var b = brandOf(d);
    if (d.length < 12 || (b && b.max && d.length < b.max)) return 'The card number is too short.';
    if (d.length > 19) return 'The card number is too long.';
    if (!luhn(d)) return 'This card number is not valid. Check the digits and try again.';
    return '';
  }
  /** Typing 4 means April (04), and 13 means January of a year starting with 3; the separator appears once the month is complete. */
  function formatExpiry(value, deleting) {
    var d = digits(value).slice(0, 4);
    if (d.length === 1 && d > '1') d = '0' + d;
    else if (d.length >= 2 && d.charAt(0) === '1' && d.charAt(1) > '2') d = '0' + d.slice(0, 3);
    if (d.length > 2) return d.slice(0, 2) + ' / ' + d.slice(2);
    if (d.length === 2 && !deleting) return d + ' / ';
    return d;
  }
  function parseExpiry(value) {
    var m = /^\\s*(\\d{1,2})\\s*\\/?\\s*(\\d{2}|\\d{4})\\s*$/.exec(String(value || ''));
    if (!m) return null;
    var month = Number(m[1]);
    if (month < 1 || month > 12) return null;
    return { month: month, year: m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]) };
  }
  /** A card is valid through the last day of its month. */
  function checkExpiry(value, now) {
    if (!String(value || '').replace(/[\\s\\/]/g, '')) return 'Enter the expiry date.';
    var e = parseExpiry(value);
    if (!e) return 'Enter the expiry date as MM / YY.';
    var today = now || new Date();
    if (e.year * 12 + e.month < today.getFullYear() * 12 + today.getMonth() + 1) return 'This card has expired. Check the date or use another card.';
    return '';
  }
  function cvvLength(numberValue) { var b = brandOf(numberValue); return b ? (b.cvv || 3) : 0; }
  function checkCvv(value, numberValue) {
    var v = String(value || '').trim();
    var wanted = cvvLength(numberValue);
    if (!v) return 'Enter the security code.';
    if (!/^\\d+$/.test(v)) return 'Enter the security code using digits only.';
    if (wanted && v.length !== wanted) return 'Enter the ' + wanted + ' digit security code.';
    if (!wanted && (v.length < 3 || v.length > 4)) return 'Enter the 3 or 4 digit security code.';
    return '';
  }
  return {
    digits: digits, luhn: luhn, brandOf: brandOf, formatNumber: formatNumber, checkNumber: checkNumber,
    formatExpiry: formatExpiry, parseExpiry: parseExpiry, checkExpiry: checkExpiry,
    cvvLength: cvvLength, checkCvv: checkCvv
  };
})();`;

/** The page wiring: formatting, inline errors, one submit, billing state, browser data, time left. */
const PAGE_WIRING_JS = `
  var form = document.querySelector('form[data-checkout-form]');
  var live = document.getElementById('form-status');

  function announce(text) {
    if (!live) return;
    live.textContent = '';
    setTimeout(function () { live.textContent = text; }, 50);
  }
  function byName(name) { return form ? form.querySelector('[name="' + name + '"]') : null; }
  function fieldOf(input) { return input ? input.closest('.field') : null; }
  function showError(input, message) {
    var field = fieldOf(input);
    if (!field) return;
    var slot = field.querySelector('.field-error');
    if (slot) slot.textContent = message || '';
    if (message) { field.classList.add('invalid'); input.setAttribute('aria-invalid', 'true'); }
    else { field.classList.remove('invalid'); input.removeAttribute('aria-invalid'); }
  }
  function visible(input) { return input && !input.disabled && !input.closest('[hidden]'); }

  function reformat(input, formatted) {
    var raw = input.value;
    if (formatted === raw) return;
    var caret = typeof input.selectionStart === 'number' ? input.selectionStart : raw.length;
    var before = CardChecks.digits(raw.slice(0, caret)).length;
    var atEnd = caret >= raw.length;
    input.value = formatted;
    if (document.activeElement !== input || atEnd) return;
    var pos = 0, seen = 0;
    while (pos < formatted.length && seen < before) { if (/\\d/.test(formatted.charAt(pos))) seen++; pos++; }
    if (seen >= CardChecks.digits(formatted).length) pos = formatted.length;
    try { input.setSelectionRange(pos, pos); } catch (e) { /* not a text input */ }
  }

  var number = byName('card_number');
  var expiry = byName('card_expiry');
  var cvv = byName('card_cvv');
  var holder = byName('card_holder');
  var country = byName('billing_country');
  var state = byName('billing_state');
  var brandLabel = document.getElementById('card_number-brand');
  var cvvHint = document.getElementById('card_cvv-hint');

  var checks = [];
  function check(input, rule) { if (input) checks.push({ input: input, rule: rule }); }
  check(number, function () { return CardChecks.checkNumber(number.value); });
  check(expiry, function () { return CardChecks.checkExpiry(expiry.value); });
  check(cvv, function () { return CardChecks.checkCvv(cvv.value, number ? number.value : ''); });
  check(holder, function () { return holder.value.trim() || !holder.required ? '' : (holder.getAttribute('data-empty-message') || 'Enter the name on the card.'); });
  check(country, function () { return country.value ? '' : 'Select the country of your billing address.'; });
  check(state, function () { return state.value.trim() ? '' : 'Enter the state or province of your billing address.'; });

  function ruleFor(input) {
    for (var i = 0; i < checks.length; i++) if (checks[i].input === input) return checks[i].rule;
    return null;
  }
  function validate(input) { var rule = ruleFor(input); return rule && visible(input) ? rule() : ''; }

  function onBrand() {
    var brand = CardChecks.brandOf(number.value);
    if (brandLabel) brandLabel.textContent = brand ? brand.name : '';
    if (cvv) {
      var wanted = CardChecks.cvvLength(number.value);
      cvv.setAttribute('maxlength', String(wanted || 4));
      if (cvvHint) cvvHint.textContent = wanted === 4 ? '4 digits on the front of the card' : wanted === 3 ? '3 digits on the back of the card' : '3 or 4 digits';
    }
  }

  if (form) {
    form.noValidate = true;
    if (number) {
      number.addEventListener('input', function () { reformat(number, CardChecks.formatNumber(number.value)); onBrand(); });
      onBrand();
    }
    if (expiry) {
      expiry.addEventListener('input', function (e) {
        var deleting = !!(e && e.inputType && e.inputType.indexOf('delete') === 0);
        reformat(expiry, CardChecks.formatExpiry(expiry.value, deleting));
      });
    }
    if (cvv) cvv.addEventListener('input', function () { reformat(cvv, CardChecks.digits(cvv.value).slice(0, 4)); });

    var button = form.querySelector('button[type="submit"]');
    // A press on Pay blurs the field being typed in. An error appearing then would push the button
    // down before the press ends, and the click would be lost: the submit shows every error instead.
    var pressingSubmit = false;
    if (button) {
      var pressed = function () {
        pressingSubmit = true;
        setTimeout(function () { pressingSubmit = false; }, 1500);
      };
      button.addEventListener('pointerdown', pressed);
      button.addEventListener('mousedown', pressed);
    }

    checks.forEach(function (c) {
      // Errors appear when the payer leaves a field, and disappear as soon as it is fixed.
      c.input.addEventListener('blur', function () {
        if (pressingSubmit) return;
        if (c.input.value.trim() || fieldOf(c.input).classList.contains('invalid')) showError(c.input, validate(c.input));
      });
      c.input.addEventListener(c.input.tagName === 'SELECT' ? 'change' : 'input', function () {
        if (fieldOf(c.input).classList.contains('invalid')) showError(c.input, validate(c.input));
      });
    });

    if (country && state) {
      var stateField = fieldOf(state);
      var wanted = (country.getAttribute('data-state-countries') || '').split(' ');
      var toggleState = function () {
        var needed = wanted.indexOf(country.value) >= 0;
        stateField.hidden = !needed;
        state.required = needed;
        if (!needed) showError(state, '');
      };
      country.addEventListener('change', toggleState);
      toggleState();
    }

    var submitted = false;
    form.addEventListener('submit', function (e) {
      pressingSubmit = false;
      if (submitted) { e.preventDefault(); return; }
      var first = null, count = 0;
      checks.forEach(function (c) {
        var message = validate(c.input);
        showError(c.input, message);
        if (message) { count++; if (!first) first = c.input; }
      });
      if (count) {
        e.preventDefault();
        announce(count === 1 ? 'There is a problem with 1 field. ' + validate(first) : 'There are problems with ' + count + ' fields. The first: ' + validate(first));
        first.focus();
        return;
      }
      submitted = true;
      if (button) {
        button.disabled = true;
        button.setAttribute('aria-busy', 'true');
        button.textContent = button.getAttribute('data-busy-label') || 'Processing…';
      }
      announce('Processing your payment. Please wait and do not close this page.');
    });
    // Coming back with the browser's Back button restores a frozen page: let the payer submit again.
    window.addEventListener('pageshow', function (e) {
      if (!e.persisted || !button) return;
      submitted = false;
      button.disabled = false;
      button.removeAttribute('aria-busy');
      button.textContent = button.getAttribute('data-label') || button.textContent;
    });
  }

  var infoForms = document.querySelectorAll('form[data-browser-info]');
  for (var i = 0; i < infoForms.length; i++) {
    var values = ${BROWSER_VALUES_JS};
    for (var name in values) {
      var hidden = infoForms[i].querySelector('input[name="' + name + '"]');
      if (hidden) hidden.value = String(values[name]);
    }
  }

  var left = document.querySelector('[data-seconds-left]');
  if (left) {
    var deadline = Date.now() + Number(left.getAttribute('data-seconds-left')) * 1000;
    var text = left.querySelector('[data-time-left]');
    var tick = function () {
      var minutes = Math.ceil((deadline - Date.now()) / 60000);
      if (minutes <= 0) { left.textContent = 'This payment session has run out of time.'; return; }
      if (text) text.textContent = timeLeftText(minutes);
      setTimeout(tick, 15000);
    };
    setTimeout(tick, 15000);
  }

  var focusTarget = document.querySelector('[data-focus-on-load]');
  if (focusTarget && !document.querySelector('[autofocus]')) focusTarget.focus();

  // The way back to the shop in another browsing context: followed at once, the link itself the fallback.
  var onward = document.querySelector('a[data-auto-follow]');
  if (onward && onward.getAttribute('data-followed') !== 'true') {
    onward.setAttribute('data-followed', 'true');
    onward.click();
  }
`;

/** The browser's copy of timeLeftText below, so the first paint and later updates read the same. */
const TIME_LEFT_JS = `function timeLeftText(minutes) {
    var h = Math.floor(minutes / 60), m = minutes % 60;
    var parts = [];
    if (h) parts.push(h + (h === 1 ? ' hour' : ' hours'));
    if (m || !h) parts.push(m + (m === 1 ? ' minute' : ' minutes'));
    return parts.join(' ');
  }`;

export const CHECKOUT_PAGE_JS = `(function () {
  'use strict';
  ${CARD_CHECKS_JS}
  ${TIME_LEFT_JS}
  if (typeof document === 'undefined' || !document.querySelector) return;
${PAGE_WIRING_JS}
})();
`;

/** For the server's rendering, so the first paint and the script's updates read the same. */
export function timeLeftText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const parts: string[] = [];
  if (h) parts.push(`${h} ${h === 1 ? 'hour' : 'hours'}`);
  if (m || !h) parts.push(`${m} ${m === 1 ? 'minute' : 'minutes'}`);
  return parts.join(' ');
}
