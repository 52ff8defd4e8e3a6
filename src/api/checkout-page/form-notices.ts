/** What the payment form says above its fields: what to correct after a refused submit, or that the last attempt was declined. */
import type { CheckoutPageModel, FieldProblem, MethodFieldProblem } from '../../application/checkout/checkout-service';
import { escapeHtml } from '../html/page-kit';
import { FIELD_ORDER } from './form-field';
import { declineReasonText, fieldProblemText, methodFieldProblemText } from './messages';

const declineSentence = (reason: string): string => `Your payment was declined: ${reason.trim().replace(/[.\s]+$/, '')}.`;

const attemptsSentence = (left: number): string => (left === 1 ? 'You have 1 attempt left.' : `You have ${left} attempts left.`);

/** The latest attempt was declined: why, what the payer may do (`another card`, `choose another way to pay`) and how many tries are left. */
export function declineNotice(decline: { reason: string | null }, attemptsLeft: number, otherWay: string): string {
  return `<div class="notice" id="decline" role="alert" tabindex="-1" data-focus-on-load>
  <p><strong>${escapeHtml(declineSentence(declineReasonText(decline.reason)))}</strong> Please try again or ${otherWay}.</p>
  <p>${escapeHtml(attemptsSentence(attemptsLeft))}</p>
</div>`;
}

/** The card form's notices: a method no longer on offer, then the fields to correct, or else the decline. */
export function cardFormNotices(model: CheckoutPageModel, problems: readonly FieldProblem[], methodProblems: readonly MethodFieldProblem[] | undefined): string {
  const notices: string[] = [];
  // A method the session does not offer (any more) was posted: the page falls back to the card and says so.
  const unavailable = methodProblems?.find((p) => p.field === null);
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
    notices.push(declineNotice(model.lastDecline, model.attemptsLeft, 'use another card'));
  }
  return notices.join('\n');
}
