/**
 * The words of the payer-facing Checkout pages and of the card frames' answers, in one place: the
 * Checkout use cases answer with codes (application/checkout/problems.ts), and these say them.
 * Merchants' pages and their tests match some of these texts, so a change here is a change they see.
 */
import type { FieldProblem, HostedFieldsRefusal, MethodFieldProblem, SessionEnding, SessionRefusal } from '../../application/checkout/problems';

/** What the payer reads next to a refused field of the form (also the card frame's refusal). */
export function fieldProblemText(problem: FieldProblem): string {
  switch (problem.field) {
    case 'card_number':
      return problem.problem === 'stored_card_unavailable' ? 'The card to be credited is no longer available.' : 'Enter a valid card number.';
    case 'card_expiry':
      return problem.problem === 'not_the_stored_cards'
        ? 'The expiry date does not match the card.'
        : 'Enter a valid expiry date (MM / YY) that has not passed.';
    case 'card_cvv':
      return `Enter the ${problem.digits ?? '3 or 4'} digit security code.`;
    case 'card_holder':
      return 'Enter the name on the card.';
    case 'billing_state':
      return 'Enter the state or province of your billing address.';
    case 'billing_country':
      return 'Select the country of your billing address.';
    default: {
      const unreachable: never = problem;
      return unreachable;
    }
  }
}

/** What the payer reads about an alternative method's field (or the method itself) on the hosted page. */
export function methodFieldProblemText(problem: MethodFieldProblem): string {
  if (problem.field === null) return 'This payment method is not available any more. Please choose another one.';
  if (problem.problem === 'missing') return `Enter the ${problem.label}.`;
  // The method's rule, in the words the API uses for it: "This value is not valid."
  return `Check the ${problem.label}: ${problem.detail}`;
}

/** What the hosted page calls a detail a provider gives the payer (payment details, a deposit address). */
const DETAIL_LABELS: Readonly<Record<string, string>> = {
  beneficiary: 'Beneficiary',
  iban: 'IBAN',
  bank_code: 'Bank code',
  bank_account_number: 'Account number',
  reference: 'Reference',
  amount: 'Amount',
  crypto_address: 'Address',
  crypto_network: 'Network',
  phone: 'Phone',
};

/** `bank_code` → Bank code; a name the page does not know is shown as its words. */
export function detailLabel(name: string): string {
  const known = DETAIL_LABELS[name];
  if (known) return known;
  const words = name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A one-time code the provider did not accept. */
export const WRONG_ONE_TIME_CODE = 'This code is not correct. Check the code in the message and try again.';

/** A decline without the acquirer's reason. */
export const declineReasonText = (reason: string | null | undefined): string => reason ?? 'Declined';

/** The page shown when a session ended and the merchant gave no URL to go back to. */
export function endingText(ending: SessionEnding): { title: string; message: string } {
  switch (ending.ending) {
    case 'paid':
      return { title: 'Payment complete', message: 'Your payment was accepted. You can close this page.' };
    case 'declined':
      return { title: 'Payment declined', message: declineReasonText(ending.declineReason) };
    case 'cancelled':
      return { title: 'Payment cancelled', message: 'The payment was cancelled. You can close this page.' };
    case 'expired':
      return { title: 'Payment session expired', message: 'The time to pay has run out.' };
    case 'not_completed':
      return { title: 'Payment not completed', message: 'The payment could not be completed. You can close this page.' };
    case 'finished':
      return { title: 'Payment finished', message: 'You can close this page.' };
    default: {
      const unreachable: never = ending;
      return unreachable;
    }
  }
}

/** Why a session takes no payment now, to whoever tries to pay it through the card frames. */
export function sessionRefusalText(code: SessionRefusal): string {
  switch (code) {
    case 'session_cancelled':
      return 'This payment was cancelled.';
    case 'session_expired':
      return 'This payment session has expired.';
    case 'payment_in_progress':
      return 'A payment is already in progress for this session.';
    case 'session_paid':
      return 'This order has already been paid.';
    case 'attempts_exhausted':
      return 'No more payment attempts are allowed for this order.';
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}

/** A session token that names no hosted payment fields session (forged, or of another session kind). */
export const INVALID_SESSION_TOKEN = 'The session token is not valid.';

/** The card frame's answer once the gateway holds the card. */
export const CARD_DATA_SAVED = 'Card data saved.';

/** Card data that is not what the frames send. */
export const CARD_DATA_NOT_VALID = 'The card data is not valid.';

/** The card frame's answer for card data it cannot take: every field problem, in the form's words. */
export const cardDataProblemsText = (problems: readonly FieldProblem[]): string => problems.map(fieldProblemText).join(' ') || CARD_DATA_NOT_VALID;

/** A processing request refused: the field the merchant is told about, and what to do. */
export function hostedFieldsRefusalText(refusal: HostedFieldsRefusal): { field: string; message: string } {
  switch (refusal.problem) {
    case 'invalid_token':
      return { field: 'Token', message: INVALID_SESSION_TOKEN };
    case 'wrong_operation':
      return {
        field: 'operation',
        message: `This session is for the ${refusal.operation} operation; use /api/v1/processing/${refusal.operation}/card.`,
      };
    case 'session':
      return { field: 'Token', message: sessionRefusalText(refusal.code) };
    case 'no_card_data':
      return { field: 'card', message: 'No card data was collected for this session: call collectIframesData() first.' };
    default: {
      const unreachable: never = refusal;
      return unreachable;
    }
  }
}
