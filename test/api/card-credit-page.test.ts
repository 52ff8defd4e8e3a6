/**
 * The card-credit page (a payout to a stored card, `/api/v1/payment/card/credit`): the payer is
 * asked only for the expiry (spec, card credit). The payee's name is shown prefilled; no CVV and no
 * billing address are asked, even though the request carries no billing country.
 */
import { expect } from 'chai';
import { renderFormPage } from '../../src/api/checkout-page/form-page';
import { formReader, readPayForm } from '../../src/api/checkout-page/pay-form';
import { NOW, modelOf } from './checkout-page-fixtures';

const inputs = (html: string): string[] => [...html.matchAll(/<(?:input|select)\b(?![^>]*type="hidden")[^>]*\bname="([^"]+)"/g)].map((m) => m[1]);

describe('card-credit page: the expiry only', () => {
  const storedCredit = () =>
    modelOf(
      { storedCardMask: '411111******1111', holderName: 'Ann Payee', needs: { cardNumber: false, cvv: false, billingState: false } },
      { operation: 'credit', cardToken: 'tok_1', billingAddress: {} },
    );

  it('given a credit request without a billing country, the page asks for no billing country or state', () => {
    const html = renderFormPage({ model: storedCredit(), now: NOW, prefix: '' });

    expect(inputs(html)).to.deep.equal(['card_expiry', 'card_holder']);
    expect(html).not.to.include('billing_country');
    expect(html).to.match(/autocomplete="cc-name"(?![^>]*required)[^>]*value="Ann Payee"/);
  });

  it('a submit with the expiry alone is complete: no billing country is demanded', () => {
    const form = readPayForm(formReader({ card_expiry: '01 / 38' }), { payerIp: '203.0.113.7', asksBillingAddress: false });

    expect(form.problems).to.deep.equal([]);
    expect(form.input.card).to.deep.equal({ expMonth: '01', expYear: '38' });
    expect(form.input.billing).to.deep.equal({});
  });

  it('a purchase without a billing country still asks for one', () => {
    const html = renderFormPage({ model: modelOf({}, { billingAddress: {} }), now: NOW, prefix: '' });
    expect(inputs(html)).to.include('billing_country');
    const form = readPayForm(formReader({ card_expiry: '01 / 38' }), { payerIp: '203.0.113.7' });
    expect(form.problems.map((p) => p.field)).to.deep.equal(['billing_country']);
  });
});
