/**
 * Every page a payer may see links the gateway's icon, and the icon is there: no 404 in the
 * browser's console on any hosted page, and a tab that shows the payment rather than a blank.
 */
import { expect } from 'chai';
import { createSession } from '../support/checkout-client';
import { startTestGateway, type HttpResult, type TestGateway, type TestMerchant } from '../support/gateway-harness';

/** The icon links of a page's head. */
const iconLinks = (html: string): string[] =>
  [...html.matchAll(/<link rel="icon" href="([^"]+)"[^>]*>/g)].map((m) => m[1].replace(/&amp;/g, '&'));

/** The first form's action and hidden fields, as a browser would post them. */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(html)!;
  const fields = Object.fromEntries([...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]));
  return { action: form[1].replace(/&amp;/g, '&'), fields };
}

describe('the icon of the hosted pages', () => {
  let t: TestGateway;
  let merchant: TestMerchant;
  before(async () => {
    t = await startTestGateway({ kind: 'sqlite' });
    merchant = await t.createMerchant({ name: 'Corner Bookshop' });
  });
  after(() => t.stop());

  const payForm = (sessionId: string, expiry: string, number = '4111111111111111') =>
    t.postForm(`${t.baseUrl}/checkout/${sessionId}/pay`, { card_number: number, card_expiry: expiry, card_cvv: '123', card_holder: 'Jane Payer' });

  /** Each kind of page, reached the way a payer reaches it. */
  async function everyHostedPage(): Promise<Array<[string, HttpResult]>> {
    const pages: Array<[string, HttpResult]> = [];
    const session = await createSession(t, merchant);
    pages.push(['the payment form', await t.request(session.redirectUrl)]);
    pages.push(['a refused form', await payForm(session.sessionId, '01/38', '4111111111111112')]);
    pages.push(['an unknown payment link', await t.request(`${t.baseUrl}/checkout/00000000-0000-4000-8000-000000000000`)]);
    const verifying = await payForm(session.sessionId, '05/38');
    pages.push(['the way to the card issuer', verifying]);
    const acs = formOf(verifying.text);
    pages.push(['the ACS', await t.postForm(acs.action, acs.fields)]);
    const framed = await createSession(t, merchant, { url_target: '_top' });
    pages.push(['the way back to a framed shop', await t.postForm(`${t.baseUrl}/checkout/${framed.sessionId}/cancel`, {})]);
    const redirect = await t.sale(merchant, { card_exp_month: '12' });
    pages.push(['the provider redirect', await t.request(redirect.body.redirect_url)]);
    pages.push(['a broken verification link', await t.request(`${t.baseUrl}/sandbox/acs?PaReq=forged`)]);
    return pages;
  }

  it('every hosted page links an icon the gateway serves (200, an image), under the page\'s own policy', async () => {
    for (const [name, page] of await everyHostedPage()) {
      expect(page.headers.get('content-type'), name).to.match(/^text\/html/);
      const links = iconLinks(page.text);
      expect(links, `${name}: icon links`).to.have.length.of.at.least(1);
      expect(page.headers.get('content-security-policy'), name).to.match(/img-src 'self'/);
      for (const href of links) {
        expect(href, `${name}: same origin`).to.match(/^\/(?!\/)/);
        const icon = await t.request(`${t.baseUrl}${href}`);
        expect(icon.status, `${name}: ${href}`).to.equal(200);
        expect(icon.headers.get('content-type'), `${name}: ${href}`).to.match(/^image\//);
      }
    }
  });

  it('/favicon.ico, which browsers ask for by themselves, is an icon', async () => {
    const res = await fetch(`${t.baseUrl}/favicon.ico`);
    const bytes = Buffer.from(await res.arrayBuffer());

    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/x-icon');
    // ICONDIR: reserved 0, type 1 (icon), at least one image.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2)]).to.deep.equal([0, 1]);
    expect(bytes.readUInt16LE(4)).to.be.at.least(1);
  });
});
