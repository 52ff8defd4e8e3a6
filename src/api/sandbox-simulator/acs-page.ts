/**
 * The sandbox acquirer's 3-D Secure challenge page (its "ACS"). Like an issuer's real page it says
 * whom the cardholder is paying and how much, so the payer can recognise the purchase.
 */
import { formatMinor } from '../../domain/money';
import { AUTO_SUBMIT_PATH, assertFormTarget, browserInfoInputs, escapeHtml, renderHostedPage } from '../html/page-kit';

export interface AcsPageInput {
  /** Where the form posts: the TermUrl the gateway gave in the signed PaReq. */
  termUrl: string;
  /** The signed PaReq, echoed back so the return endpoint can verify it. */
  paReq: string;
  md: string;
  /** Minor units. */
  amount: number;
  currency: string;
  /** A masked card number (`411111******1111`), shown so the payer recognises the card. */
  cardMask?: string;
  /** The shop being paid, as the merchant is named now; absent when it is not known. */
  shopName?: string;
}

/** `Paying Corner Bookshop 10.50 USD`: whom and how much, as issuers' and providers' pages say it. */
export function payingLine(shopName: string | undefined, amount: number, currency: string): string {
  const shop = shopName?.trim() ? ` <strong data-shop>${escapeHtml(shopName.trim())}</strong>` : '';
  return `<p class="paying" data-paying>Paying${shop} <strong data-amount>${escapeHtml(`${formatMinor(amount, currency)} ${currency}`)}</strong></p>`;
}

/** Posts `PaRes` (`approve` or `decline`, from the button pressed), `PaReq` and `MD` to the TermUrl. */
export function renderAcsPage(input: AcsPageInput): string {
  const action = assertFormTarget(input.termUrl);
  const card = input.cardMask ? `\n<dl>\n  <dt>Card</dt>\n  <dd>${escapeHtml(input.cardMask)}</dd>\n</dl>` : '';
  const main = `<span class="badge">Sandbox</span>
<h1 id="title">3-D Secure verification (sandbox)</h1>
${payingLine(input.shopName, input.amount, input.currency)}
<p id="help">This is a test page. Approve to simulate a successful cardholder authentication, or decline to simulate a failed one. No real bank is contacted.</p>${card}
<form method="post" action="${escapeHtml(action)}" data-browser-info aria-labelledby="title" aria-describedby="help">
  <input type="hidden" name="PaReq" value="${escapeHtml(input.paReq)}">
  <input type="hidden" name="MD" value="${escapeHtml(input.md)}">
${browserInfoInputs()}
  <div class="actions">
    <button type="submit" name="PaRes" value="approve">Approve</button>
    <button type="submit" name="PaRes" value="decline" class="secondary">Decline</button>
  </div>
</form>`;
  return renderHostedPage({ title: '3-D Secure verification (sandbox)', main, scripts: [AUTO_SUBMIT_PATH] });
}
