/**
 * S2S APM `CREDIT2VIRTUAL` on `/post` (docs/reference/s2s-apm.md#credit2virtual): payouts to a mobile-money wallet
 * (`sb-momo`) and the payout-method variant (`sb-payout-email`), from the merchant's payout balance.
 * Given a funded (or unfunded) merchant, when a payout is sent, then the answer, the payment's events
 * and the balance; every field rule and bound (the spec's Limits table and decisions §8, written out
 * here as the spec gives them), the duplicate rule, the follow-ups a payout refuses, its status lookup
 * and its callback.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { verifyCallbackSignature } from '../../src/domain/callback/callback-encoding';
import { apmByTransId, apmCreditVoid, apmSale, decideOnPage } from '../support/apm-client';
import { CallbackReceiver } from '../support/callback-receiver';
import { forEachStore, TRANS_DATE, UUID_RE, type Fields, type TestClock, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { balanceOf, emailPayoutFields, payout, topUp } from '../support/payout-client';

/** Spec Limits, "Payout amount bounds": the country's bounds in whole units, and each currency's minor digits (ISO 4217). */
const COUNTRIES = [
  { currency: 'GHS', min: 1, max: 50_000, exponent: 2 },
  { currency: 'KES', min: 10, max: 150_000, exponent: 2 },
  { currency: 'XOF', min: 2, max: 2_000_000, exponent: 0 },
  { currency: 'XAF', min: 2, max: 1_000_000, exponent: 0 },
  { currency: 'TZS', min: 1_000, max: 30_000, exponent: 2 },
  { currency: 'EGP', min: 1, max: 30_000, exponent: 2 },
] as const;

/** docs/payouts.md#countries-operators-and-bounds: every sandbox operator, one number of it, and its own bounds where it has them. */
const OPERATORS: ReadonlyArray<{ slug: string; currency: string; number: string; bounds?: { min: number; max: number } }> = [
  { slug: 'mtn-gh', currency: 'GHS', number: '233241234567' },
  { slug: 'vodafone-gh', currency: 'GHS', number: '233201234567' },
  { slug: 'airteltigo-gh', currency: 'GHS', number: '233571234567' },
  { slug: 'safaricom-ke', currency: 'KES', number: '254111234567' },
  { slug: 'airtel-ke', currency: 'KES', number: '254751234567', bounds: { min: 10, max: 100_000 } },
  { slug: 'telkom-ke', currency: 'KES', number: '254771234567', bounds: { min: 50, max: 200_000 } },
  { slug: 'mtn-ci', currency: 'XOF', number: '2250512345678' },
  { slug: 'orange-ci', currency: 'XOF', number: '2250712345678' },
  { slug: 'moov-ci', currency: 'XOF', number: '2250112345678' },
  { slug: 'wave-ci', currency: 'XOF', number: '2250712345678' },
  { slug: 'mtn-cm', currency: 'XAF', number: '237651234567' },
  { slug: 'orange-cm', currency: 'XAF', number: '237691234567', bounds: { min: 2, max: 500_000 } },
  { slug: 'vodacom-tz', currency: 'TZS', number: '255761234567' },
  { slug: 'airtel-tz', currency: 'TZS', number: '255781234567' },
  { slug: 'tigo-tz', currency: 'TZS', number: '255711234567' },
  { slug: 'halotel-tz', currency: 'TZS', number: '255621234567' },
  { slug: 'vodafone-eg', currency: 'EGP', number: '201012345678' },
  { slug: 'etisalat-eg', currency: 'EGP', number: '201112345678' },
  { slug: 'orange-eg', currency: 'EGP', number: '201212345678' },
  { slug: 'we-eg', currency: 'EGP', number: '201512345678' },
];

