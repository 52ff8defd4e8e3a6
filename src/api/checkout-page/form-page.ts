/**
 * The payment form. What it asks for depends on the session: card number, expiry, CVV and name for
 * a purchase or debit; no CVV ever for a credit (a payout); only the expiry and the payee's name
 * when a stored card is credited; the billing state only where the country needs one.
 *
 * After a refused submit the form comes back with the problems next to their fields and the
 * harmless values kept. The card number and CVV are never written back into the page.
 */
import {
  STATE_COUNTRIES,
  needsBillingState,
  type CheckoutPageModel,
  type FieldName,
  type FieldProblem,
  type MethodFieldProblem,
  type PageMethod,
} from '../../application/checkout/checkout-service';
import { chosenMethod, offersChoice, renderMethodForm, renderPayHeading } from './method-form';
import { renderWalletButton } from './wallet-sheet';
import { isWalletMethod } from '../../domain/merchant/methods';
import { browserInfoInputs, escapeHtml } from '../html/page-kit';
import { COUNTRIES } from './countries';
import { amountText, isCredit, renderOrderSummary } from './order-summary';
import { declineReasonText, fieldProblemText, methodFieldProblemText } from './messages';
import { LOCK_ICON, renderDocument } from './render-page';

/** What the payer typed that may be shown again. */
export interface KeptValues {
  card_expiry?: string;
  card_holder?: string;
  billing_country?: string;
  billing_state?: string;
}

export interface FormPageInput {
  model: CheckoutPageModel;
  now: Date;
  prefix: string;
  /** After a refused submit. */
  kept?: KeptValues;
  problems?: FieldProblem[];
  /** The method the payer picked in the list (`?method=`); absent: the page's choice (chosenMethod). */
  method?: string;
  /** After a refused submit of an alternative method's form: its problems and what was typed. */
  methodProblems?: MethodFieldProblem[];
  methodTyped?: Record<string, string>;
  /** Whether a wallet's button opens the sandbox's simulated wallet sheet (wallet-sheet.ts). */
  walletSheet?: boolean;
}

/** The form's fields, top to bottom: the order the problem summary lists them in. */
const FIELD_ORDER: readonly FieldName[] = ['card_number', 'card_expiry', 'card_cvv', 'card_holder', 'billing_country', 'billing_state'];

const declineSentence = (reason: string): string => `Your payment was declined: ${reason.trim().replace(/[.\s]+$/, '')}.`;

const attemptsSentence = (left: number): string => (left === 1 ? 'You have 1 attempt left.' : `You have ${left} attempts left.`);

interface FieldOptions {
  name: FieldName;
  label: string;
  hint?: string;
  hintId?: string;
  control: string;
  error?: string;
  hidden?: boolean;
  /** Shown at the end of the label's line (the detected card brand). */
  aside?: string;
}

function field(o: FieldOptions): string {
  const hint = o.hint ? ` <span class="hint" id="${o.hintId ?? `${o.name}-hint`}">${escapeHtml(o.hint)}</span>` : '';
  const classes = ['field', o.error ? 'invalid' : ''].filter(Boolean).join(' ');
  const label = `<label for="${o.name}">${escapeHtml(o.label)}${hint}</label>`;
  return `<div class="${classes}"${o.hidden ? ' hidden' : ''}>
  ${o.aside ? `<div class="label-row">${label}${o.aside}</div>` : label}
  ${o.control}
  <p class="field-error" id="${o.name}-error" aria-live="polite">${escapeHtml(o.error ?? '')}</p>
</div>`;
}

/** Attributes every text input shares: accessible description, error state, focus after a refusal. */
function inputAttributes(name: FieldName, error: string | undefined, autofocus: boolean, described: string[] = []): string {
  const ids = [...described, `${name}-error`].join(' ');
  return `id="${name}" name="${name}" aria-describedby="${ids}"${error ? ' aria-invalid="true"' : ''}${autofocus ? ' autofocus' : ''}`;
}

