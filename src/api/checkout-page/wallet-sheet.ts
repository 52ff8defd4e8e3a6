/**
 * A wallet on the hosted page (docs/wallets.md#checkout). The chosen wallet shows its button; in the sandbox
 * the button opens the gateway's simulated wallet sheet (`/checkout/:sessionId/wallet/:wallet`),
 * where the payer picks one of the sandbox's cards and approves, as they would in the wallet on
 * their device; the sheet's token then pays through the wallet flows (card flow with the merchant's
 * keys, else the virtual flow). Plain forms, no script. Outside the sandbox the button opens the
 * device's own wallet (device-wallet-button.ts).
 */
import type { CheckoutPageModel, PageMethod } from '../../application/checkout/checkout-service';
import type { Wallet } from '../../domain/wallets/token-shape';
import { escapeHtml } from '../html/page-kit';
import { amountText, renderOrderSummary } from './order-summary';
import { renderDocument } from './render-page';
import { renderDeviceWalletButton } from './device-wallet-button';

export interface SheetCardOption {
  id: string;
  label: string;
}

export const walletSheetPath = (prefix: string, sessionId: string, wallet: string): string =>
  `${prefix}/checkout/${encodeURIComponent(sessionId)}/wallet/${encodeURIComponent(wallet)}`;

/** The chosen wallet's part of the page: its button, opening the sandbox's sheet or the device's wallet. */
export function renderWalletButton(model: CheckoutPageModel, method: PageMethod, prefix: string, sheet: boolean): string {
  if (!sheet) return renderDeviceWalletButton(model, method, prefix);
  return `<form method="get" action="${escapeHtml(walletSheetPath(prefix, model.session.sessionId, method.method))}" data-wallet="${escapeHtml(method.method)}">
    <p class="method-help">Pay with the card in your ${escapeHtml(method.label)} wallet.</p>
    <button type="submit" class="primary wallet-button" data-wallet-button="${escapeHtml(method.method)}">Pay with ${escapeHtml(method.label)}</button>
  </form>`;
}

/** The simulated sheet: the shop, the amount, the sandbox's cards, Approve or go back. */
export function renderWalletSheetPage(input: {
  model: CheckoutPageModel;
  wallet: Wallet;
  label: string;
  cards: readonly SheetCardOption[];
  prefix: string;
  now: Date;
  refusal?: string;
}): string {
  const { model, wallet, label, prefix } = input;
  const amount = amountText(model);
  const back = `${prefix}/checkout/${encodeURIComponent(model.session.sessionId)}?method=${encodeURIComponent(wallet)}`;
  const options = input.cards
    .map(
      (card, i) => `      <label class="sheet-card"><input type="radio" name="card" value="${escapeHtml(card.id)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(card.label)}</label>`,
    )
    .join('\n');
  const googleOnly =
    wallet === 'googlepay'
      ? `\n    <label class="sheet-card"><input type="checkbox" name="pan_only" value="Y"> Pay with the card itself, not a device token (PAN_ONLY: the bank may ask to verify)</label>`
      : '';
  const refusal = input.refusal
    ? `<div class="notice" id="problems" role="alert"><p><strong>${escapeHtml(input.refusal)}</strong> Please choose another way to pay.</p></div>\n`
    : '';
  const main = `<div class="checkout">
${renderOrderSummary(model, input.now)}
<section class="pay wallet-sheet" aria-labelledby="sheet-title" data-wallet-sheet="${escapeHtml(wallet)}">
  <h1 id="sheet-title">${escapeHtml(label)}</h1>
  <p class="step-note">Sandbox: a simulated ${escapeHtml(label)} sheet. No real wallet or card is used.</p>
  ${refusal}<form method="post" action="${escapeHtml(walletSheetPath(prefix, model.session.sessionId, wallet))}">
    <fieldset>
      <legend>Pay ${escapeHtml(model.merchantName)} ${escapeHtml(amount)} with</legend>
${options}${googleOnly}
    </fieldset>
    <button type="submit" class="primary" data-sheet-approve>Approve ${escapeHtml(amount)}</button>
  </form>
  <p><a href="${escapeHtml(back)}">Back to the payment page</a></p>
</section>
</div>`;
  return renderDocument({ title: `${label} – ${model.merchantName}`, prefix, shopName: model.merchantName, main });
}
