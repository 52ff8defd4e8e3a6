/**
 * The card's fields of the payment form: the number (or the stored card's mask), the expiry, the
 * security code (never for a credit) and the name. The number and CVV are never written back.
 */
import type { CheckoutPageModel } from '../../application/checkout/checkout-service';
import { escapeHtml } from '../html/page-kit';
import { field, inputAttributes, type FieldErrors, type KeptValues } from './form-field';
import { fieldProblemText } from './messages';

export function cardFields(model: CheckoutPageModel, kept: KeptValues, errors: FieldErrors): string[] {
  const { errorOf } = errors;
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
        control: `<input class="number" type="text" inputmode="numeric" autocomplete="cc-number" autocapitalize="off" autocorrect="off" spellcheck="false" maxlength="23" placeholder="1234 1234 1234 1234" required ${inputAttributes('card_number', errors, ['card_number-brand'])}>`,
      }),
    );
  }
  const expiry = field({
    name: 'card_expiry',
    label: 'Expiry date',
    hint: model.storedCardMask ? 'MM / YY, as printed on the card above' : 'MM / YY',
    error: errorOf('card_expiry'),
    control: `<input type="text" inputmode="numeric" autocomplete="cc-exp" autocorrect="off" spellcheck="false" maxlength="9" placeholder="MM / YY" required value="${escapeHtml(kept.card_expiry ?? '')}" ${inputAttributes('card_expiry', errors, ['card_expiry-hint'])}>`,
  });
  if (model.needs.cvv) {
    const cvv = field({
      name: 'card_cvv',
      label: 'Security code',
      hint: '3 or 4 digits',
      error: errorOf('card_cvv'),
      control: `<input type="text" inputmode="numeric" autocomplete="cc-csc" autocorrect="off" spellcheck="false" maxlength="4" placeholder="123" required ${inputAttributes('card_cvv', errors, ['card_cvv-hint'])}>`,
    });
    fields.push(`<div class="row">\n${expiry}\n${cvv}\n</div>`);
  } else {
    fields.push(expiry);
  }
  fields.push(holderField(model, kept, errors));
  return fields;
}

function holderField(model: CheckoutPageModel, kept: KeptValues, errors: FieldErrors): string {
  const holderValue = kept.card_holder ?? model.holderName;
  // Prefilled from the payee names or the stored card; only a card the payer types needs one.
  const holderRequired = !model.storedCardMask;
  return field({
    name: 'card_holder',
    label: 'Name on card',
    error: errors.errorOf('card_holder'),
    control: `<input type="text" autocomplete="cc-name" autocapitalize="words" spellcheck="false" maxlength="100"${holderRequired ? ' required' : ''} value="${escapeHtml(holderValue)}" data-empty-message="${escapeHtml(fieldProblemText({ field: 'card_holder', problem: 'missing' }))}" ${inputAttributes('card_holder', errors)}>`,
  });
}
