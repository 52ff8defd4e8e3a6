/**
 * The hosted payment page's stylesheet, served from the gateway (`style-src 'self'`, no inline
 * styles). System fonts only: a payment page must not wait for, or leak the payer to, a font host.
 * Colours are chosen for contrast (text at least 4.5:1, field borders at least 3:1), in the light
 * scheme and in the dark one a payer's device may ask for, as on the gateway's other hosted pages.
 */
export const CHECKOUT_PAGE_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f3f4f6; --card: #ffffff; --fg: #111827; --muted: #4b5563; --line: #e5e7eb;
  --field: #7c8491; --placeholder: #6b7280; --accent: #1d4ed8; --accent-dark: #1e40af; --accent-fg: #ffffff;
  --focus: rgba(29, 78, 216, 0.35); --summary: #f8fafc;
  --error: #b91c1c; --error-bg: #fef2f2; --error-line: #fecaca;
  --ok: #166534; --ok-bg: #f0fdf4;
  --radius: 14px;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --card: #161b22; --fg: #e6edf3; --muted: #9da7b3; --line: #30363d;
    --field: #768390; --placeholder: #8b949e; --accent: #4493f8; --accent-dark: #6cb0ff; --accent-fg: #0d1117;
    --focus: rgba(68, 147, 248, 0.45); --summary: #1c2128;
    --error: #ff7b72; --error-bg: #2a1416; --error-line: #6e3630;
    --ok: #3fb950; --ok-bg: #11261a;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0; min-height: 100vh; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
