/**
 * The dashboard's HTML: one layout (skip link, header with navigation, main, footer landmarks) and
 * small builders for tables, forms and lists. Every value is escaped where it is interpolated;
 * builders take raw values and escape them, except where a parameter is named `html`.
 *
 * Pages carry no inline script and no inline style (the CSP forbids both): the stylesheet and the
 * one script are files the gateway serves (assets.ts).
 */
import { htmlDocument } from '../html/document';
import { escapeHtml as esc } from '../html/page-kit';
import type { DashboardSession } from './session';

export { esc };

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const STYLE_PATH = '/dashboard/assets/dashboard.css';
export const SCRIPT_PATH = '/dashboard/assets/dashboard.js';

export type Section = 'payments' | 'callbacks' | 'merchants' | 'analytics' | 'health';

const SECTIONS: ReadonlyArray<[Section, string]> = [
  ['payments', 'Payments'],
  ['callbacks', 'Callbacks'],
  ['merchants', 'Merchants'],
  ['analytics', 'Analytics'],
  ['health', 'Health'],
];

export interface Flash {
  kind: 'ok' | 'error';
  text: string;
}

export function layout(options: {
  title: string;
  section?: Section;
  session?: DashboardSession;
  environment: string;
  main: string;
  flash?: Flash | null;
}): string {
  const nav = options.session
    ? `<nav aria-label="Dashboard"><ul>${SECTIONS.map(
        ([key, label]) => `<li><a href="/dashboard/${key}"${key === options.section ? ' aria-current="page"' : ''}>${label}</a></li>`,
      ).join('')}</ul></nav>
<form method="post" action="/dashboard/sign-out" class="sign-out">${csrfInput(options.session)}<button type="submit" class="secondary">Sign out</button></form>`
    : '';
  const flash = options.flash
    ? `<div class="flash flash-${options.flash.kind}" role="${options.flash.kind === 'error' ? 'alert' : 'status'}">${esc(options.flash.text)}</div>`
    : '';
  return htmlDocument(
    { title: `${options.title} · Ledger gateway`, stylesheets: [STYLE_PATH], scripts: [SCRIPT_PATH] },
    `<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/dashboard">Ledger gateway <span class="env">${esc(options.environment)}</span></a>
${nav}
</header>
<main id="main" tabindex="-1">
<h1>${esc(options.title)}</h1>
${flash}
${options.main}
</main>
<footer class="bottom"><a href="/docs/api">API reference</a> · <a href="/openapi.json">openapi.json</a> · <a href="/health">/health</a></footer>`,
  );
}

export function csrfInput(session: DashboardSession): string {
  return `<input type="hidden" name="_csrf" value="${esc(session.csrf)}">`;
}

