/**
 * The one parse of an S2S CARD SALE: a form becomes a command carrying the merchant's terms, or a
 * refusal naming every problem in the order of the form.
 */
import { expect } from 'chai';
import { parseCardSale, type MerchantTerms } from '../../src/application/payments';

const NOW = new Date('2026-03-10T12:00:00Z');

const terms: MerchantTerms = {
  merchantId: 'm-1',
  clientKey: 'ck',
  paymentMode: 'SMS',
  connectors: ['sandbox'],
  methodEnabled: () => true,
  cardOnFileSupport: false,
  requiredFields: [],
  settingsAt: { streamId: 'merchant-m-1', version: 0n },
};

const form = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  order_id: 'ord-1',
  order_amount: '12.50',
  order_currency: 'EUR',
  order_description: 'Order',
  card_number: '4111111111111111',
  card_exp_month: '01',
  card_exp_year: '2038',
  card_cvv2: '123',
  payer_email: 'doe@example.com',
  ...overrides,
});

describe('parseCardSale', () => {
  it('Given a card SALE, When parsed, Then the command holds the order, the card and the terms whole', () => {
    const parsed = parseCardSale(form(), terms, NOW, 'req-1');
    if (!parsed.ok) expect.fail(JSON.stringify(parsed.refusal));
    expect(parsed.command.terms).to.equal(terms);
    expect(parsed.command.order).to.include({ kind: 'sale', orderId: 'ord-1', currency: 'EUR', amount: 1250, amountText: '12.50', notificationUrl: null });
    expect(parsed.command.pays).to.deep.include({ kind: 'card', storeCard: false, payerPresent: true });
    expect(parsed.command.correlationId).to.equal('req-1');
  });

  it('Given auth=Y and a stored card token, When parsed, Then it is a hold paid with the token', () => {
    const parsed = parseCardSale(form({ auth: 'Y', card_number: undefined, card_token: 'tok-1' }), terms, NOW, 'req-1');
    if (!parsed.ok) expect.fail(JSON.stringify(parsed.refusal));
    expect(parsed.command.order.kind).to.equal('authorization');
    expect(parsed.command.pays).to.deep.include({ kind: 'card', card: { kind: 'token', token: 'tok-1' } });
  });

  it('Given a bad currency, both card fields and a field the Protocol Mapping requires, When parsed, Then every problem is named in the order of the form', () => {
    const parsed = parseCardSale(form({ order_currency: 'XXY', card_token: 'tok-1' }), { ...terms, requiredFields: ['payer_phone'] }, NOW, 'req-1');
    expect(parsed).to.deep.equal({
      ok: false,
      refusal: {
        kind: 'fields',
        problems: [
          'payer_phone: This value should not be blank.',
          'order_currency: This value is not a valid currency.',
          'card_token: Send either card_number or card_token, not both.',
        ],
      },
    });
  });

  it('Given a schedule_id that is no UUID on a chain start, When parsed, Then it is refused as such, apart from field problems', () => {
    const parsed = parseCardSale(form({ recurring_init: 'Y', schedule_id: 'not-a-uuid' }), terms, NOW, 'req-1');
    expect(parsed).to.deep.equal({ ok: false, refusal: { kind: 'schedule_id_not_uuid' } });
  });

  it('Given a wallet SALE, When parsed, Then it pays with the wallet token and no card', () => {
    const parsed = parseCardSale(form({ card_number: undefined, digital_wallet: 'unknownpay', payment_token: '{}' }), terms, NOW, 'req-1');
    if (!parsed.ok) expect.fail(JSON.stringify(parsed.refusal));
    expect(parsed.command.pays).to.deep.equal({ kind: 'wallet', wallet: 'unknownpay', token: '{}' });
  });
});