const countryOf = (currency: string) => COUNTRIES.find((c) => c.currency === currency)!;
/** Whole units, plus `minorSteps` of the currency's smallest unit, as the merchant writes the amount. */
function amountText(currency: string, whole: number, minorSteps = 0): string {
  const { exponent } = countryOf(currency);
  const minor = whole * 10 ** exponent + minorSteps;
  return exponent === 0 ? String(minor) : `${Math.floor(minor / 10 ** exponent)}.${String(minor % 10 ** exponent).padStart(exponent, '0')}`;
}

const invalid = (...messages: string[]) => ({
  result: 'ERROR',
  error_code: 100000,
  error_message: 'Request data is invalid.',
  errors: messages.map((error_message) => ({ error_code: 100000, error_message })),
});

const DUPLICATE = { result: 'ERROR', error_code: 100000, error_message: 'order_id: Duplicate payment.' };
const BAD_HASH = { result: 'ERROR', error_code: 100000, error_message: 'Hash is not valid' };

const ANSWER_FIELDS = ['action', 'result', 'status', 'order_id', 'trans_id', 'trans_date', 'amount', 'currency'];

/** The §8 callback hash, computed here from its definition: md5(upper(strrev(trans_id + order_id + status)) + password). */
const payoutHashByDefinition = (transId: string, orderId: string, status: string, password: string): string =>
  createHash('md5')
    .update(`${[...`${transId}${orderId}${status}`].reverse().join('').replace(/[a-z]/g, (c) => c.toUpperCase())}${password}`)
    .digest('hex');

