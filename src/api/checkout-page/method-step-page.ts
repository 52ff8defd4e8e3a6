/**
 * The hosted page while an alternative method's provider decides, standing in for the provider's
 * own page: the QR code to scan (drawn here, with its minute counting down), the one-time code's
 * entry, the payment details to transfer to, or what to do elsewhere (confirm in an app, send a
 * crypto deposit to an address on a network). The page's small script (method-step-script.ts) asks
 * the session's status every few seconds and moves on once the provider decided; without script the
 * page reloads itself.
 */
import type { CheckoutPageModel, MethodStep } from '../../application/checkout/checkout-service';
import { escapeHtml } from '../html/page-kit';
import { CHECKOUT_ASSETS } from './assets';
import { WRONG_ONE_TIME_CODE, detailLabel } from './messages';
import { amountText, renderOrderSummary } from './order-summary';
import { qrCodeSvg, qrPayloadOf } from './qr-svg';
import { assetUrl, renderDocument } from './render-page';

/** Seconds between the page's status questions (and its reloads without script). */
export const STEP_POLL_SECONDS = 2;
export const STEP_RELOAD_SECONDS = 5;

/** `m:ss`, as the countdown shows it. */
export function countdownText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function detailsList(details: Record<string, string>): string {
  const rows = Object.entries(details)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `    <dt>${escapeHtml(detailLabel(name))}</dt>\n    <dd data-detail="${escapeHtml(name)}">${escapeHtml(value)}</dd>`)
    .join('\n');
  return `<dl class="details">\n${rows}\n  </dl>`;
}

const secondsUntil = (iso: string | null, now: Date): number | null => (iso ? Math.max(0, Math.ceil((Date.parse(iso) - now.getTime()) / 1000)) : null);

function stepContent(model: CheckoutPageModel, step: MethodStep, now: Date, prefix: string, wrongCode: boolean): { title: string; body: string } {
  const amount = amountText(model);
  const waitNote = '<p class="step-note" role="status" data-step-status>This page moves on by itself once the payment provider has decided. Please keep it open.</p>';
  switch (step.kind) {
    case 'qr': {
      const payload = qrPayloadOf(step.qrCode);
      const left = secondsUntil(step.expiresAt, now);
      const countdown =
        left === null
          ? ''
          : `<p class="countdown" data-expires-in="${left}">The code expires in <time data-countdown>${escapeHtml(countdownText(left))}</time>.</p>`;
      return {
        title: 'Scan the QR code',
        body: `<p>Open your banking app and scan this code to pay ${escapeHtml(amount)}.</p>
  <figure class="qr">${payload ? qrCodeSvg(payload, `QR code to pay ${amount}`) : ''}</figure>
  ${countdown}
  ${waitNote}`,
      };
    }
    case 'otp': {
      const action = `${prefix}/checkout/${encodeURIComponent(model.session.sessionId)}/otp`;
      const sent = step.phone ? `A one-time code was sent by SMS to ${escapeHtml(step.phone)}.` : 'A one-time code was sent to you by SMS.';
      const sandbox = step.testCode ? ` <span data-test-code>In the sandbox the code is <strong>${escapeHtml(step.testCode)}</strong>.</span>` : '';
      return {
        title: 'Enter the one-time code',
        body: `<p>${sent}${sandbox}</p>
  <form method="post" action="${escapeHtml(action)}" data-otp-form aria-labelledby="pay-title">
    <div class="field${wrongCode ? ' invalid' : ''}">
      <label for="otp">One-time code</label>
      <input type="text" id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="12" required aria-describedby="otp-error"${wrongCode ? ' aria-invalid="true" autofocus' : ''}>
      <p class="field-error" id="otp-error" aria-live="polite">${wrongCode ? escapeHtml(WRONG_ONE_TIME_CODE) : ''}</p>
    </div>
    <button type="submit" class="primary">Confirm ${escapeHtml(amount)}</button>
  </form>`,
      };
    }
    case 'details':
      return {
        title: 'Pay by bank transfer',
        body: `<p>Transfer ${escapeHtml(amount)} with these details. Use the reference exactly as shown.</p>
  ${detailsList(step.details)}
  ${waitNote}
  <p><a href="${escapeHtml(step.providerUrl)}" data-provider-link>Open the payment provider's page</a></p>`,
      };
    case 'confirm': {
      const crypto = step.instructions?.crypto_address;
      return crypto
        ? {
            title: 'Send the deposit',
            body: `<p>Send ${escapeHtml(amount)} to this address, on this network only.</p>
  ${detailsList(step.instructions!)}
  ${waitNote}`,
          }
        : {
            title: 'Confirm the payment',
            body: `<p>Confirm the payment of ${escapeHtml(amount)} with your payment provider: in its app, or as your bank asks you to.</p>
  ${step.instructions && Object.keys(step.instructions).length ? detailsList(step.instructions) : ''}
  ${waitNote}`,
          };
    }
    default: {
      const unreachable: never = step;
      return unreachable;
    }
  }
}

/** The page of the step; `wrongCode`: the one-time code just typed was not accepted. */
export function renderMethodStepPage(model: CheckoutPageModel, step: MethodStep, now: Date, prefix: string, wrongCode = false): string {
  const page = `${prefix}/checkout/${encodeURIComponent(model.session.sessionId)}`;
  const { title, body } = stepContent(model, step, now, prefix, wrongCode);
  const main = `<div class="checkout">
${renderOrderSummary(model, now)}
<section class="pay method-step" aria-labelledby="pay-title" data-method-step="${escapeHtml(step.kind)}" data-status-url="${escapeHtml(`${page}/status`)}" data-page-url="${escapeHtml(page)}" data-poll-seconds="${STEP_POLL_SECONDS}">
  <p class="method-name">${escapeHtml(step.method.label)}</p>
  <h1 id="pay-title">${escapeHtml(title)}</h1>
  ${body}
  <noscript><p><a href="${escapeHtml(page)}">Check again now</a></p></noscript>
</section>
</div>`;
  return renderDocument({
    title: `${title} – ${model.merchantName}`,
    prefix,
    shopName: model.merchantName,
    main,
    scripts: [assetUrl(prefix, CHECKOUT_ASSETS.stepJs)],
    // The script asks for the status; a browser without it reloads the page instead (not while a code is typed).
    ...(step.kind === 'otp' ? {} : { noscriptRefreshSeconds: STEP_RELOAD_SECONDS }),
  });
}