.visually-hidden {
  position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
[hidden] { display: none !important; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, [tabindex="-1"]:focus-visible {
  outline: 3px solid var(--accent); outline-offset: 2px;
}
.shell { max-width: 60rem; margin: 0 auto; padding: 2rem 1.25rem 2.5rem; }
.topbar { display: flex; align-items: center; justify-content: space-between; gap: 1rem; margin-bottom: 1.25rem; }
.topbar .shop { font-weight: 650; font-size: 1.05rem; overflow-wrap: anywhere; }
.secure { display: inline-flex; align-items: center; gap: 0.4rem; color: var(--muted); font-size: 0.875rem; white-space: nowrap; }
.secure svg { width: 1rem; height: 1rem; flex: none; }
.card {
  background: var(--card); border: 1px solid var(--line); border-radius: var(--radius);
  box-shadow: 0 1px 2px rgba(17, 24, 39, 0.05), 0 8px 24px rgba(17, 24, 39, 0.06); overflow: hidden;
}
.checkout { display: grid; grid-template-columns: minmax(0, 21rem) minmax(0, 1fr); }
.summary { background: var(--summary); border-right: 1px solid var(--line); padding: 2rem 1.75rem; }
.summary .label { margin: 0; color: var(--muted); font-size: 0.875rem; }
.summary .amount { margin: 0.15rem 0 1.5rem; font-size: 2rem; font-weight: 700; letter-spacing: -0.01em; line-height: 1.2; font-variant-numeric: tabular-nums; }
.summary .amount .currency { font-size: 1.1rem; font-weight: 600; color: var(--muted); margin-left: 0.3rem; }
.summary dl { margin: 0; }
.summary dt { color: var(--muted); font-size: 0.8125rem; margin-top: 1rem; }
.summary dt:first-child { margin-top: 0; }
.summary dd { margin: 0.1rem 0 0; font-weight: 550; overflow-wrap: anywhere; }
.expires { margin: 1.5rem 0 0; padding-top: 1.1rem; border-top: 1px solid var(--line); color: var(--muted); font-size: 0.875rem; }
.pay { padding: 2rem 2.25rem; }
h1 { font-size: 1.375rem; line-height: 1.3; margin: 0 0 1.25rem; }
.notice:focus { outline: none; }
.notice { border-radius: 10px; padding: 0.85rem 1rem; margin: 0 0 1.25rem; border: 1px solid var(--error-line); background: var(--error-bg); color: var(--error); }
.notice p { margin: 0; }
.notice p + p { margin-top: 0.35rem; color: var(--fg); font-size: 0.9375rem; }
.notice strong { font-weight: 650; }
.notice ul { margin: 0.4rem 0 0; padding-left: 1.2rem; }
.notice a { color: var(--error); font-weight: 600; }
form { margin: 0; }
.field { margin: 0 0 1.1rem; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 0 1rem; }
label { display: block; font-weight: 600; font-size: 0.9375rem; margin: 0 0 0.35rem; }
.hint { display: block; font-weight: 400; color: var(--muted); font-size: 0.8125rem; }
input[type="text"], select {
  display: block; width: 100%; min-height: 3rem; padding: 0.65rem 0.85rem; font: inherit; font-size: 1rem;
  color: var(--fg); background: var(--card); border: 1px solid var(--field); border-radius: 8px;
  transition: border-color 0.15s, box-shadow 0.15s;
}
select { appearance: none; padding-right: 2.25rem; background-image: linear-gradient(45deg, transparent 50%, var(--muted) 50%), linear-gradient(135deg, var(--muted) 50%, transparent 50%);
  background-position: calc(100% - 1.15rem) 55%, calc(100% - 0.8rem) 55%; background-size: 0.35rem 0.35rem; background-repeat: no-repeat; }
input::placeholder { color: var(--placeholder); opacity: 1; }
input[type="text"]:focus, select:focus { outline: none; border-color: var(--accent); box-shadow: 0 0 0 3px var(--focus); }
input.number { letter-spacing: 0.04em; font-variant-numeric: tabular-nums; }
.label-row { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; }
.brand { font-size: 0.875rem; font-weight: 650; color: var(--muted); white-space: nowrap; }
.field.invalid input, .field.invalid select { border-color: var(--error); }
.field.invalid input:focus, .field.invalid select:focus { box-shadow: 0 0 0 3px rgba(185, 28, 28, 0.25); }
.field-error { margin: 0.35rem 0 0; color: var(--error); font-size: 0.875rem; font-weight: 550; }
.field-error:empty { display: none; }
.stored { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: 0.8rem 1rem; border: 1px solid var(--line); border-radius: 8px; background: var(--summary); margin: 0 0 1.1rem; }
.stored .mask { font-variant-numeric: tabular-nums; letter-spacing: 0.04em; font-weight: 600; }
.stored .label { color: var(--muted); font-size: 0.875rem; }
button { font: inherit; cursor: pointer; }
.primary {
  display: block; width: 100%; min-height: 3.25rem; margin-top: 0.5rem; padding: 0.75rem 1rem; border: 0; border-radius: 10px;
  background: var(--accent); color: var(--accent-fg); font-size: 1.0625rem; font-weight: 650;
}
.primary:hover { background: var(--accent-dark); }
a.primary { box-sizing: border-box; text-align: center; text-decoration: none; line-height: 1.75rem; }
.primary[disabled] { cursor: progress; opacity: 0.75; }
.link-button { display: block; margin: 0.9rem auto 0; padding: 0.5rem 0.75rem; border: 0; background: none; color: var(--muted); text-decoration: underline; text-underline-offset: 2px; font-size: 0.9375rem; }
.link-button:hover { color: var(--fg); }
.reassure { display: flex; align-items: flex-start; gap: 0.5rem; margin: 1.25rem 0 0; color: var(--muted); font-size: 0.8125rem; }
.reassure svg { width: 0.95rem; height: 0.95rem; flex: none; margin-top: 0.15rem; }
.message { padding: 2.5rem 2.25rem; text-align: center; }
.message h1 { margin-bottom: 0.6rem; }
.message p { color: var(--muted); margin: 0 auto 1rem; max-width: 30rem; }
.message .primary { display: inline-block; width: auto; min-width: 12rem; text-decoration: none; }
.spinner { width: 2.5rem; height: 2.5rem; margin: 0 auto 1.25rem; border-radius: 50%; border: 4px solid var(--line); border-top-color: var(--accent); animation: spin 0.9s linear infinite; }
@keyframes spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation-duration: 3s; } * { transition: none !important; } }
.footer { margin: 1.25rem 0 0; text-align: center; color: var(--muted); font-size: 0.8125rem; }
@media (max-width: 760px) {
  .shell { padding: 1rem 0.75rem 1.5rem; }
  .topbar { margin-bottom: 0.75rem; padding: 0 0.25rem; }
  .checkout { grid-template-columns: 1fr; }
  .summary { border-right: 0; border-bottom: 1px solid var(--line); padding: 1.25rem 1.25rem 1.1rem; }
  .summary .amount { font-size: 1.75rem; margin-bottom: 0.9rem; }
  .summary dl { display: grid; grid-template-columns: auto 1fr; gap: 0.35rem 1rem; }
  .summary dt { margin: 0; }
  .summary dd { margin: 0; text-align: right; }
  /* Beside its label the order number keeps to one line: cut short, whole in its title and when copied. */
  .summary dd[data-order-number] { min-width: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .expires { margin-top: 0.9rem; padding-top: 0.75rem; }
  .pay { padding: 1.4rem 1.25rem 1.5rem; }
  .message { padding: 2rem 1.25rem; }
  h1 { font-size: 1.25rem; }
}
@media (max-width: 340px) {
  .row { grid-template-columns: 1fr; }
}
`;
