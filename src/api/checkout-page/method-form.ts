/**
 * Choosing how to pay on the hosted page, and the form of an alternative method. The choice is a
 * list of links (`?method=<id>`), so it works without the page's script; each method's form asks
 * only for what its provider collects from the payer because the merchant did not send it, and
 * posts to the same pay endpoint as the card form, naming the method.
 */
import type { CheckoutPageModel, MethodFieldProblem, PageMethod } from '../../application/checkout/checkout-service';
import { isWalletMethod } from '../../domain/merchant/methods';
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

/** One entry of the list: a method under the name the payer sees, and every id the session offers it by. */
interface ChoiceEntry {
  method: PageMethod;
  ids: string[];
}

/**
 * The methods as the payer tells them apart: by their names, each once. A method the session also
 * offers by another name (an alias) looks exactly the same to the payer, so it is listed once,
 * under the first id it was offered by.
 */
function choiceEntries(model: Pick<CheckoutPageModel, 'methods'>): ChoiceEntry[] {
  const byName = new Map<string, ChoiceEntry>();
  for (const m of model.methods) {
    const name = m.label.trim().toLowerCase();
    const entry = byName.get(name);
    if (entry) entry.ids.push(m.method);
    else byName.set(name, { method: m, ids: [m.method] });
  }
  return [...byName.values()];
}

/** Whether the page offers a choice: two methods or more that the payer can tell apart. */
export const offersChoice = (model: Pick<CheckoutPageModel, 'methods'>): boolean => choiceEntries(model).length > 1;

/**
 * The top of the page's pay section. With one method: its heading, the page's title. With a
 * choice: "Choose how to pay", then cards (and wallets, which pay with a card) and the other
 * methods under headings of their own, the chosen one marked, each by its name only, and then the
 * chosen method's heading, which the form below belongs to. `notices` come right under the title.
 */
export function renderPayHeading(model: CheckoutPageModel, chosen: string, heading: string, notices: string, prefix: string): string {
  const entries = choiceEntries(model);
  if (entries.length < 2) return `<h1 id="pay-title">${escapeHtml(heading)}</h1>\n  ${notices}`;
  const page = `${prefix}/checkout/${encodeURIComponent(model.session.sessionId)}`;
  const item = (entry: ChoiceEntry): string => {
    const id = entry.method.method;
    const current = entry.ids.includes(chosen) ? ' aria-current="true"' : '';
    return `      <li><a href="${escapeHtml(`${page}?method=${encodeURIComponent(id)}`)}"${current} data-method="${escapeHtml(id)}">${escapeHtml(entry.method.label)}</a></li>`;
  };
  const isCardLike = (entry: ChoiceEntry) => entry.method.method === 'card' || isWalletMethod(entry.method.method);
  const cards = entries.filter(isCardLike);
  const others = entries.filter((entry) => !isCardLike(entry));
  const groups = [
    { id: 'methods-cards', title: cards.some((e) => e.method.method !== 'card') ? 'Cards and wallets' : 'Cards', entries: cards },
    { id: 'methods-other', title: 'Other ways to pay', entries: others },
  ].filter((group) => group.entries.length > 0);
  // One group alone needs no heading of its own: "Choose how to pay" says it all.
  const lists = groups
    .map((group) => {
      const items = group.entries.map(item).join('\n');
      if (groups.length === 1) return `  <ul class="methods-list">\n${items}\n  </ul>`;
      return `  <div class="methods-group">
    <h2 id="${group.id}" class="methods-group-title">${escapeHtml(group.title)}</h2>
    <ul class="methods-list" aria-labelledby="${group.id}">
${items}
    </ul>
  </div>`;
    })
    .join('\n');
  return `<h1 id="methods-title">Choose how to pay</h1>
  ${notices}
  <nav class="methods" aria-labelledby="methods-title">
${lists}
  </nav>
  <h2 id="pay-title" class="pay-title">${escapeHtml(heading)}</h2>`;
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
