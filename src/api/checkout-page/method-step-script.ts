/**
 * The script of an alternative method's step on the hosted page (method-step-page.ts), served from
 * the gateway (the page's policy forbids inline script). It counts a QR code's time down each
 * second, and asks the session's status (`GET /checkout/{session}/status`, same origin) every few
 * seconds: once the payer no longer waits there, it opens the hosted page again, which shows the
 * outcome or sends the payer on. Each answer sets the countdown again from the gateway's clock, so
 * the page shows the expiry when the gateway decides it, not when the payer's clock says so.
 *
 * Plain ES5, like the page's own script, so it runs in any browser a payer may have.
 */
export const METHOD_STEP_JS = `(function () {
  'use strict';
  if (typeof document === 'undefined' || !document.querySelector) return;
  var root = document.querySelector('[data-method-step]');
  if (!root) return;
  var statusUrl = root.getAttribute('data-status-url');
  var pageUrl = root.getAttribute('data-page-url');
  var every = Math.max(1, Number(root.getAttribute('data-poll-seconds')) || 2) * 1000;
  var countdown = document.querySelector('[data-expires-in]');
  var shown = countdown ? countdown.querySelector('[data-countdown]') : null;
  var deadline = countdown ? Date.now() + Number(countdown.getAttribute('data-expires-in')) * 1000 : null;
  var expired = false;
  var leaving = false;

  function mmss(seconds) {
    var s = Math.max(0, Math.floor(seconds));
    var rest = s % 60;
    return Math.floor(s / 60) + ':' + (rest < 10 ? '0' : '') + rest;
  }
  function showExpired() {
    if (expired || !countdown) return;
    expired = true;
    countdown.textContent = 'The QR code has expired.';
    countdown.setAttribute('role', 'alert');
    countdown.className += ' expired';
  }
  function tick() {
    if (deadline === null || expired) return;
    var left = Math.ceil((deadline - Date.now()) / 1000);
    if (left <= 0) { showExpired(); ask(); return; }
    if (shown) shown.textContent = mmss(left);
    setTimeout(tick, 1000);
  }
  function moveOn() {
    if (leaving) return;
    leaving = true;
    window.location.assign(pageUrl);
  }
  var asking = false;
  function ask() {
    if (asking || leaving) return;
    asking = true;
    var request = new XMLHttpRequest();
    request.open('GET', statusUrl, true);
    request.setRequestHeader('Accept', 'application/json');
    request.onload = function () {
      asking = false;
      if (request.status !== 200) return;
      var status;
      try { status = JSON.parse(request.responseText); } catch (e) { return; }
      if (!status || status.waiting === false) { if (status && status.expires_in === 0) showExpired(); moveOn(); return; }
      if (typeof status.expires_in === 'number' && countdown) {
        deadline = Date.now() + status.expires_in * 1000;
        if (status.expires_in === 0) showExpired();
      }
    };
    request.onerror = function () { asking = false; };
    request.send();
  }
  setInterval(ask, every);
  tick();
})();
`;
