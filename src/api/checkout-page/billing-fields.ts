import { STATE_COUNTRIES, needsBillingState, type CheckoutPageModel } from '../../application/checkout/checkout-service';
import { escapeHtml } from '../html/page-kit';
import { COUNTRIES } from './countries';
import { field, inputAttributes, type FieldErrors, type KeptValues } from './form-field';

/** Whether the page asks for a billing country and state: not when a stored card is credited. */
export const asksBillingAddress = (model: Pick<CheckoutPageModel, 'session'>): boolean => !model.session.cardToken;

/**
 * The state field appears only for the countries that need one. A session with a country decides
 * it here; a session without one gets a country select, and the page script shows the state field
 * when one of those countries is chosen (the server checks again either way).
 */
export function billingFields(model: CheckoutPageModel, kept: KeptValues, errors: FieldErrors): string[] {
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
        error: errors.errorOf('billing_country'),
        control: `<select autocomplete="billing country" required data-state-countries="${STATE_COUNTRIES.join(' ')}" ${inputAttributes('billing_country', errors)}><option value="">Select a country</option>${options}</select>`,
      }),
    );
  }
  if (stateOffered) {
    out.push(
      field({
        name: 'billing_state',
        label: 'State / province',
        hidden: !stateShown,
        error: errors.errorOf('billing_state'),
        control: `<input type="text" autocomplete="billing address-level1" maxlength="100"${stateShown ? ' required' : ''} value="${escapeHtml(kept.billing_state ?? '')}" ${inputAttributes('billing_state', errors)}>`,
      }),
    );
  }
  return out;
}
