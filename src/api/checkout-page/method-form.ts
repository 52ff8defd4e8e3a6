/**
 * Choosing how to pay on the hosted page, and the form of an alternative method. The choice is a
 * list of links (`?method=<id>`), so it works without the page's script; each method's form asks
 * only for what its provider collects from the payer because the merchant did not send it, and
 * posts to the same pay endpoint as the card form, naming the method.
 */
import type { CheckoutPageModel, MethodFieldProblem, PageMethod } from '../../application/checkout/checkout-service';
import { browserInfoInputs, escapeHtml } from '../html/page-kit';
import { methodFieldProblemText } from './messages';
import { amountText } from './order-summary';

/** Form fields of a method are named `method.<field>` (`method.bankDetails[cbu]`). */
export const METHOD_FIELD_PREFIX = 'method.';

const fieldId = (name: string): string => `method-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/**
 * The method the page shows: the one asked for by `?method=`, when the session offers it; else the
 * one the latest attempt was made with (the payer tries again the same way); else the first.
 */
export function chosenMethod(model: Pick<CheckoutPageModel, 'methods' | 'lastMethod'>, asked?: string): PageMethod | null {
  const find = (id: string | null | undefined) => (id ? model.methods.find((m) => m.method === id) : undefined);
  return find(asked) ?? find(model.lastMethod) ?? model.methods[0] ?? null;
}

/** The list of methods, the chosen one marked; nothing when the session offers one method. */
export function renderMethodChooser(model: CheckoutPageModel, chosen: string, prefix: string): string {
  if (model.methods.length < 2) return '';
  const page = `${prefix}/checkout/${encodeURIComponent(model.session.sessionId)}`;
  const items = model.methods
    .map((m) => {
      const current = m.method === chosen ? ' aria-current="true"' : '';
      const id = m.label.toLowerCase() === m.method.toLowerCase() ? '' : ` <span class="method-id">${escapeHtml(m.method)}</span>`;
      return `    <li><a href="${escapeHtml(`${page}?method=${encodeURIComponent(m.method)}`)}"${current} data-method="${escapeHtml(m.method)}">${escapeHtml(m.label)}${id}</a></li>`;
    })
    .join('\n');
  return `<nav class="methods" aria-labelledby="methods-title">
  <h2 id="methods-title" class="methods-title">Choose how to pay</h2>
  <ul>
${items}
  </ul>
</nav>`;
}

/** The chosen alternative method's form: what the page collects, then Pay. */
export function renderMethodForm(model: CheckoutPageModel, method: PageMethod, prefix: string, problems: readonly MethodFieldProblem[] = [], typed: Record<string, string> = {}): string {
  const action = `${prefix}/checkout/${encodeURIComponent(model.session.sessionId)}/pay`;
  const submit = `Pay ${amountText(model)}`;
  const firstProblem = problems.find((p) => p.field !== null)?.field ?? null;
  const fields = method.collect.map((field) => {
    const problem = problems.find((p) => p.field === field.name);
    const error = problem ? methodFieldProblemText(problem) : '';
    const id = fieldId(field.name);
    const label = field.label ?? field.name;
    const attributes = [
      `id="${escapeHtml(id)}"`,
      `name="${escapeHtml(METHOD_FIELD_PREFIX + field.name)}"`,
      `value="${escapeHtml(typed[field.name] ?? '')}"`,
      `aria-describedby="${escapeHtml(id)}-error"`,
      `maxlength="${field.maxLength ?? 255}"`,
      'autocomplete="off"',
      'spellcheck="false"',
      ...(field.name === 'phone' || field.name.endsWith('[phoneNumber]') ? ['type="tel"', 'inputmode="tel"'] : ['type="text"']),
      ...(problem ? ['aria-invalid="true"'] : []),
      ...(firstProblem === field.name ? ['autofocus'] : []),
    ];
    return `<div class="field${problem ? ' invalid' : ''}">
  <label for="${escapeHtml(id)}">${escapeHtml(label)}</label>
  <input ${attributes.join(' ')}>
  <p class="field-error" id="${escapeHtml(id)}-error" aria-live="polite">${escapeHtml(error)}</p>
</div>`;
  });
  const unavailable = problems.find((p) => p.field === null);
  const notice = unavailable
    ? `<div class="notice" id="problems" role="alert"><p><strong>${escapeHtml(methodFieldProblemText(unavailable))}</strong></p></div>\n`
    : problems.length
      ? '<div class="notice" id="problems" role="alert"><p><strong>Please check the details below.</strong></p></div>\n'
      : '';
  const help = method.collect.length
    ? `The payment provider needs ${method.collect.length === 1 ? 'this detail' : 'these details'} to take your payment.`
    : 'Select Pay to continue with the payment provider.';
  return `${notice}<form method="post" action="${escapeHtml(action)}" data-method-form data-browser-info aria-labelledby="pay-title">
  <input type="hidden" name="method" value="${escapeHtml(method.method)}">
  <p class="method-help">${escapeHtml(help)}</p>
${fields.join('\n')}
${browserInfoInputs()}
    <div id="form-status" class="visually-hidden" role="status" aria-live="polite"></div>
    <button type="submit" class="primary" data-label="${escapeHtml(submit)}" data-busy-label="Processing…">${escapeHtml(submit)}</button>
  </form>`;
}

/**
 * What the payer typed into an alternative method's form: the values of the fields the page asked
 * for (`method.<field>`), by the method's field names, each trimmed; nothing else the body carries.
 */
export function readMethodFields(field: (name: string) => string | undefined, method: PageMethod | undefined): Record<string, string> {
  const typed: Record<string, string> = {};
  for (const f of method?.collect ?? []) {
    const value = field(METHOD_FIELD_PREFIX + f.name)?.trim();
    if (value) typed[f.name] = value;
  }
  return typed;
}
