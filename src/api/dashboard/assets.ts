/**
 * The dashboard's stylesheet and its one script, served by the gateway (no CDN; the CSP admits
 * only same-origin files). Colours keep a contrast of at least 4.5:1 for text; state is never told
 * by colour alone.
 */

export const DASHBOARD_CSS = `
:root { --fg: #1b1f24; --bg: #f4f5f7; --card: #ffffff; --muted: #555f6b; --accent: #0b5cad; --accent-fg: #ffffff;
        --border: #c9d1d9; --good: #1a6b35; --good-bg: #e3f4e8; --bad: #a4161a; --bad-bg: #fde8e8; --neutral-bg: #eef1f4; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible, [tabindex]:focus-visible {
  outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: 0.5rem 1rem; z-index: 10; }
.skip:focus { left: 0.5rem; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem; padding: 0.75rem 1.25rem; background: #1b1f24; color: #fff; }
header.top a { color: #fff; }
.brand { font-weight: 700; text-decoration: none; }
.env { font-size: 0.75rem; font-weight: 600; text-transform: uppercase; border: 1px solid #8b949e; border-radius: 999px; padding: 0.05rem 0.5rem; margin-left: 0.25rem; }
header.top nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; margin: 0; padding: 0; }
header.top nav a { text-decoration: none; padding: 0.25rem 0; display: inline-block; }
header.top nav a[aria-current="page"] { border-bottom: 3px solid #79b8ff; font-weight: 600; }
.sign-out { margin-left: auto; }
.sign-out button.secondary { background: transparent; color: #fff; border-color: #8b949e; min-height: 2.25rem; }
main { max-width: 80rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
main:focus { outline: none; }
h1 { font-size: 1.5rem; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 0.75rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 0.5rem; }
footer.bottom { text-align: center; color: var(--muted); padding: 1rem; font-size: 0.9rem; }
.card { background: var(--card); border: 1px solid var(--border); border-radius: 10px; padding: 1rem 1.25rem; margin: 0 0 1rem; }
.card > h2:first-child, .card > h3:first-child { margin-top: 0; }
.muted, .hint, .empty { color: var(--muted); }
.hint { font-size: 0.9rem; margin: 0.25rem 0 0; }
.error { color: var(--bad); font-weight: 600; margin: 0.25rem 0 0; }
.flash { border-radius: 8px; padding: 0.75rem 1rem; margin: 0 0 1rem; font-weight: 600; }
.flash-ok { background: var(--good-bg); color: var(--good); border: 1px solid var(--good); }
.flash-error { background: var(--bad-bg); color: var(--bad); border: 1px solid var(--bad); }
form.filters { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 0.75rem 1rem; align-items: start; }
form.filters .actions { align-self: end; margin: 0; }
.field { display: flex; flex-direction: column; gap: 0.25rem; margin: 0 0 0.75rem; }
form.filters .field { margin: 0; }
label, legend { font-weight: 600; }
input[type=text], input[type=password], input[type=date], input[type=datetime-local], input[type=url], input[type=search], select, textarea {
  font: inherit; padding: 0.5rem 0.6rem; border: 1px solid #8b949e; border-radius: 6px; background: #fff; color: var(--fg); min-height: 2.75rem; width: 100%; }
.invalid input, .invalid select { border-color: var(--bad); border-width: 2px; }
fieldset { border: 1px solid var(--border); border-radius: 8px; margin: 0 0 0.75rem; padding: 0.5rem 0.75rem 0.75rem; }
.check-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: 0.25rem 1rem; }
.check-grid label { font-weight: 400; display: flex; gap: 0.4rem; align-items: center; min-height: 2rem; }
.check-grid input { width: 1.15rem; height: 1.15rem; }
button, .button { display: inline-flex; align-items: center; justify-content: center; min-height: 2.75rem; padding: 0.5rem 1rem; font: inherit; font-weight: 600;
  border-radius: 8px; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); cursor: pointer; text-decoration: none; }
button.secondary, .button.secondary { background: transparent; color: var(--fg); border-color: #8b949e; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; margin: 0.75rem 0; }
.table-wrap { overflow-x: auto; background: var(--card); border: 1px solid var(--border); border-radius: 10px; margin: 0 0 1rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
caption { text-align: left; font-weight: 600; padding: 0.6rem 0.75rem; }
th, td { text-align: left; padding: 0.5rem 0.6rem; border-top: 1px solid var(--border); vertical-align: top; }
td time { display: inline-block; min-width: 6.5rem; }
th { background: #f6f8fa; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code.id { font-size: 0.85rem; overflow-wrap: anywhere; word-break: break-all; }
.copyable { display: inline-flex; align-items: center; gap: 0.35rem; }
.copyable code.id { user-select: all; }
td .copyable code.id { white-space: nowrap; word-break: normal; overflow-wrap: normal; font-size: 0.8rem; }
button.copy { min-height: 1.75rem; padding: 0.1rem 0.45rem; font-size: 0.75rem; font-weight: 600; background: transparent; color: var(--accent); border-color: var(--border); border-radius: 6px; }
button.copy[data-copied] { color: var(--good); border-color: var(--good); }
main > h1 { overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: 0.35rem 1.25rem; margin: 0 0 1rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: 0.8rem; font-weight: 700; border-radius: 999px; padding: 0.05rem 0.55rem; border: 1px solid currentColor; white-space: nowrap; }
.badge-good { color: var(--good); background: var(--good-bg); }
.badge-bad { color: var(--bad); background: var(--bad-bg); }
.badge-neutral { color: var(--fg); background: var(--neutral-bg); }
ol.timeline { list-style: none; margin: 0; padding: 0; border-left: 3px solid var(--border); }
ol.timeline > li { position: relative; margin: 0 0 0.75rem 0; padding: 0 0 0 1rem; }
ol.timeline > li::before { content: ""; position: absolute; left: -0.5rem; top: 0.45rem; width: 0.7rem; height: 0.7rem; border-radius: 50%; background: var(--accent); }
details > summary { cursor: pointer; font-weight: 600; min-height: 2rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; border: 1px solid var(--border); border-radius: 6px; padding: 0.5rem 0.75rem; font-size: 0.85rem; }
.chain-link { font-size: 0.85rem; color: var(--muted); }
.grid-2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 1rem; }
.stat { font-size: 1.6rem; font-weight: 700; font-variant-numeric: tabular-nums; }
figure.chart { margin: 0 0 1rem; background: var(--card); border: 1px solid var(--border); border-radius: 10px; padding: 0.75rem; }
figure.chart figcaption { font-weight: 600; margin: 0 0 0.5rem; }
figure.chart svg { width: 100%; height: auto; display: block; }
.legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; padding: 0; margin: 0.5rem 0 0; font-size: 0.9rem; }
.swatch { display: inline-block; width: 0.9rem; height: 0.9rem; border-radius: 2px; margin-right: 0.3rem; vertical-align: -0.1rem; }
.swatch-0 { background: #0b5cad; } .swatch-1 { background: #b35900; } .swatch-2 { background: #1a6b35; } .swatch-3 { background: #7d3c98; } .swatch-4 { background: #a4161a; } .swatch-5 { background: #3b4a5a; }
progress { width: 100%; height: 1.25rem; }
.pager { display: flex; gap: 1rem; align-items: center; }
.sign-in { max-width: 26rem; margin: 2rem auto; }
.secret { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; background: #fff8c5; border: 1px solid #d4a72c; padding: 0.1rem 0.3rem; border-radius: 4px; overflow-wrap: anywhere; }
@media (max-width: 40rem) {
  header.top { padding: 0.5rem 0.75rem; }
  .sign-out { margin-left: 0; }
  main { padding: 0.75rem 0.75rem 2rem; }
  dl.facts { grid-template-columns: 1fr; gap: 0 0; }
  dl.facts dd { margin: 0 0 0.5rem; }
  h1 { font-size: 1.3rem; }
}
`;

