/**
 * `GET /sdk/hosted-fields.js`: the script a merchant's payment page loads. It puts one gateway
 * iframe per card field into the merchant's containers and talks to them by postMessage. The
 * card data stays inside the gateway's frames: the page only ever learns whether a field is
 * valid or empty (and the card brand), when a field gains or loses focus, and how a submit ended.
 */
import { FRAME_PATH, MESSAGE_SOURCE } from './field-frame';
import { STYLE_RULES_JS } from './style-rules';

export const SDK_PATH = '/sdk/hosted-fields.js';

export const SDK_JS = `(function () {
  'use strict';
  if (window.HostedFields) return;
  var SOURCE = ${JSON.stringify(MESSAGE_SOURCE)};
  var FIELDS = ['card', 'expiry', 'cvv'];
  var TITLES = { card: 'Card number', expiry: 'Expiry date', cvv: 'Security code' };
  ${STYLE_RULES_JS}

  function scriptSrc() {
    var current = document.currentScript;
    if (current && current.src) return current.src;
    var scripts = document.getElementsByTagName('script');
    for (var i = scripts.length - 1; i >= 0; i--) {
      if (/\\/sdk\\/hosted-fields\\.js(\\?|$)/.test(scripts[i].src)) return scripts[i].src;
    }
    return '';
  }
  // Every message to and from the frames is bound to this exact origin.
  var gatewayOrigin = new URL(scriptSrc(), location.href).origin;

  function randomId() {
    var bytes = new Uint8Array(8);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }

  function merged(general, own) {
    var out = safeStyle(general);
    var extra = safeStyle(own);
    for (var k in extra) out[k] = extra[k];
    return out;
  }

  function call(fn, arg) {
    if (typeof fn !== 'function') return;
    try { fn(arg); } catch (e) { setTimeout(function () { throw e; }); }
  }

  function Instance(config) {
    if (!config || typeof config.sessionToken !== 'string' || !config.sessionToken) {
      throw new Error('HostedFields.init: sessionToken is required');
    }
    var fields = config.fields || {};
    var self = this;
    var group = randomId();
    var frames = {};
    var ready = {};
    var listeners = config.cardOn || {};
    this.config = config;

    FIELDS.forEach(function (field) {
      var options = fields[field];
      if (!options || typeof options.id !== 'string') throw new Error('HostedFields.init: fields.' + field + '.id is required');
      var container = document.getElementById(options.id);
      if (!container) throw new Error('HostedFields.init: no element with id "' + options.id + '"');
      var query = new URLSearchParams({ field: field, token: config.sessionToken, origin: location.origin, group: group });
      if (typeof options.placeholder === 'string') query.set('placeholder', options.placeholder.slice(0, 64));
      var iframe = document.createElement('iframe');
      iframe.src = gatewayOrigin + ${JSON.stringify(FRAME_PATH)} + '?' + query.toString();
      iframe.title = TITLES[field];
      iframe.setAttribute('scrolling', 'no');
      iframe.setAttribute('data-hosted-field', field);
      iframe.style.border = '0';
      iframe.style.width = '100%';
      iframe.style.height = '2.75rem';
      iframe.style.display = 'block';
      iframe.style.overflow = 'hidden';
      container.appendChild(iframe);
      frames[field] = iframe;
    });

    function fieldOf(source) {
      for (var i = 0; i < FIELDS.length; i++) {
        if (frames[FIELDS[i]] && frames[FIELDS[i]].contentWindow === source) return FIELDS[i];
      }
      return null;
    }

    function post(field, message) {
      var frame = frames[field];
      if (!frame || !frame.contentWindow) return false;
      message.source = SOURCE;
      frame.contentWindow.postMessage(message, gatewayOrigin);
      return true;
    }

    this.onMessage = function (event) {
      if (event.origin !== gatewayOrigin) return;
      var data = event.data;
      if (!data || data.source !== SOURCE) return;
      var field = fieldOf(event.source);
      if (!field || data.field !== field) return;
      switch (data.type) {
        case 'ready':
          ready[field] = true;
          post(field, { type: 'configure', style: merged(config.style, (fields[field] || {}).style) });
          break;
        case 'size':
          if (typeof data.height === 'number' && data.height > 0 && data.height < 400) frames[field].style.height = Math.ceil(data.height) + 'px';
          break;
        case 'focus':
        case 'blur':
          call(listeners[data.type], { field: field, type: data.type });
          break;
        case 'input':
          var state = { field: field, valid: data.valid === true, empty: data.empty === true };
          if (field === 'card' && typeof data.brand === 'string' && /^[A-Z]{1,16}$/.test(data.brand)) state.brand = data.brand;
          call(listeners.input, state);
          break;
        case 'result':
          if (field !== 'card') return;
          self.busy = false;
          call(config.onSubmitResult, {
            result: data.result === 'success' ? 'success' : 'undefined',
            message: typeof data.message === 'string' ? data.message.slice(0, 500) : ''
          });
          break;
      }
    };
    window.addEventListener('message', this.onMessage);

    this.collectIframesData = function () {
      if (!ready.card || !ready.expiry || !ready.cvv) {
        call(config.onSubmitResult, { result: 'undefined', message: 'The payment fields are still loading. Try again in a moment.' });
        return;
      }
      if (self.busy) return;
      self.busy = true;
      post('card', { type: 'collect' });
    };

    this.focus = function (field) {
      if (FIELDS.indexOf(field) >= 0) post(field, { type: 'focus' });
    };

    this.destroy = function () {
      window.removeEventListener('message', self.onMessage);
      FIELDS.forEach(function (field) {
        var frame = frames[field];
        if (frame && frame.parentNode) frame.parentNode.removeChild(frame);
      });
      frames = {};
      ready = {};
    };
  }

  var latest = null;
  window.HostedFields = {
    version: '1.0.0',
    init: function (config) {
      if (latest) latest.destroy();
      latest = new Instance(config);
      return latest;
    },
    collectIframesData: function () {
      if (!latest) throw new Error('HostedFields.collectIframesData: call HostedFields.init first');
      latest.collectIframesData();
    }
  };
})();
`;
