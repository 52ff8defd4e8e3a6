/**
 * The payment form. What it asks for depends on the session: card number, expiry, CVV and name for
 * a purchase or debit; no CVV ever for a credit (a payout); only the expiry and the payee's name
 * when a stored card is credited; the billing state only where the country needs one.
 *
 * After a refused submit the form comes back with the problems next to their fields and the
 * harmless values kept. The card number and CVV are never written back into the page.
 */
import type { CheckoutPageModel, FieldProblem, MethodFieldProblem, PageMethod } from '../../application/checkout/checkout-service';
import { isWalletMethod } from '../../domain/merchant/methods';
import { browserInfoInputs, escapeHtml } from '../html/page-kit';
import { billingFields } from './billing-fields';
import { cardFields } from './card-fields';
import { fieldErrors, type KeptValues } from './form-field';
import { cardFormNotices, declineNotice } from './form-notices';
import { chosenMethod, offersChoice, renderMethodForm, renderPayHeading } from './method-form';
import { amountText, isCredit, renderOrderSummary } from './order-summary';
import { LOCK_ICON, renderDocument } from './render-page';
import { renderWalletButton } from './wallet-sheet';

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

export function renderFormPage(input: FormPageInput): string {
  const chosen = chosenMethod(input.model, input.method);
  if (chosen && chosen.method !== 'card') return renderMethodFormPage(input, chosen);
  const { model, kept = {}, problems = [] } = input;
  const errors = fieldErrors(problems);
  const fields = [...cardFields(model, kept, errors), ...billingFields(model, kept, errors)];
  const credit = isCredit(model);
  const amount = amountText(model);
  const heading = credit ? (model.storedCardMask ? 'Confirm your card to receive the money' : 'Receive money on your card') : 'Pay by card';
  const submit = credit ? `Receive ${amount}` : `Pay ${amount}`;
  const main = `<div class="checkout">
${renderOrderSummary(model, input.now)}
<section class="pay" aria-labelledby="${offersChoice(model) ? 'methods-title' : 'pay-title'}">
  ${renderPayHeading(model, 'card', heading, cardFormNotices(model, problems, input.methodProblems), input.prefix)}
  <form method="post" action="${escapeHtml(actionOf(input, 'pay'))}" data-checkout-form data-browser-info aria-labelledby="pay-title">
${fields.join('\n')}
${browserInfoInputs()}
    <div id="form-status" class="visually-hidden" role="status" aria-live="polite"></div>
    <button type="submit" class="primary" data-label="${escapeHtml(submit)}" data-busy-label="Processing…">${escapeHtml(submit)}</button>
  </form>
  ${cancelForm(input)}
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
  const notice = model.lastDecline && !input.methodProblems?.length ? declineNotice(model.lastDecline, model.attemptsLeft, 'choose another way to pay') : '';
  const main = `<div class="checkout">
${renderOrderSummary(model, input.now)}
<section class="pay" aria-labelledby="${offersChoice(model) ? 'methods-title' : 'pay-title'}">
  ${renderPayHeading(model, method.method, method.label, notice, input.prefix)}
  ${isWalletMethod(method.method) ? renderWalletButton(model, method, input.prefix, input.walletSheet === true) : renderMethodForm(model, method, input.prefix, input.methodProblems, input.methodTyped)}
  ${cancelForm(input)}
</section>
</div>`;
  const state = input.methodProblems?.length ? 'Check your details – ' : model.lastDecline ? 'Payment declined – ' : '';
  return renderDocument({ title: `${state}Pay ${amountText(model)} – ${model.merchantName}`, prefix: input.prefix, shopName: model.merchantName, main });
}

const actionOf = (input: FormPageInput, what: 'pay' | 'cancel'): string => `${input.prefix}/checkout/${encodeURIComponent(input.model.session.sessionId)}/${what}`;

function cancelForm(input: FormPageInput): string {
  return `<form method="post" action="${escapeHtml(actionOf(input, 'cancel'))}" data-cancel-form>
    <button type="submit" class="link-button">Cancel and return to the shop</button>
  </form>`;
}
