/**
 * What a merchant is told about a payment event. Pure: the notifier folds the stream, asks
 * `callbackFieldsFor` for the fields, encodes and signs them. Which events call back, and as what,
 * is callback-table.ts; how each kind of callback lays that out is its content builder.
 */
import type { PaymentEvent } from '../payment/events';
import type { ExistingPayment } from '../payment/state';
import { apmCallbackContent } from './apm-callback-content';
import type { CallbackContext } from './callback-context';
import type { CallbackFamily, FamilyOutcome } from './callback-outcomes';
import { outcomeOf } from './callback-table';
import { checkoutCallbackContent } from './checkout-callback-content';
import type { FormFields } from './form-fields';
import { isMethodPayout, payoutCallbackContent } from './payout-callback-content';
import { s2sCardCallbackContent } from './s2s-card-callback-content';

export type { CallbackContext } from './callback-context';

type ContentBuilder<F extends CallbackFamily> = (outcome: FamilyOutcome[F], after: ExistingPayment, ctx: CallbackContext) => FormFields;

const CONTENT_BUILDERS: { [F in CallbackFamily]: ContentBuilder<F> } = {
  s2s_card: s2sCardCallbackContent,
  s2s_apm: apmCallbackContent,
  payout: payoutCallbackContent,
  checkout: checkoutCallbackContent,
};

/** The kind of callback a payment's merchant gets; null for a channel that has none. */
function callbackFamilyOf(p: ExistingPayment): CallbackFamily | null {
  if (p.channel === 'checkout') return 'checkout';
  if (p.channel === 's2s_apm') return isMethodPayout(p) ? 'payout' : 's2s_apm';
  if (p.channel === 's2s_card') return 's2s_card';
  return null;
}

function contentOf<F extends CallbackFamily>(family: F, event: PaymentEvent, after: ExistingPayment, ctx: CallbackContext): FormFields | null {
  const outcome = outcomeOf(family, event, after);
  return outcome ? CONTENT_BUILDERS[family](outcome, after, ctx) : null;
}

/**
 * The ordered form fields the merchant is told about this event, or null when the event is not a
 * state change merchants are called about. `after` is the payment state right after `event`.
 */
export function callbackFieldsFor(event: PaymentEvent, after: ExistingPayment, ctx: CallbackContext): FormFields | null {
  const family = callbackFamilyOf(after);
  return family ? contentOf(family, event, after, ctx) : null;
}