forEachStore('S2S CREDIT2VIRTUAL', (h) => {
  let merchant: TestMerchant;
  beforeEach(async () => {
    merchant = await h().createMerchant();
  });

  const to = (slug: string): Fields => {
    const op = OPERATORS.find((o) => o.slug === slug)!;
    return { order_currency: op.currency, 'parameters[mobile_money_operator]': op.slug, 'parameters[mobile_number]': op.number };
  };
  const status = async (transId: string) => (await apmByTransId(h(), 'GET_TRANS_STATUS', merchant, transId)).body;

  describe('answers and the money', () => {
    it('Given a balance of 100.00 GHS, When a payout of 10.00 to success@gmail.com is sent, Then SUCCESS/SETTLED with the answer fields, and once fed the balance paid out 10.00', async () => {
      await topUp(h(), merchant, 'GHS', 10_000);
      const res = await payout(h(), merchant);
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body)).to.deep.equal(ANSWER_FIELDS);
      expect(res.body).to.include({ action: 'CREDIT2VIRTUAL', result: 'SUCCESS', status: 'SETTLED', amount: '10.00', currency: 'GHS' });
      expect(res.body.trans_id).to.match(UUID_RE);
      expect(res.body.trans_date).to.match(TRANS_DATE);
      expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);
      const [initiated] = await h().paymentEvents(res.body.trans_id);
      expect(initiated!.data).to.include({ channel: 's2s_apm', kind: 'credit', connector: 'sandbox-apm', amount: 1000, currency: 'GHS' });
      expect(initiated!.data.payer).to.deep.equal({ firstName: 'Ama', lastName: 'Mensah', email: 'ama@example.com' });

      expect(await balanceOf(h(), merchant, 'GHS')).to.include({ available: 9_000, held: 1_000, paidOut: 0 });
      await h().gateway.payouts.feedBalances();
      expect(await balanceOf(h(), merchant, 'GHS')).to.include({ available: 9_000, held: 0, paidOut: 1_000 });
      expect(await status(res.body.trans_id)).to.deep.equal({
        action: 'GET_TRANS_STATUS',
        result: 'SUCCESS',
        status: 'SETTLED',
        order_id: res.body.order_id,
        trans_id: res.body.trans_id,
      });
    });

    it('Given a balance of 5.00 GHS, When a payout of 10.00 is sent, Then DECLINED/DECLINED: Insufficient payout balance, the provider is never asked and nothing moves', async () => {
      await topUp(h(), merchant, 'GHS', 500);
      const res = await payout(h(), merchant);
      expect(Object.keys(res.body)).to.deep.equal([...ANSWER_FIELDS, 'decline_reason']);
      expect(res.body).to.include({ result: 'DECLINED', status: 'DECLINED', decline_reason: 'Insufficient payout balance' });
      expect(await h().paymentEventTypes(res.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentDeclined']);
      await h().gateway.payouts.feedBalances();
      expect(await balanceOf(h(), merchant, 'GHS')).to.include({ available: 500, held: 0, paidOut: 0 });
      expect(await status(res.body.trans_id)).to.include({ status: 'DECLINED', decline_reason: 'Insufficient payout balance' });
    });

    it('Given no balance at all in the currency, When a payout is sent, Then it is declined the same way', async () => {
      const res = await payout(h(), merchant);
      expect(res.body).to.include({ result: 'DECLINED', status: 'DECLINED', decline_reason: 'Insufficient payout balance' });
    });

    it('Given the provider declines (fail@gmail.com), Then DECLINED/DECLINED with its reason, and once fed the hold is released', async () => {
      await topUp(h(), merchant, 'GHS', 10_000);
      const res = await payout(h(), merchant, { 'parameters[customer_email]': 'fail@gmail.com' });
      expect(res.body).to.include({ result: 'DECLINED', status: 'DECLINED', decline_reason: 'Declined by the payment provider' });
      expect(await balanceOf(h(), merchant, 'GHS')).to.include({ available: 9_000, held: 1_000 });
      await h().gateway.payouts.feedBalances();
      expect(await balanceOf(h(), merchant, 'GHS')).to.include({ available: 10_000, held: 0, paidOut: 0 });
    });

    it('Given any other payee, Then UNDEFINED/PREPARE (status PREPARE, money held) until the provider page decides: approved it settles, declined its hold comes back', async () => {
      await topUp(h(), merchant, 'GHS', 10_000);
      const approved = await payout(h(), merchant, { 'parameters[customer_email]': 'payee@example.com' });
      expect(Object.keys(approved.body)).to.deep.equal(ANSWER_FIELDS);
      expect(approved.body).to.include({ result: 'UNDEFINED', status: 'PREPARE' });
      expect(await status(approved.body.trans_id)).to.include({ status: 'PREPARE' });
      const declined = await payout(h(), merchant, { 'parameters[customer_email]': 'payee@example.com' });
      await h().gateway.payouts.feedBalances();
      expect(await balanceOf(h(), merchant, 'GHS')).to.include({ available: 8_000, held: 2_000 });

      expect((await decideOnPage(h(), approved.body.trans_id, { decision: 'approve' })).status).to.equal(303);
      expect((await decideOnPage(h(), declined.body.trans_id, { decision: 'decline' })).status).to.equal(303);
      expect(await status(approved.body.trans_id)).to.include({ status: 'SETTLED' });
      expect(await status(declined.body.trans_id)).to.include({ status: 'DECLINED', decline_reason: 'Declined by the payment provider' });
      expect(await h().paymentEventTypes(approved.body.trans_id)).to.deep.equal(['PaymentInitiated', 'PaymentPending', 'PaymentSettled']);
      await h().gateway.payouts.feedBalances();
      expect(await balanceOf(h(), merchant, 'GHS')).to.include({ available: 9_000, held: 0, paidOut: 1_000 });
    });

    for (const currency of ['XOF', 'XAF'] as const) {
      it(`Given ${currency} (no minor unit), When 1500 is paid out, Then the amount is 1500 units, answered without decimals; 1500.5 is refused, 1500.00 (zeros only, decisions §5) is 1500`, async () => {
        const slug = currency === 'XOF' ? 'orange-ci' : 'mtn-cm';
        await topUp(h(), merchant, currency, 2_000);
        const res = await payout(h(), merchant, { ...to(slug), order_amount: '1500' });
        expect(res.body).to.include({ result: 'SUCCESS', amount: '1500', currency });
        const [initiated] = await h().paymentEvents(res.body.trans_id);
        expect(initiated!.data.amount).to.equal(1500);
        const refused = await payout(h(), merchant, { ...to(slug), order_amount: '1500.5' });
        expect(refused.status).to.equal(400);
        expect(refused.body).to.deep.equal(invalid(`order_amount: Amount in ${currency} cannot have decimals`));
        const zeros = await payout(h(), merchant, { ...to(slug), order_amount: '100.00' });
        expect(zeros.body).to.include({ result: 'SUCCESS', amount: '100.00' });
        expect((await h().paymentEvents(zeros.body.trans_id))[0]!.data.amount).to.equal(100);
      });
    }
  });

  describe('bounds (spec Limits, docs/payouts.md#countries-operators-and-bounds)', () => {
    beforeEach(async () => {
      // Enough for every accepted bound of every operator in the test below.
      for (const c of COUNTRIES) await topUp(h(), merchant, c.currency, 2 * 10 * 200_000 * 10 ** c.exponent * 10);
    });

    it('Given each operator, Then its bounds (its own, else its country\'s) are accepted at both ends and refused one minor unit outside them', async () => {
      for (const op of OPERATORS) {
        const country = countryOf(op.currency);
        const { min, max } = op.bounds ?? country;
        const message = `order_amount: This value should be between ${min} and ${max} ${op.currency}${op.bounds ? ` for ${op.slug}` : ''}.`;
        for (const [amount, accepted] of [
          [amountText(op.currency, min), true],
          [amountText(op.currency, max), true],
          [amountText(op.currency, min, -1), false],
          [amountText(op.currency, max, 1), false],
        ] as const) {
          const res = await payout(h(), merchant, { ...to(op.slug), order_amount: amount });
          if (accepted) expect(res.body, `${op.slug} ${amount}`).to.include({ result: 'SUCCESS', status: 'SETTLED', amount });
          else expect(res.body, `${op.slug} ${amount}`).to.deep.equal(invalid(message));
        }
      }
    });

    it('Given telkom-ke, Then 160000 KES (above Kenya\'s 150000) is accepted, and airtel-ke refuses it at 100000.01', async () => {
      expect((await payout(h(), merchant, { ...to('telkom-ke'), order_amount: '160000.00' })).body).to.include({ result: 'SUCCESS' });
      expect((await payout(h(), merchant, { ...to('airtel-ke'), order_amount: '100000.01' })).body).to.deep.equal(
        invalid('order_amount: This value should be between 10 and 100000 KES for airtel-ke.'),
      );
    });

    it('Given no operator, Then the country\'s bounds are checked beside the missing operator', async () => {
      const res = await payout(h(), merchant, { order_amount: '50000.01', 'parameters[mobile_money_operator]': undefined });
      expect(res.body).to.deep.equal(
        invalid('order_amount: This value should be between 1 and 50000 GHS.', 'parameters[mobile_money_operator]: This value should not be blank.'),
      );
    });
  });

  describe('field rules', () => {
    it('Given a currency that is not one of the six, Then order_currency lists them', async () => {
      for (const currency of ['USD', 'EUR', 'NGN']) {
        const res = await payout(h(), merchant, { order_currency: currency });
        expect(res.body, currency).to.deep.equal(invalid('order_currency: The value you selected is not a valid choice. Allowed: GHS, KES, XOF, XAF, TZS, EGP.'));
      }
    });

    it('Given an operator of another country, or none known, Then the operators of the currency\'s country are listed', async () => {
      for (const slug of ['safaricom-ke', 'mtn-ci', 'no-such-operator']) {
        const res = await payout(h(), merchant, { 'parameters[mobile_money_operator]': slug });
        expect(res.body, slug).to.deep.equal(
          invalid('parameters[mobile_money_operator]: The value you selected is not a valid choice. Allowed: mtn-gh, vodafone-gh, airteltigo-gh.'),
        );
      }
      const kenya = await payout(h(), merchant, { ...to('safaricom-ke'), 'parameters[mobile_money_operator]': 'mtn-gh' });
      expect(kenya.body).to.deep.equal(
        invalid('parameters[mobile_money_operator]: The value you selected is not a valid choice. Allowed: safaricom-ke, airtel-ke, telkom-ke.'),
      );
    });

    it('Given each operator, When the number is another operator\'s (or of no operator), Then it does not match; with a leading + it does', async () => {
      await topUp(h(), merchant, 'GHS', 10_000);
      for (const op of OPERATORS) {
        // wave-ci takes the numbers of mtn-ci, orange-ci and moov-ci: a number of no operator stands in.
        const foreign = op.slug === 'wave-ci' ? '2250912345678' : OPERATORS.find((o) => o.currency === op.currency && o.number !== op.number)!.number;
        const amount = amountText(op.currency, (op.bounds ?? countryOf(op.currency)).min);
        const res = await payout(h(), merchant, { ...to(op.slug), order_amount: amount, 'parameters[mobile_number]': foreign });
        expect(res.body, `${op.slug} ${foreign}`).to.deep.equal(invalid(`parameters[mobile_number]: This value is not a number of ${op.slug}.`));
      }
      expect((await payout(h(), merchant, { 'parameters[mobile_number]': '+233241234567' })).body).to.include({ result: 'SUCCESS' });
      expect((await payout(h(), merchant, { 'parameters[mobile_number]': '0241234567' })).body).to.deep.equal(
        invalid('parameters[mobile_number]: This value is not a number of mtn-gh.'),
      );
      expect((await payout(h(), merchant, { 'parameters[mobile_number]': '233-24-1234567' })).body).to.deep.equal(
        invalid('parameters[mobile_number]: This value should contain digits only, with an optional leading +.'),
      );
    });

    it('Given the mandatory fields left out, Then each is named, in the order of the form', async () => {
      const res = await payout(h(), merchant, {
        'parameters[mobile_money_operator]': undefined,
        'parameters[mobile_number]': undefined,
        'parameters[customer_email]': undefined,
        payee_first_name: undefined,
        payee_last_name: undefined,
        payee_email: undefined,
      });
      expect(res.body).to.deep.equal(
        invalid(
          'parameters[mobile_money_operator]: This value should not be blank.',
          'parameters[mobile_number]: This value should not be blank.',
          'parameters[customer_email]: This value should not be blank.',
          'payee_first_name: This value should not be blank.',
          'payee_last_name: This value should not be blank.',
          'payee_email: This value should not be blank.',
        ),
      );
    });

    it('Given a bad customer_email, Then parameters[customer_email] is refused', async () => {
      const res = await payout(h(), merchant, { 'parameters[customer_email]': 'not-an-email' });
      expect(res.body).to.deep.equal(invalid('parameters[customer_email]: This value is not a valid email address.'));
    });

    it('Given a wrong hash, Then 100000 hash; the fields are checked before it', async () => {
      expect((await payout(h(), merchant, { hash: 'a'.repeat(32) })).body).to.deep.equal(BAD_HASH);
      expect((await payout(h(), merchant, { hash: 'a'.repeat(32), order_currency: 'USD' })).body.errors[0].error_message).to.match(/^order_currency:/);
    });

    it('Given a brand payers pay with, Then 204005; a brand that does not exist, 204011; nothing is recorded', async () => {
      const sale = await payout(h(), merchant, { brand: 'sb-redirect', order_id: 'payout-refused-1' });
      expect(sale.body).to.deep.equal({ result: 'ERROR', error_code: 204005, error_message: 'Payment action not supported' });
      const unknown = await payout(h(), merchant, { brand: 'no-such-brand', order_id: 'payout-refused-1' });
      expect(unknown.body).to.deep.equal({ result: 'ERROR', error_code: 204011, error_message: 'Payment system/brand not found.' });
      expect(await h().initiatedForOrder(merchant, 'payout-refused-1')).to.deep.equal([]);
    });
  });

  describe('the payout-method variant (sb-payout-email)', () => {
    it('Given every mandatory parameter valid, Then it pays out in any currency, decided by parameters[Email]', async () => {
      await topUp(h(), merchant, 'USD', 10_000);
      const ok = await h().post(emailPayoutFields(merchant));
      expect(ok.body).to.include({ action: 'CREDIT2VIRTUAL', result: 'SUCCESS', status: 'SETTLED', amount: '25.00', currency: 'USD' });
      const declined = await h().post(emailPayoutFields(merchant, { 'parameters[Email]': 'fail@gmail.com', 'parameters[fee_calculation_method]': 'transaction_level' }));
      expect(declined.body).to.include({ result: 'DECLINED', decline_reason: 'Declined by the payment provider' });
      const defaulted = await h().post(emailPayoutFields(merchant, { 'parameters[fee_calculation_method]': undefined }));
      expect(defaulted.body).to.include({ result: 'SUCCESS' });
    });

    it('Given the mandatory parameters left out, Then each is named', async () => {
      const res = await h().post(
        emailPayoutFields(merchant, {
          order_description: undefined,
          'parameters[CustomerName]': undefined,
          'parameters[Email]': undefined,
          'parameters[SecurityQuestion]': undefined,
          'parameters[SecurityQuestionAnswer]': undefined,
          'parameters[account_uuid]': undefined,
        }),
      );
      expect(res.body).to.deep.equal(
        invalid(
          'order_description: This value should not be blank.',
          'parameters[CustomerName]: This value should not be blank.',
          'parameters[Email]: This value should not be blank.',
          'parameters[SecurityQuestion]: This value should not be blank.',
          'parameters[SecurityQuestionAnswer]: This value should not be blank.',
          'parameters[account_uuid]: This value should not be blank.',
        ),
      );
    });

    const lengthCases: ReadonlyArray<[string, string, string | null]> = [
      ['order_description', 'x'.repeat(4), 'order_description: This value is too short. It should have 5 characters or more.'],
      ['order_description', 'x'.repeat(5), null],
      ['order_description', 'x'.repeat(200), null],
      ['order_description', 'x'.repeat(201), 'order_description: This value is too long. It should have 200 characters or less.'],
      ['parameters[SecurityQuestion]', 'q'.repeat(9), 'parameters[SecurityQuestion]: This value is too short. It should have 10 characters or more.'],
      ['parameters[SecurityQuestion]', 'q'.repeat(10), null],
      ['parameters[SecurityQuestion]', 'q'.repeat(40), null],
      ['parameters[SecurityQuestion]', 'q'.repeat(41), 'parameters[SecurityQuestion]: This value is too long. It should have 40 characters or less.'],
      ['parameters[SecurityQuestionAnswer]', 'ab', 'parameters[SecurityQuestionAnswer]: This value is too short. It should have 3 characters or more.'],
      ['parameters[SecurityQuestionAnswer]', 'abc', null],
      ['parameters[SecurityQuestionAnswer]', 'a'.repeat(40), null],
      ['parameters[SecurityQuestionAnswer]', 'a'.repeat(41), 'parameters[SecurityQuestionAnswer]: This value is too long. It should have 40 characters or less.'],
      ['parameters[SecurityQuestionAnswer]', 'two words', 'parameters[SecurityQuestionAnswer]: This value should not contain spaces.'],
      ['parameters[account_uuid]', 'not-a-uuid', 'parameters[account_uuid]: This is not a valid UUID.'],
      ['parameters[fee_calculation_method]', 'per_payout', 'parameters[fee_calculation_method]: The value you selected is not a valid choice. Allowed: account_level, transaction_level.'],
      ['parameters[Email]', 'nobody', 'parameters[Email]: This value is not a valid email address.'],
    ];
    it('Given each parameter at and beyond its bounds, Then exactly the values outside them are refused', async () => {
      await topUp(h(), merchant, 'USD', 1_000_000);
      for (const [field, value, message] of lengthCases) {
        const res = await h().post(emailPayoutFields(merchant, { [field]: value }));
        if (message === null) expect(res.body, `${field}=${value.length}`).to.include({ result: 'SUCCESS' });
        else expect(res.body, `${field}=${value}`).to.deep.equal(invalid(message));
      }
    });
  });

  describe('the duplicate rule', () => {
    it('Given a payout, When its order_id comes again within 15 s, Then the original outcome and nothing new; after the window, order_id: Duplicate payment.', async () => {
      await topUp(h(), merchant, 'GHS', 10_000);
      const first = await payout(h(), merchant);
      const again = await payout(h(), merchant, { order_id: first.body.order_id });
      expect(again.body).to.deep.equal(first.body);
      expect(await h().initiatedForOrder(merchant, first.body.order_id)).to.have.length(1);
      (h().clock as TestClock).advance(16_000);
      const later = await payout(h(), merchant, { order_id: first.body.order_id });
      expect(later.body).to.deep.equal(DUPLICATE);
      await h().gateway.payouts.feedBalances();
      expect(await balanceOf(h(), merchant, 'GHS')).to.include({ available: 9_000, paidOut: 1_000 });
    });

    it('Given a SALE with an order_id, When a payout reuses it, Then order_id: Duplicate payment.', async () => {
      const sale = await apmSale(h(), merchant, { payer_email: 'success@gmail.com' });
      const res = await payout(h(), merchant, { order_id: sale.body.order_id });
      expect(res.body).to.deep.equal(DUPLICATE);
    });
  });

  describe('the mobile-money collection (sb-momo-collect): the Kora-style sender reference', () => {
    const collect = (reference: string | undefined) =>
      apmSale(h(), merchant, {
        brand: 'sb-momo-collect',
        order_currency: 'GHS',
        'parameters[mobile_money_operator]': 'mtn-gh',
        'parameters[mobile_number]': '+233241234567',
        'parameters[sender_reference]': reference,
      });

    it('Given a sender reference of 8 characters, Then the SALE waits for the payer\'s phone (INIT/PENDING); 7 characters or none are refused', async () => {
      expect((await collect('KORA-001')).body).to.include({ action: 'SALE', result: 'INIT', status: 'PENDING' });
      expect((await collect('KORA-01')).body).to.deep.equal(invalid('parameters[sender_reference]: This value is too short. It should have 8 characters or more.'));
      expect((await collect(undefined)).body).to.deep.equal(invalid('parameters[sender_reference]: This value should not be blank.'));
    });
  });

  describe('follow-ups', () => {
    it('Given a settled and a waiting payout, When CAPTURE, VOID or CREDITVOID is sent, Then 204005 and nothing is recorded', async () => {
      await topUp(h(), merchant, 'GHS', 10_000);
      const settled = await payout(h(), merchant);
      const waiting = await payout(h(), merchant, { 'parameters[customer_email]': 'payee@example.com' });
      for (const transId of [settled.body.trans_id, waiting.body.trans_id]) {
        const before = await h().paymentEventTypes(transId);
        for (const res of [
          await apmByTransId(h(), 'CAPTURE', merchant, transId),
          await apmByTransId(h(), 'VOID', merchant, transId),
          await apmCreditVoid(h(), merchant, transId),
          await apmCreditVoid(h(), merchant, transId, '1.00'),
        ]) {
          expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 204005, error_message: 'Payment action not supported' });
        }
        expect(await h().paymentEventTypes(transId)).to.deep.equal(before);
      }
    });

    it('Given a payout, Then GET_TRANS_STATUS takes the APM formula md5(upper(strrev(trans_id)) + password), not the card one; another merchant does not find it', async () => {
      await topUp(h(), merchant, 'GHS', 10_000);
      const res = await payout(h(), merchant);
      expect((await h().byTransId('GET_TRANS_STATUS', merchant, res.body.trans_id)).body).to.deep.equal(BAD_HASH);
      const other = await h().createMerchant();
      expect((await apmByTransId(h(), 'GET_TRANS_STATUS', other, res.body.trans_id)).body).to.deep.equal({ result: 'ERROR', error_code: 101000, error_message: 'Transaction does not exist.' });
    });
  });
});

