/**
 * What the Checkout use cases tell the payer-facing pages, as codes: which field of the card form
 * is wrong and how, how a session ended where there is nowhere to send the payer back to, and why
 * the card frames' data or a processing request is refused. The pages word them
 * (src/api/checkout-page/messages.ts), so the words can change without touching a use case.
 */
import type { paymentRefusal } from '../../domain/checkout/session-decide';

export type FieldProblem =
  /** `stored_card_unavailable`: the stored card a credit names is no longer in the vault. */
  | { field: 'card_number'; problem: 'invalid' | 'stored_card_unavailable' }
  /** `not_the_stored_cards`: a stored card's credit confirmed with another expiry. */
  | { field: 'card_expiry'; problem: 'invalid' | 'not_the_stored_cards' }
  /** `digits`: how many the card's brand prints (null: a brand not known, 3 or 4). */
  | { field: 'card_cvv'; problem: 'invalid'; digits: 3 | 4 | null }
  | { field: 'card_holder'; problem: 'missing' }
  | { field: 'billing_state'; problem: 'missing' }
  /** None chosen, or a code that is no country. */
  | { field: 'billing_country'; problem: 'missing' };

export type FieldName = FieldProblem['field'];

/** Why a session takes no payment now (the session decider's refusal). */
export type SessionRefusal = NonNullable<ReturnType<typeof paymentRefusal>>['code'];

/**
 * How a session ended, when the merchant gave no URL to send the payer back to for it.
 * `finished`: a payment the ACS or a redirect page decided whose session cannot be read.
 */
export type SessionEnding =
  | { ending: 'paid' | 'cancelled' | 'expired' | 'not_completed' | 'finished' }
  /** Hosted payment fields without a return URL; the acquirer's reason, when it gave one. */
  | { ending: 'declined'; declineReason: string | null };

/** The card frames' data, taken or not. */
export type CardDataAnswer =
  | { held: true }
  | { held: false; refusal: 'invalid_token' }
  | { held: false; refusal: 'session'; code: SessionRefusal }
  /** `problems` may be empty: data the frames never send (no card number at all). */
  | { held: false; refusal: 'invalid_card'; problems: FieldProblem[] };

/** Why a hosted payment fields processing request cannot be processed. */
export type HostedFieldsRefusal =
  | { problem: 'invalid_token' }
  /** The request used the other operation's endpoint; `operation` is the session's. */
  | { problem: 'wrong_operation'; operation: string }
  | { problem: 'session'; code: SessionRefusal }
  /** The frames handed over no card for this session (or it was taken or expired). */
  | { problem: 'no_card_data' };

/**
 * An alternative method's field on the hosted page that the payer left out or got wrong (`field`:
 * its name on the form, `bankDetails[cbu]` for a nested one; `label`: what the page calls it;
 * `detail`: the method's rule in the API's words), or, with `field` null, a method that cannot be
 * chosen (no longer enabled, or not offered by the session).
 */
export type MethodFieldProblem =
  | { field: string; label: string; problem: 'missing' | 'invalid'; detail: string }
  | { field: null; problem: 'unavailable' };