export function renderFormPage(input: FormPageInput): string {
  const chosen = chosenMethod(input.model, input.method);
  if (chosen && chosen.method !== 'card') return renderMethodFormPage(input, chosen);
  const { model, kept = {}, problems = [] } = input;
  const session = model.session;
  const credit = isCredit(model);
  const amount = amountText(model);
  const errorOf = (name: FieldName): string | undefined => {
    const problem = problems.find((p) => p.field === name);
    return problem ? fieldProblemText(problem) : undefined;
  };
  const firstProblem = FIELD_ORDER.find((name) => errorOf(name));
  const focus = (name: FieldName): boolean => firstProblem === name;

  const fields: string[] = [];
  if (model.storedCardMask) {
    fields.push(`<div class="stored" data-stored-card>
  <span class="label">Card</span>
  <span class="mask">${escapeHtml(model.storedCardMask)}</span>
</div>`);
  } else if (model.needs.cardNumber) {
    fields.push(
      field({
        name: 'card_number',
        label: 'Card number',
        aside: '<span class="brand" id="card_number-brand"></span>',
        error: errorOf('card_number'),
        control: `<input class="number" type="text" inputmode="numeric" autocomplete="cc-number" autocapitalize="off" autocorrect="off" spellcheck="false" maxlength="23" placeholder="1234 1234 1234 1234" required ${inputAttributes('card_number', errorOf('card_number'), focus('card_number'), ['card_number-brand'])}>`,
      }),
    );
  }

  const expiry = field({
    name: 'card_expiry',
    label: 'Expiry date',
    hint: model.storedCardMask ? 'MM / YY, as printed on the card above' : 'MM / YY',
    error: errorOf('card_expiry'),
    control: `<input type="text" inputmode="numeric" autocomplete="cc-exp" autocorrect="off" spellcheck="false" maxlength="9" placeholder="MM / YY" required value="${escapeHtml(kept.card_expiry ?? '')}" ${inputAttributes('card_expiry', errorOf('card_expiry'), focus('card_expiry'), ['card_expiry-hint'])}>`,
  });
  if (model.needs.cvv) {
    const cvv = field({
      name: 'card_cvv',
      label: 'Security code',
      hint: '3 or 4 digits',
      error: errorOf('card_cvv'),
      control: `<input type="text" inputmode="numeric" autocomplete="cc-csc" autocorrect="off" spellcheck="false" maxlength="4" placeholder="123" required ${inputAttributes('card_cvv', errorOf('card_cvv'), focus('card_cvv'), ['card_cvv-hint'])}>`,
    });
    fields.push(`<div class="row">\n${expiry}\n${cvv}\n</div>`);
  } else {
    fields.push(expiry);
  }

  const holderValue = kept.card_holder ?? model.holderName;
  // Prefilled from the payee names or the stored card; only a card the payer types needs one.
  const holderRequired = !model.storedCardMask;
  fields.push(
    field({
      name: 'card_holder',
      label: 'Name on card',
      error: errorOf('card_holder'),
      control: `<input type="text" autocomplete="cc-name" autocapitalize="words" spellcheck="false" maxlength="100"${holderRequired ? ' required' : ''} value="${escapeHtml(holderValue)}" data-empty-message="${escapeHtml(fieldProblemText({ field: 'card_holder', problem: 'missing' }))}" ${inputAttributes('card_holder', errorOf('card_holder'), focus('card_holder'))}>`,
    }),
  );

  fields.push(...billingFields(model, kept, errorOf, focus));

  const notices: string[] = [];
  // A method the session does not offer (any more) was posted: the page falls back to the card and says so.
  const unavailable = input.methodProblems?.find((p) => p.field === null);
  if (unavailable) notices.push(`<div class="notice" id="problems" role="alert"><p><strong>${escapeHtml(methodFieldProblemText(unavailable))}</strong></p></div>`);
  if (problems.length) {
    const items = FIELD_ORDER.flatMap((name) => problems.filter((p) => p.field === name))
      .map((p) => `<li><a href="#${p.field}">${escapeHtml(fieldProblemText(p))}</a></li>`)
      .join('');
    const reenter = model.needs.cardNumber && !model.storedCardMask
      ? `\n  <p>For your security, enter your card number${model.needs.cvv ? ' and security code' : ''} again.</p>`
      : '';
    notices.push(`<div class="notice" id="problems" role="alert">
  <p><strong>Please check the details below.</strong></p>
  <ul>${items}</ul>${reenter}
</div>`);
  } else if (model.lastDecline) {
    notices.push(`<div class="notice" id="decline" role="alert" tabindex="-1" data-focus-on-load>
  <p><strong>${escapeHtml(declineSentence(declineReasonText(model.lastDecline.reason)))}</strong> Please try again or use another card.</p>
  <p>${escapeHtml(attemptsSentence(model.attemptsLeft))}</p>
</div>`);
  }

  const action = (what: 'pay' | 'cancel') => `${input.prefix}/checkout/${encodeURIComponent(session.sessionId)}/${what}`;
  const heading = credit ? (model.storedCardMask ? 'Confirm your card to receive the money' : 'Receive money on your card') : 'Pay by card';
  const submit = credit ? `Receive ${amount}` : `Pay ${amount}`;
  const main = `<div class="checkout">
${renderOrderSummary(model, input.now)}
<section class="pay" aria-labelledby="${offersChoice(model) ? 'methods-title' : 'pay-title'}">
  ${renderPayHeading(model, 'card', heading, notices.join('\n'), input.prefix)}
  <form method="post" action="${escapeHtml(action('pay'))}" data-checkout-form data-browser-info aria-labelledby="pay-title">
${fields.join('\n')}
${browserInfoInputs()}
    <div id="form-status" class="visually-hidden" role="status" aria-live="polite"></div>
    <button type="submit" class="primary" data-label="${escapeHtml(submit)}" data-busy-label="Processing…">${escapeHtml(submit)}</button>
  </form>
  <form method="post" action="${escapeHtml(action('cancel'))}" data-cancel-form>
    <button type="submit" class="link-button">Cancel and return to the shop</button>
  </form>
  <p class="reassure">${LOCK_ICON}<span>Your card details go straight to the gateway over an encrypted connection. The shop never sees your full card number.</span></p>
</section>
</div>`;
  // The tab title says what happened first: a payer may have switched tabs while it loaded.
  const state = problems.length ? 'Check your details – ' : model.lastDecline ? 'Payment declined – ' : '';
  const title = `${state}${submit} – ${model.merchantName}`;
  return renderDocument({ title, prefix: input.prefix, shopName: model.merchantName, main });
}

