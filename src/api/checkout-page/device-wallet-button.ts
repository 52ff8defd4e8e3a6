/**
 * The chosen wallet's button outside the sandbox: it opens the device's own wallet through the
 * page's wallet script (device-wallet-script.ts), with the session's routes for the payment
 * request, Apple Pay's merchant validation and the token. Hidden until the script finds the wallet
 * on the device; without script the payer is told to choose another way.
 */
import type { CheckoutPageModel, PageMethod } from '../../application/checkout/checkout-service';
import { escapeHtml } from '../html/page-kit';
import { DEVICE_WALLET_JS_PATH, DEVICE_WALLET_JS_VERSION } from './device-wallet-script';

/** Marks the page that shows Google Pay's button: only it gets the policy Google's script needs. */
export const GOOGLE_PAY_BUTTON_MARK = 'data-device-wallet="googlepay"';

export function renderDeviceWalletButton(model: CheckoutPageModel, method: PageMethod, prefix: string): string {
  const base = `${prefix}/checkout/${encodeURIComponent(model.session.sessionId)}/wallet/${encodeURIComponent(method.method)}`;
  const label = escapeHtml(method.label);
  return `<div data-device-wallet="${escapeHtml(method.method)}" data-label="${label}" data-request="${escapeHtml(`${base}/request`)}" ${method.method === 'applepay' ? `data-validation="${escapeHtml(`${base}/validation`)}" ` : ''}data-token="${escapeHtml(`${base}/token`)}">
    <p class="method-help" data-device-wallet-note role="status">${label} opens on a device that has it. <noscript>It needs this page's script: please choose another way to pay.</noscript></p>
    <button type="button" class="primary wallet-button" data-device-wallet-button hidden>Pay with ${label}</button>
  </div>
  <script src="${escapeHtml(`${prefix}${DEVICE_WALLET_JS_PATH}?v=${DEVICE_WALLET_JS_VERSION}`)}" defer></script>`;
}