/** A table in a scrollable, keyboard-focusable region (narrow screens scroll it sideways). */
export function table(options: { caption: string; head: string[]; rows: string[][]; empty: string; numeric?: number[] }): string {
  if (options.rows.length === 0) return `<p class="empty">${esc(options.empty)}</p>`;
  const numeric = new Set(options.numeric ?? []);
  const cls = (i: number) => (numeric.has(i) ? ' class="num"' : '');
  return `<div class="table-wrap" role="region" aria-label="${esc(options.caption)}" tabindex="0"><table>
<caption>${esc(options.caption)}</caption>
<thead><tr>${options.head.map((h, i) => `<th scope="col"${cls(i)}>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${options.rows.map((row) => `<tr>${row.map((cell, i) => `<td${cls(i)}>${cell}</td>`).join('')}</tr>`).join('\n')}
</tbody></table></div>`;
}

/** A definition list of label → html value. */
export function details(items: Array<[string, string]>): string {
  return `<dl class="facts">${items.map(([label, html]) => `<dt>${esc(label)}</dt><dd>${html}</dd>`).join('')}</dl>`;
}

let fieldCounter = 0;

export interface FieldOptions {
  label: string;
  name: string;
  value?: string;
  type?: string;
  hint?: string;
  error?: string;
  required?: boolean;
  attrs?: string;
}

export function input(o: FieldOptions): string {
  const id = `f-${o.name.replace(/[^\w-]/g, '')}-${++fieldCounter}`;
  const hintId = o.hint ? `${id}-hint` : '';
  const errorId = o.error ? `${id}-error` : '';
  const described = [hintId, errorId].filter(Boolean).join(' ');
  return `<div class="field${o.error ? ' invalid' : ''}">
<label for="${id}">${esc(o.label)}</label>
<input id="${id}" name="${esc(o.name)}" type="${esc(o.type ?? 'text')}" value="${esc(o.value ?? '')}"${o.required ? ' required' : ''}${described ? ` aria-describedby="${described}"` : ''}${o.error ? ' aria-invalid="true"' : ''}${o.attrs ? ` ${o.attrs}` : ''}>
${o.hint ? `<p class="hint" id="${hintId}">${esc(o.hint)}</p>` : ''}${o.error ? `<p class="error" id="${errorId}">${esc(o.error)}</p>` : ''}
</div>`;
}

export function select(o: FieldOptions & { options: Array<[string, string]> }): string {
  const id = `f-${o.name.replace(/[^\w-]/g, '')}-${++fieldCounter}`;
  const errorId = o.error ? `${id}-error` : '';
  const hintId = o.hint ? `${id}-hint` : '';
  const described = [hintId, errorId].filter(Boolean).join(' ');
  return `<div class="field${o.error ? ' invalid' : ''}">
<label for="${id}">${esc(o.label)}</label>
<select id="${id}" name="${esc(o.name)}"${described ? ` aria-describedby="${described}"` : ''}${o.error ? ' aria-invalid="true"' : ''}>
${o.options.map(([value, label]) => `<option value="${esc(value)}"${value === (o.value ?? '') ? ' selected' : ''}>${esc(label)}</option>`).join('')}
</select>
${o.hint ? `<p class="hint" id="${hintId}">${esc(o.hint)}</p>` : ''}${o.error ? `<p class="error" id="${errorId}">${esc(o.error)}</p>` : ''}
</div>`;
}

/** A group of checkboxes sharing one name, in a fieldset with a legend. */
export function checkboxes(o: { legend: string; name: string; options: readonly string[]; checked: readonly string[]; hint?: string; error?: string }): string {
  const checked = new Set(o.checked);
  return `<fieldset class="checks${o.error ? ' invalid' : ''}"><legend>${esc(o.legend)}</legend>
${o.hint ? `<p class="hint">${esc(o.hint)}</p>` : ''}
<div class="check-grid">${o.options
    .map((value) => {
      const id = `f-${o.name}-${value.replace(/[^\w-]/g, '')}-${++fieldCounter}`;
      return `<label for="${id}"><input type="checkbox" id="${id}" name="${esc(o.name)}" value="${esc(value)}"${checked.has(value) ? ' checked' : ''}> ${esc(value)}</label>`;
    })
    .join('')}</div>
${o.error ? `<p class="error">${esc(o.error)}</p>` : ''}
</fieldset>`;
}

/** A state word as a small badge whose class the stylesheet colours (never colour alone: the word is there). */
export function badge(text: string): string {
  const tone = /^(settled|delivered|success|ok|open|active|approved|authorized|pending_ok)$/i.test(text)
    ? 'good'
    : /^(declined|failed|error|broken|blocked|ended|void|unavailable)$/i.test(text)
      ? 'bad'
      : 'neutral';
  return `<span class="badge badge-${tone}">${esc(text)}</span>`;
}

export function link(href: string, text: string): string {
  return `<a href="${esc(href)}">${esc(text)}</a>`;
}

/** Monospace text that may be long (ids, hashes): wraps anywhere. */
export function code(text: string): string {
  return `<code class="id">${esc(text)}</code>`;
}

/**
 * An id shown in full, in monospace, selectable as one word, with a button that copies it (the
 * dashboard's script shows the button; without the script the id is still selectable). `label`
 * names it for the button: `Copy trans id …`.
 */
export function copyable(id: string, label: string, href?: string): string {
  const text = `<code class="id" data-copy-text>${esc(id)}</code>`;
  return `<span class="copyable">${href ? `<a href="${esc(href)}">${text}</a>` : text}<button type="button" class="copy" data-copy hidden aria-label="${esc(`Copy ${label} ${id}`)}">Copy</button></span>`;
}

/** `2026-11-24T10:00:00.412Z` → `2026-11-24 10:00:00 UTC`, in a <time> element. */
export function time(iso: string | null | undefined): string {
  if (!iso) return '<span class="muted">–</span>';
  return `<time datetime="${esc(iso)}">${esc(iso.slice(0, 19).replace('T', ' '))} UTC</time>`;
}
