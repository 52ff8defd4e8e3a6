/**
 * What the payer is agreeing to, shown beside the form: the shop, the amount in the currency's own
 * decimals with its code, the order's description and number, and how long the session lasts.
 */
import type { CheckoutPageModel } from '../../application/checkout/checkout-service';
import { formatMinor } from '../../domain/money';
import { escapeHtml } from '../html/page-kit';
import { timeLeftText } from './page-script';

/** `10.50 USD`, `1000 JPY`, `1.005 BHD`. */
export const amountText = (model: Pick<CheckoutPageModel, 'session'>): string =>
  `${formatMinor(model.session.order.amount, model.session.order.currency)} ${model.session.order.currency}`;

export const isCredit = (model: Pick<CheckoutPageModel, 'session'>): boolean => model.session.operation === 'credit';

/** Whole minutes left, rounded up so "0 minutes" never shows while paying is still possible. */
export function minutesLeft(expiresAt: string, now: Date): number {
  return Math.max(0, Math.ceil((Date.parse(expiresAt) - now.getTime()) / 60_000));
}

export function renderOrderSummary(model: CheckoutPageModel, now: Date): string {
  const { order } = model.session;
  const seconds = Math.max(0, Math.floor((Date.parse(model.session.expiresAt) - now.getTime()) / 1000));
  const minutes = minutesLeft(model.session.expiresAt, now);
  // Named by aria-label rather than a heading, so the page's first heading is its <h1>.
  return `<section class="summary" aria-label="Order summary">
  <p class="label">${isCredit(model) ? 'Amount you receive' : 'Amount to pay'}</p>
  <p class="amount" data-amount><span>${escapeHtml(formatMinor(order.amount, order.currency))}</span> <span class="currency">${escapeHtml(order.currency)}</span></p>
  <dl>
    <dt>Shop</dt>
    <dd data-merchant>${escapeHtml(model.merchantName)}</dd>
    <dt>Description</dt>
    <dd data-description>${escapeHtml(order.description)}</dd>
    <dt>Order number</dt>
    <dd data-order-number title="${escapeHtml(order.number)}">${escapeHtml(order.number)}</dd>
  </dl>
  <p class="expires" data-seconds-left="${seconds}">${isCredit(model) ? 'Time left' : 'Time left to pay'}: <time data-time-left datetime="${escapeHtml(model.session.expiresAt)}">${escapeHtml(timeLeftText(minutes))}</time></p>
</section>`;
}