/**
 * The one script: shows the copy buttons beside ids (copying them to the clipboard), and follows
 * a running `audit verify` (progress bar, rate, time left), reloading the page when it ends.
 * Everything else works without it.
 */
export const DASHBOARD_JS = `'use strict';
(function () {
  if (!navigator.clipboard) return;
  document.querySelectorAll('[data-copy]').forEach(function (button) {
    var source = button.parentNode.querySelector('[data-copy-text]');
    if (!source) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(source.textContent).then(function () {
        button.textContent = 'Copied';
        button.setAttribute('data-copied', '');
        setTimeout(function () { button.textContent = 'Copy'; button.removeAttribute('data-copied'); }, 1500);
      });
    });
  });
})();
(function () {
  var box = document.querySelector('[data-audit-status]');
  if (!box || box.getAttribute('data-state') !== 'running') return;
  var url = box.getAttribute('data-audit-status');
  var bar = box.querySelector('progress');
  var text = box.querySelector('[data-progress-text]');
  function tick() {
    fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (p) {
        if (p.state !== 'running') { window.location.replace('/dashboard/health?view=audit#audit'); return; }
        if (bar && p.head && p.position) { bar.max = Number(p.head); bar.value = Number(p.position); }
        if (text) {
          text.textContent = p.events + ' events checked' + (p.rate ? ', ' + p.rate + ' events/s' : '') +
            (p.etaSeconds != null ? ', about ' + p.etaSeconds + ' s left' : '');
        }
        setTimeout(tick, 1000);
      })
      .catch(function () { setTimeout(tick, 3000); });
  }
  setTimeout(tick, 500);
})();
`;
