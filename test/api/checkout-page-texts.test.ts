/**
 * The words a payer reads on the hosted page and a card frame receives, through the routes a
 * browser uses: each refused field, each ending without a URL to go back to, each refusal of the
 * card frame. Merchants' pages and payers' habits depend on them, so they are pinned here.
 */
import { expect } from 'chai';
import { createSession, createSessionToken, postJson } from '../support/checkout-client';
import { startTestGateway, type HttpResult, type TestClock, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { MAX_ATTEMPTS } from '../../src/domain/checkout/session-decide';

/** The inline error of each field of a refused form. */
const fieldErrors = (page: HttpResult): Record<string, string> =>
  Object.fromEntries([...page.text.matchAll(/<p class="field-error" id="([a-z_]+)-error" aria-live="polite">([^<]*)<\/p>/g)].filter((m) => m[2]).map((m) => [m[1], m[2]]));

/** A closing page's heading and message. */
const closing = (page: HttpResult): [string, string] => {
  const m = /<h1 id="title">([^<]*)<\/h1>\s*<p>([^<]*)<\/p>/.exec(page.text);
  return m ? [m[1], m[2]] : ['', ''];
};

describe('the texts of the hosted page and the card frames', () => {
  let t: TestGateway;
  let merchant: TestMerchant;
  before(async () => {
    t = await startTestGateway({ kind: 'sqlite' });
    merchant = await t.createMerchant({ name: 'Corner Bookshop' });
  });
  after(() => t.stop());

  const pay = (sessionId: string, fields: Record<string, string>) => t.postForm(`${t.baseUrl}/checkout/${sessionId}/pay`, fields);

  it('each refused field of the form says what to do', async () => {
    const { sessionId } = await createSession(t, merchant, { customer: { email: 'doe@example.com' }, billing_address: { country: 'US' } });

    const page = await pay(sessionId, { card_number: '4111111111111112', card_expiry: '01/20', card_cvv: '1', card_holder: '' });

    expect(page.status).to.equal(422);
    expect(fieldErrors(page)).to.deep.equal({
      card_number: 'Enter a valid card number.',
      card_expiry: 'Enter a valid expiry date (MM / YY) that has not passed.',
      card_cvv: 'Enter the 3 digit security code.',
      card_holder: 'Enter the name on the card.',
      billing_state: 'Enter the state or province of your billing address.',
    });
    const amex = await pay(sessionId, { card_number: '378282246310005', card_expiry: '01/38', card_cvv: '123', card_holder: 'J', billing_state: 'IL' });
    expect(fieldErrors(amex)).to.deep.equal({ card_cvv: 'Enter the 4 digit security code.' });
    const unknownBrand = await pay(sessionId, { card_number: '9999999999999995', card_expiry: '01/38', card_cvv: '12', card_holder: 'J', billing_state: 'IL' });
    expect(fieldErrors(unknownBrand).card_cvv).to.equal('Enter the 3 or 4 digit security code.');
    const noCountry = await createSession(t, merchant, { billing_address: {} });
    expect(fieldErrors(await pay(noCountry.sessionId, { card_number: '4111111111111111', card_expiry: '01/38', card_cvv: '123' }))).to.deep.equal({
      billing_country: 'Select the country of your billing address.',
    });
  });

  it('a stored card credited with another expiry is refused by name', async () => {
    const debit = await createSession(t, merchant, { operation: 'debit' });
    const paid = await pay(debit.sessionId, { card_number: '4111111111111111', card_expiry: '01/38', card_cvv: '123', card_holder: 'J' });
    const token = (await t.gateway.payments.current(new URL(paid.headers.get('location')!).searchParams.get('payment_id')!)).card!.token!;
    const credit = await createSession(t, merchant, { operation: 'credit', card_token: token });

    expect(fieldErrors(await pay(credit.sessionId, { card_expiry: '02/38' }))).to.deep.equal({ card_expiry: 'The expiry date does not match the card.' });
  });

  it('each ending with no shop URL to go back to has its page', async () => {
    const cancelled = await createSession(t, merchant, { cancel_url: undefined });
    expect(closing(await t.postForm(`${t.baseUrl}/checkout/${cancelled.sessionId}/cancel`, {}))).to.deep.equal([
      'Payment cancelled',
      'The payment was cancelled. You can close this page.',
    ]);

    const failing = await createSession(t, merchant, { cancel_url: undefined });
    let last: HttpResult | undefined;
    for (let i = 0; i < MAX_ATTEMPTS; i++) last = await pay(failing.sessionId, { card_number: '4111111111111111', card_expiry: '02/38', card_cvv: '123', card_holder: 'J' });
    expect(closing(last!)).to.deep.equal(['Payment not completed', 'The payment could not be completed. You can close this page.']);

    const clock = await createSession(t, merchant, { cancel_url: undefined, session_expiry: 1 });
    (t.clock as TestClock).advance(61_000);
    expect(closing(await t.request(clock.redirectUrl))).to.deep.equal(['Payment session expired', 'The time to pay has run out.']);
  });

  describe('the card frame\'s answers', () => {
    const cardData = (token: string, number: string, expiry: string, cvv: string) =>
      postJson(t, '/hosted-fields/card-data', { token, number, expiry, cvv }, { Origin: t.baseUrl, 'Sec-Fetch-Site': 'same-origin' });

    it('a card that cannot be charged: every problem, in the form\'s words', async () => {
      const { token } = await createSessionToken(t, merchant);

      const res = await cardData(token, '4111111111111112', '01 / 20', '1');

      expect(res.body).to.deep.equal({
        result: 'undefined',
        message: 'Enter a valid expiry date (MM / YY) that has not passed. Enter a valid card number. Enter the 3 digit security code.',
      });
    });

    it('a token of no session, and a session that takes no more payments', async () => {
      expect((await cardData('forged', '4111111111111111', '01 / 38', '123')).body).to.deep.equal({ result: 'undefined', message: 'The session token is not valid.' });
      const { token } = await createSessionToken(t, merchant);
      await cardData(token, '4111111111111111', '01 / 38', '123');
      await postJson(t, '/api/v1/processing/purchase/card', { name: 'J', with_hosted_fields: true }, { Token: token });

      expect((await cardData(token, '4111111111111111', '01 / 38', '123')).body).to.deep.equal({ result: 'undefined', message: 'This order has already been paid.' });
    });
  });
});
