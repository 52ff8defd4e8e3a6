/**
 * The sandbox acquirer's 3-D Secure challenge page (its "ACS"). It names no merchant: a real ACS
 * belongs to the issuer, not the shop.
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
}

/**
 * Posts `PaRes` (`approve` or `decline`, from the button pressed), `PaReq` and `MD` to the TermUrl.
 * The page names no merchant: a real ACS belongs to the issuer, not the shop.
 */
export function renderAcsPage(input: AcsPageInput): string {
  const action = assertFormTarget(input.termUrl);
  const amount = `${formatMinor(input.amount, input.currency)} ${input.currency}`;
  const card = input.cardMask
    ? `\n  <dt>Card</dt>\n  <dd>${escapeHtml(input.cardMask)}</dd>`
    : '';
  const main = `<span class="badge">Sandbox</span>
<h1 id="title">3-D Secure verification (sandbox)</h1>
<p id="help">This is a test page. Approve to simulate a successful cardholder authentication, or decline to simulate a failed one. No real bank is contacted.</p>
<dl>
  <dt>Amount</dt>
  <dd>${escapeHtml(amount)}</dd>${card}
</dl>
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
