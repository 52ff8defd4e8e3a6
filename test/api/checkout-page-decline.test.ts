/**
 * After a declined attempt the hosted page asks again, with what the payer typed still in the
 * fields (the name on the card, the expiry, the billing country and state), never the card number
 * or the security code. Over plain HTTP, as a browser without JavaScript goes: the form posts, the
 * gateway sends the payer back to the page (Post/Redirect/Get), the page comes back filled in.
 */
import { expect } from 'chai';
import { createSession } from '../support/checkout-client';
import { startTestGateway, type HttpResult, type TestGateway, type TestMerchant } from '../support/gateway-harness';

const PAN = '4111111111111111';
const CVV = '737';

/** The cookies a response sets, as a browser sends them back (`name=value; …`). */
const cookiesOf = (res: HttpResult): string =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

const inputValue = (html: string, name: string): string | undefined =>
  new RegExp(`<input[^>]*\\bvalue="([^"]*)"[^>]*\\bid="${name}"`).exec(html)?.[1];

describe('the hosted page after a decline', () => {
  let t: TestGateway;
  let merchant: TestMerchant;
  before(async () => {
    t = await startTestGateway({ kind: 'sqlite' });
    merchant = await t.createMerchant({ name: 'Corner Bookshop' });
  });
  after(() => t.stop());

  const pay = (sessionId: string, fields: Record<string, string>) =>
    t.postForm(`${t.baseUrl}/checkout/${sessionId}/pay`, { card_number: PAN, card_cvv: CVV, ...fields });

  it('shows the form again with the name, expiry, billing country and state the payer typed, never the card number or CVV', async () => {
    // No billing country in the session: the page asks for one (and for the state, for the US).
    const session = await createSession(t, merchant, { billing_address: { city: 'Springfield' }, customer: { email: 'doe@example.com' } });

    const declined = await pay(session.sessionId, { card_expiry: '02 / 38', card_holder: 'Jane Q. Payer', billing_country: 'US', billing_state: 'IL' });
    expect(declined.status).to.equal(303);
    expect(declined.headers.get('location')).to.equal(session.redirectUrl);
    const page = await t.request(declined.headers.get('location')!, { headers: { Cookie: cookiesOf(declined) } });

    expect(page.status).to.equal(200);
    expect(page.text).to.include('Your payment was declined');
    expect(inputValue(page.text, 'card_holder')).to.equal('Jane Q. Payer');
    expect(inputValue(page.text, 'card_expiry')).to.equal('02 / 38');
    expect(page.text).to.include('<option value="US" selected>');
    expect(inputValue(page.text, 'billing_state')).to.equal('IL');
    expect(page.text).to.not.include(PAN);
    expect(page.text).to.not.match(new RegExp(`\\b${CVV}\\b`));
  });

  it('keeps them after a decline at the card issuer\'s verification too', async () => {
    const session = await createSession(t, merchant);
    const verifying = await pay(session.sessionId, { card_expiry: '06/38', card_holder: 'Jane Q. Payer' });
    const cookies = cookiesOf(verifying);
    const acs = /<form method="post" action="([^"]+)"/.exec(verifying.text)![1].replace(/&amp;/g, '&');
    const acsPage = await t.request(acs);
    const hidden = Object.fromEntries([...acsPage.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]));
    const termUrl = /<form method="post" action="([^"]+)"/.exec(acsPage.text)![1];

    const back = await t.postForm(termUrl, { ...hidden, PaRes: 'approve' });
    const page = await t.request(back.headers.get('location')!, { headers: { Cookie: cookies } });

    expect(page.text).to.include('Your payment was declined');
    expect(inputValue(page.text, 'card_holder')).to.equal('Jane Q. Payer');
    expect(inputValue(page.text, 'card_expiry')).to.equal('06/38');
  });

  it('the values live only in a short-lived cookie of that session\'s page, out of reach of scripts', async () => {
    const session = await createSession(t, merchant);

    const declined = await pay(session.sessionId, { card_expiry: '02/38', card_holder: 'Jane Q. Payer' });

    const [cookie] = declined.headers.getSetCookie();
    expect(cookie).to.match(new RegExp(`; Path=/checkout/${session.sessionId}(;|$)`));
    expect(cookie).to.match(/; HttpOnly(;|$)/).and.to.match(/; SameSite=Lax(;|$)/).and.to.match(/; Max-Age=\d+(;|$)/);
    expect(Buffer.from(cookie.split(';')[0].split('=')[1], 'base64url').toString('utf8')).to.not.include('4111');
    // Another session's page never shows them.
    const other = await createSession(t, merchant);
    const otherPage = await t.request(other.redirectUrl, { headers: { Cookie: cookiesOf(declined) } });
    expect(otherPage.text).to.not.include('Jane Q. Payer');
  });

  it('a payment that goes through keeps nothing', async () => {
    const session = await createSession(t, merchant);

    const paid = await pay(session.sessionId, { card_expiry: '01/38', card_holder: 'Jane Q. Payer' });

    expect(paid.status).to.equal(303);
    expect(paid.headers.getSetCookie()).to.deep.equal([]);
  });

  it('a forged cookie prints nothing that looks like a card number, and nothing unescaped', async () => {
    const session = await createSession(t, merchant);
    await pay(session.sessionId, { card_expiry: '02/38', card_holder: 'Jane Q. Payer' });
    const forged = Buffer.from(JSON.stringify({ card_holder: '4111 1111 1111 1111', card_expiry: '"><script>x()</script>', billing_state: 42 })).toString('base64url');

    const page = await t.request(session.redirectUrl, { headers: { Cookie: `checkout_form=${forged}` } });

    expect(page.status).to.equal(200);
    expect(page.text).to.not.include('4111 1111 1111 1111');
    expect(page.text).to.not.include('<script>x()');
  });
});