/** The page with an alternative method chosen: the same summary, notices and list, the method's form. */
function renderMethodFormPage(input: FormPageInput, method: PageMethod): string {
  const { model } = input;
  const notice = model.lastDecline && !input.methodProblems?.length
    ? `<div class="notice" id="decline" role="alert" tabindex="-1" data-focus-on-load>
  <p><strong>${escapeHtml(declineSentence(declineReasonText(model.lastDecline.reason)))}</strong> Please try again or choose another way to pay.</p>
  <p>${escapeHtml(attemptsSentence(model.attemptsLeft))}</p>
</div>`
    : '';
  const cancel = `${input.prefix}/checkout/${encodeURIComponent(model.session.sessionId)}/cancel`;
  const main = `<div class="checkout">
${renderOrderSummary(model, input.now)}
<section class="pay" aria-labelledby="${offersChoice(model) ? 'methods-title' : 'pay-title'}">
  ${renderPayHeading(model, method.method, method.label, notice, input.prefix)}
  ${isWalletMethod(method.method) ? renderWalletButton(model, method, input.prefix, input.walletSheet === true) : renderMethodForm(model, method, input.prefix, input.methodProblems, input.methodTyped)}
  <form method="post" action="${escapeHtml(cancel)}" data-cancel-form>
    <button type="submit" class="link-button">Cancel and return to the shop</button>
  </form>
</section>
</div>`;
  const state = input.methodProblems?.length ? 'Check your details – ' : model.lastDecline ? 'Payment declined – ' : '';
  return renderDocument({ title: `${state}Pay ${amountText(model)} – ${model.merchantName}`, prefix: input.prefix, shopName: model.merchantName, main });
}

/** Whether the page asks for a billing country and state: not when a stored card is credited. */
export const asksBillingAddress = (model: Pick<CheckoutPageModel, 'session'>): boolean => !model.session.cardToken;

/**
 * The state field appears only for the countries that need one. A session with a country decides
 * it here; a session without one gets a country select, and the page script shows the state field
 * when one of those countries is chosen (the server checks again either way).
 */
function billingFields(
  model: CheckoutPageModel,
  kept: KeptValues,
  errorOf: (name: FieldName) => string | undefined,
  focus: (name: FieldName) => boolean,
): string[] {
  const address = model.session.billingAddress;
  const out: string[] = [];
  // A stored card's credit asks the payer for the expiry only (spec, card credit): no address.
  if (!asksBillingAddress(model)) return out;
  let stateShown = model.needs.billingState && !address.state;
  const stateOffered = stateShown || !address.country;
  if (!address.country) {
    const chosen = (kept.billing_country ?? '').toUpperCase();
    stateShown = needsBillingState(chosen);
    const options = COUNTRIES.map(
      (c) => `<option value="${c.code}"${c.code === chosen ? ' selected' : ''}>${escapeHtml(c.name)}</option>`,
    ).join('');
    out.push(
      field({
        name: 'billing_country',
        label: 'Billing country',
        error: errorOf('billing_country'),
        control: `<select autocomplete="billing country" required data-state-countries="${STATE_COUNTRIES.join(' ')}" ${inputAttributes('billing_country', errorOf('billing_country'), focus('billing_country'))}><option value="">Select a country</option>${options}</select>`,
      }),
    );
  }
  if (stateOffered) {
    out.push(
      field({
        name: 'billing_state',
        label: 'State / province',
        hidden: !stateShown,
        error: errorOf('billing_state'),
        control: `<input type="text" autocomplete="billing address-level1" maxlength="100"${stateShown ? ' required' : ''} value="${escapeHtml(kept.billing_state ?? '')}" ${inputAttributes('billing_state', errorOf('billing_state'), focus('billing_state'))}>`,
      }),
    );
  }
  return out;
}
