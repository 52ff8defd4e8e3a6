/**
 * The sandbox acquirer's non-3DS redirect page: it stands in for an external payment provider's
 * page and sends the payer back to the gateway with the decision.
 */
import { payingLine } from './acs-page';
import { AUTO_SUBMIT_PATH, assertFormTarget, browserInfoInputs, escapeHtml, renderHostedPage } from '../html/page-kit';

export interface RedirectPageInput {
  /** Where the form posts: the return address the gateway gave the acquirer. */
  completionUrl: string;
  /** The redirect signature from the link (`sig`), posted back for verification. */
  signature: string;
  /** The link's return address, posted back with the signature that covers it. */
  returnUrl?: string;
  /** Minor units; shown with the currency when both are given. */
  amount?: number;
  currency?: string;
  /** The shop being paid; absent when it is not known. */
  shopName?: string;
}

/**
 * Posts `sig` and `decision` (`continue` or `cancel`, from the button pressed) to completionUrl.
 */
export function renderRedirectPage(input: RedirectPageInput): string {
  const action = assertFormTarget(input.completionUrl);
  const paying = input.amount !== undefined && input.currency !== undefined ? `\n${payingLine(input.shopName, input.amount, input.currency)}` : '';
  const main = `<span class="badge">Sandbox</span>
<h1 id="title">Payment provider redirect (sandbox)</h1>${paying}
<p id="help">This test page stands in for an external payment provider. Continue to simulate the payer completing the payment, or cancel to simulate the payer abandoning it.</p>
<form method="post" action="${escapeHtml(action)}" data-browser-info aria-labelledby="title" aria-describedby="help">
  <input type="hidden" name="sig" value="${escapeHtml(input.signature)}">${
    input.returnUrl !== undefined ? `\n  <input type="hidden" name="return" value="${escapeHtml(input.returnUrl)}">` : ''
  }
${browserInfoInputs()}
  <div class="actions">
    <button type="submit" name="decision" value="continue">Continue</button>
    <button type="submit" name="decision" value="cancel" class="secondary">Cancel</button>
  </div>
</form>`;
  return renderHostedPage({ title: 'Payment provider redirect (sandbox)', main, scripts: [AUTO_SUBMIT_PATH] });
}
