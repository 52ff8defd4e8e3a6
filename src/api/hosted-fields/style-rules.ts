/**
 * The style a merchant may give the hosted fields, as browser JavaScript shared by the SDK (which
 * drops anything else before sending) and the field frames (which check again, since a message
 * can come from any script on the merchant's page). A small allowlist of properties, and values
 * made of plain tokens: no `url(...)` or other functions that could fetch, no comments, no escapes.
 */
export const STYLE_PROPERTIES = [
  'color',
  'font-size',
  'font-family',
  'font-weight',
  'letter-spacing',
  'padding',
  'background-color',
  'border',
  'border-radius',
] as const;

/** Defines `safeStyle(object) -> { 'css-name': 'value' }` in the enclosing function scope. */
export const STYLE_RULES_JS = `
  var STYLE_PROPERTIES = ${JSON.stringify(STYLE_PROPERTIES)};
  var STYLE_FUNCTIONS = ['rgb', 'rgba', 'hsl', 'hsla', 'calc'];
  function safeStyleValue(value) {
    if (typeof value === 'number' && isFinite(value)) value = String(value);
    if (typeof value !== 'string') return null;
    value = value.trim();
    if (!value || value.length > 120) return null;
    if (!/^[-#(),.%\\w\\s'"+*]+$/.test(value)) return null;
    var calls = value.match(/[-\\w]+\\s*\\(/g) || [];
    for (var i = 0; i < calls.length; i++) {
      if (STYLE_FUNCTIONS.indexOf(calls[i].replace(/[\\s(]/g, '').toLowerCase()) < 0) return null;
    }
    if (value.split('(').length !== calls.length + 1) return null;
    return value;
  }
  function safeStyle(input) {
    var out = {};
    if (!input || typeof input !== 'object') return out;
    for (var key in input) {
      if (!Object.prototype.hasOwnProperty.call(input, key)) continue;
      var name = String(key).replace(/[A-Z]/g, function (c) { return '-' + c.toLowerCase(); });
      if (STYLE_PROPERTIES.indexOf(name) < 0) continue;
      var value = safeStyleValue(input[key]);
      if (value !== null) out[name] = value;
    }
    return out;
  }
`;