forEachStore('S2S CREDIT2VIRTUAL callbacks', (h) => {
  let receiver: CallbackReceiver;
  let merchant: TestMerchant;
  before(async () => {
    await h().gateway.notifier.start();
  });
  beforeEach(async () => {
    receiver = await new CallbackReceiver().start();
    merchant = await h().createMerchant({ notificationUrl: receiver.url });
    await topUp(h(), merchant, 'XOF', 100_000);
  });
  afterEach(async () => {
    await receiver.stop();
  });

  async function callbacksOf(t: TestGateway, transId: string) {
    await t.gateway.notifier.catchUp();
    return receiver.received.filter((r) => r.fields.get('trans_id') === transId);
  }
  const ivoryCoast: Fields = { order_currency: 'XOF', order_amount: '5000', 'parameters[mobile_money_operator]': 'wave-ci', 'parameters[mobile_number]': '2250112345678' };

  it('Given a settled payout, Then the callback carries the answer\'s fields and the payout hash (§8), signed with X-Signature', async () => {
    const res = await payout(h(), merchant, ivoryCoast);
    const [callback, ...more] = await callbacksOf(h(), res.body.trans_id);
    expect(more).to.deep.equal([]);
    expect([...callback!.fields.keys()]).to.deep.equal([...ANSWER_FIELDS, 'hash']);
    expect(Object.fromEntries(callback!.fields)).to.include({ action: 'CREDIT2VIRTUAL', result: 'SUCCESS', status: 'SETTLED', order_id: res.body.order_id, amount: '5000', currency: 'XOF' });
    expect(callback!.fields.get('hash')).to.equal(payoutHashByDefinition(res.body.trans_id, res.body.order_id, 'SETTLED', merchant.password));
    const now = Math.floor(h().clock.now().getTime() / 1000);
    expect(verifyCallbackSignature(merchant.password, callback!.body, String(callback!.headers['x-signature']), now)).to.equal(true);
    expect(verifyCallbackSignature(`${merchant.password}x`, callback!.body, String(callback!.headers['x-signature']), now)).to.equal(false);
  });

  it('Given a payout declined for its balance, Then the callback says DECLINED with decline_reason, hashed over DECLINED', async () => {
    const res = await payout(h(), merchant, { ...ivoryCoast, order_amount: '200000' });
    expect(res.body).to.include({ decline_reason: 'Insufficient payout balance' });
    const [callback] = await callbacksOf(h(), res.body.trans_id);
    expect([...callback!.fields.keys()]).to.deep.equal([...ANSWER_FIELDS, 'decline_reason', 'hash']);
    expect(callback!.fields.get('decline_reason')).to.equal('Insufficient payout balance');
    expect(callback!.fields.get('hash')).to.equal(payoutHashByDefinition(res.body.trans_id, res.body.order_id, 'DECLINED', merchant.password));
  });

  it('Given a payout waiting for its provider, Then a callback UNDEFINED/PREPARE for the wait (as its answer said), then one SUCCESS/SETTLED once decided', async () => {
    const res = await payout(h(), merchant, { ...ivoryCoast, 'parameters[customer_email]': 'payee@example.com' });
    expect(res.body).to.include({ result: 'UNDEFINED', status: 'PREPARE' });
    const waiting = await callbacksOf(h(), res.body.trans_id);
    expect(waiting.map((c) => `${c.fields.get('action')} ${c.fields.get('result')}/${c.fields.get('status')}`)).to.deep.equal(['CREDIT2VIRTUAL UNDEFINED/PREPARE']);
    await decideOnPage(h(), res.body.trans_id, { decision: 'approve' });
    const callbacks = await callbacksOf(h(), res.body.trans_id);
    expect(callbacks.map((c) => `${c.fields.get('result')}/${c.fields.get('status')}`)).to.deep.equal(['UNDEFINED/PREPARE', 'SUCCESS/SETTLED']);
  });
});
