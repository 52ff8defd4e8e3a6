/**
 * The `card` key of a Checkout session's `parameters`, against the spec's catalogue: each set's
 * fields with their types (AN, N, N10.N2, A), required fields once a set is used, the debit set on
 * debits only, nested shipping, cart and marketplace objects with field paths as a merchant writes
 * them, and other method ids left alone.
 */
import { expect } from 'chai';
import { cardParameterProblems } from '../../src/domain/checkout/card-parameters';

const problems = (card: unknown, operation: 'purchase' | 'debit' | 'credit' = 'purchase') =>
  cardParameterProblems({ card }, operation).map((p) => `${p.field}: ${p.message}`);

describe('Checkout parameters: the card catalogue', () => {
  it('accepts every set filled as the spec types it', () => {
    expect(
      problems(
        {
          bnrg_installm_def: '01',
          bnrg_installm_months: '12',
          bnrg_installm_plan: '05',
          document_type: 'cpf',
          document_number: '123.456.789-09',
          social_name: 'Ana Souza',
          fiscal_country: 'BR',
          descriptor: 'TEA*ROOMS 12345678',
          customer_phone: '+55 11 5555 0000',
          shipping_postcode: '123456789',
          shipping_country: '076',
          shipping: { street1: '1 Rua A', country: 'BR', cost: '1500', comment: 'Ring twice' },
          cart: {
            items: [
              { name: 'Tea', quantity: '2', currency: 'BRL', price: '10.00', discount: 0, shipping: '1.50', quantityUnit: 'KG', recipient: { country: '076', phone: '5511555500' } },
              { name: 'Cup', quantity: 1, totalDiscountAmount: 2.5, recipient: { country: 'BR' } },
            ],
            payments: [{ type: 'GIFTCARD', amount: '5.00', currency: 'BRL', status: 'captured', primary: true }],
          },
          marketPlace: { sellers: [{ id: 'seller-1', amount: '1000' }] },
        },
        'purchase',
      ),
    ).to.deep.equal([]);
  });

  it('installments: every field required once one is sent, 2-digit codes, plans 03, 05 or 07', () => {
    expect(problems({ bnrg_installm_plan: '04' })).to.deep.equal([
      'parameters.card.bnrg_installm_def: This value should not be blank.',
      'parameters.card.bnrg_installm_months: This value should not be blank.',
      'parameters.card.bnrg_installm_plan: The value you selected is not a valid choice. Allowed: 03, 05, 07.',
    ]);
    expect(problems({ bnrg_installm_def: '1', bnrg_installm_months: 'ab', bnrg_installm_plan: '03' })).to.deep.equal([
      'parameters.card.bnrg_installm_def: This value should be exactly 2 digits.',
      'parameters.card.bnrg_installm_months: This value should be exactly 2 digits.',
    ]);
  });

  it('tax identity: document_type cpf, and its other fields required with it', () => {
    expect(problems({ document_type: 'cnpj', fiscal_country: 'BRA' })).to.deep.equal([
      'parameters.card.document_type: The value you selected is not a valid choice. Allowed: cpf.',
      'parameters.card.document_number: This value should not be blank.',
      'parameters.card.social_name: This value should not be blank.',
      'parameters.card.fiscal_country: This value should be 2 letters.',
    ]);
  });

  it('descriptor: at most 20 characters', () => {
    expect(problems({ descriptor: '12345678901234567890' })).to.deep.equal([]);
    expect(problems({ descriptor: '123456789012345678901' })).to.deep.equal(['parameters.card.descriptor: This value is too long. It should have 20 characters or less.']);
  });

  it('shipping contact: postcode of at most 9 digits, a 3-digit country code', () => {
    expect(problems({ shipping_postcode: '1234567890', shipping_country: 'BRA' })).to.deep.equal([
      'parameters.card.shipping_postcode: This value should be a number of at most 9 digits.',
      'parameters.card.shipping_country: This value should be exactly 3 digits.',
    ]);
    expect(problems({ shipping_postcode: '01310-100' })).to.deep.equal(['parameters.card.shipping_postcode: This value should be a number of at most 9 digits.']);
  });

  it('debit sender and receiver: accepted on a debit, refused on other operations', () => {
    expect(problems({ payee_first_name: 'Ana', payer_identity_id: 'X1' }, 'debit')).to.deep.equal([]);
    expect(problems({ payee_first_name: 'Ana' }, 'purchase')).to.deep.equal(['parameters.card.payee_first_name: This field is only accepted with operation debit.']);
  });

  it('nested objects: AN lengths, N digits, A codes, N10.N2 decimals, choices, with the path of each item', () => {
    expect(
      problems({
        shipping: { city: 'x'.repeat(81), country: 'BRA', cost: '12.50' },
        cart: {
          items: [{ quantity: '2' }, { quantity: '123456', currency: 'euro', shipping: '1.5', quantityUnit: 'LB', recipient: { country: 'Brazil', email: 'a@b' } }],
          payments: [{ amount: '12345678901.00', status: 'settled', primary: 'yes', type: 'CASH' }],
        },
        marketPlace: { sellers: [{ id: 's', amount: '1.00' }] },
      }),
    ).to.deep.equal([
      'parameters.card.shipping.city: This value is too long. It should have 80 characters or less.',
      'parameters.card.shipping.country: This value should be 2 letters.',
      'parameters.card.shipping.cost: This value should be a number of at most 13 digits.',
      'parameters.card.cart.items[1].quantity: This value should be a number of at most 5 digits.',
      'parameters.card.cart.items[1].currency: This value should be 3 letters.',
      'parameters.card.cart.items[1].shipping: This value should be a decimal number of at most 10 digits before the point and 2 after it.',
      'parameters.card.cart.items[1].quantityUnit: The value you selected is not a valid choice. Allowed: M, CM, KG, G, COUNT.',
      'parameters.card.cart.items[1].recipient.country: This value should be a 2-letter or 3-digit country code.',
      'parameters.card.cart.payments[0].type: The value you selected is not a valid choice. Allowed: GIFTCARD, PROMOTION.',
      'parameters.card.cart.payments[0].amount: This value should be a decimal number of at most 10 digits before the point and 2 after it.',
      'parameters.card.cart.payments[0].status: The value you selected is not a valid choice. Allowed: pending, authorized, captured.',
      'parameters.card.cart.payments[0].primary: This value should be true or false.',
      'parameters.card.marketPlace.sellers[0].amount: This value should be a number of at most 13 digits.',
    ]);
  });

  it('wrong shapes: an object or a list where one belongs, a string where text belongs', () => {
    expect(problems({ shipping: 'Rua A', cart: { items: { name: 'Tea' } }, document_type: 'cpf', document_number: { n: 1 }, social_name: 'A', fiscal_country: 'BR' })).to.deep.equal([
      'parameters.card.document_number: This value should be of type string.',
      'parameters.card.shipping: This value should be of type object.',
      'parameters.card.cart.items: This value should be of type array.',
    ]);
    expect(problems('descriptor')).to.deep.equal(['parameters.card: This value should be of type object.']);
  });

  it('other method ids and keys the catalogue does not name are left alone', () => {
    expect(cardParameterProblems({ 'sb-bank': { bank_code: 1 } }, 'purchase')).to.deep.equal([]);
    expect(problems({ connector_hint: { any: 'thing' } })).to.deep.equal([]);
    expect(cardParameterProblems(null, 'purchase')).to.deep.equal([]);
  });
});
