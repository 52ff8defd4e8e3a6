/**
 * The sandbox APM provider's page (`/sandbox/provider/{trans_id}`): it stands where an alternative
 * method's provider site would. Beside Approve and Decline it shows what the method needs: the QR
 * code to scan (sb-qr), the one-time code's entry with the code the sandbox "sent" (sb-otp), the
 * payment details (sb-details), the crypto address (sb-crypto), and the fields the provider collects
 * from the payer when the merchant did not send them. No script: a plain form posted back here.
 */
import qrcode from 'qrcode-generator';
import type { MethodField } from '../../domain/payment/method-fields';
import { formatMinor } from '../../domain/money';
import { assertFormTarget, escapeHtml, renderHostedPage } from '../html/page-kit';

export interface ProviderPageInput {
  /** Where the form posts (this page, its signed query kept). */
  action: string;
  paymentId: string;
  orderId: string;
  amount: number;
  currency: string;
  /** The method as the merchant named it, and the catalogue's kind. */
  method: string;
  kind: string;
  page: 'plain' | 'qr' | 'otp' | 'details' | 'crypto';
  /** The QR code's payload text (decoded from Base64). */
  qrPayload?: string;
  /** The phone the code went to, when known. */
  phone?: string;
  otp?: string;
  instructions?: Record<string, string>;
  /** Fields to ask the payer for. */
  collect: readonly MethodField[];
  /** What the last submit got wrong, shown above the form. */
  problem?: string;
}

/** The QR payload drawn as an SVG (error correction M), as a banking app would scan it. */
export function qrSvg(payload: string): string {
  const code = qrcode(0, 'M');
  code.addData(payload, 'Byte');
  code.make();
  return code.createSvgTag({ cellSize: 4, margin: 4, scalable: true }).replace('<svg ', '<svg role="img" aria-label="QR code of the payment" ');
}

function input(name: string, label: string, value = ''): string {
  const id = `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return `  <label for="${escapeHtml(id)}">${escapeHtml(label)}</label>\n  <input id="${escapeHtml(id)}" name="${escapeHtml(name)}" value="${escapeHtml(value)}" autocomplete="off">`;
}

function details(rows: Array<[string, string]>): string {
  return `<dl>\n${rows.map(([k, v]) => `  <dt>${escapeHtml(k)}</dt>\n  <dd>${escapeHtml(v)}</dd>`).join('\n')}\n</dl>`;
}

export function renderProviderPage(p: ProviderPageInput): string {
  const action = assertFormTarget(p.action);
  const amount = `${formatMinor(p.amount, p.currency)} ${p.currency}`;
  const parts: string[] = [
    '<span class="badge">Sandbox</span>',
    `<h1 id="title">${escapeHtml(p.kind)} (sandbox provider)</h1>`,
    '<p id="help">This test page stands in for the payment method\'s provider. Approve or decline the payment as the payer would; the provider then notifies the gateway.</p>',
    details([
      ['Amount', amount],
      ['Order', p.orderId],
      ['Method', p.method],
    ]),
  ];
  if (p.problem) parts.push(`<p class="error" role="alert">${escapeHtml(p.problem)}</p>`);
  if (p.page === 'qr' && p.qrPayload) {
    parts.push(`<figure class="qr">${qrSvg(p.qrPayload)}<figcaption>Scan with your banking app. The code expires one minute after it was issued.</figcaption></figure>`);
  }
  if (p.page === 'details') {
    parts.push('<h2>Pay by bank transfer</h2>', details([['Beneficiary', 'SANDBOX PROVIDER'], ['IBAN', 'XX00 SBOX 0000 0000 0000 00'], ['Reference', p.paymentId], ['Amount', amount]]));
  }
  if (p.page === 'crypto' && p.instructions) {
    parts.push('<h2>Send the deposit</h2>', details([['Address', p.instructions.crypto_address ?? ''], ['Network', p.instructions.crypto_network ?? '']]));
  }
  const fields: string[] = [];
  if (p.page === 'otp') {
    parts.push(`<p>A one-time code was sent by SMS${p.phone ? ` to ${escapeHtml(p.phone)}` : ''}. In the sandbox it is <strong>${escapeHtml(p.otp ?? '')}</strong>.</p>`);
    fields.push(input('otp', 'One-time code'));
  }
  for (const field of p.collect) fields.push(input(field.name, field.label ?? field.name));
  parts.push(
    `<form method="post" action="${escapeHtml(action)}" aria-labelledby="title" aria-describedby="help">`,
    ...fields,
    '  <div class="actions">',
    '    <button type="submit" name="decision" value="approve">Approve</button>',
    '    <button type="submit" name="decision" value="decline" class="secondary">Decline</button>',
    '  </div>',
    '</form>',
  );
  return renderHostedPage({ title: 'Payment provider (sandbox)', main: parts.join('\n') });
}

/** The page once the payment is decided (a late visit, a second decision). */
export function renderDecidedPage(status: string): string {
  return renderHostedPage({
    title: 'Payment provider (sandbox)',
    main: `<span class="badge">Sandbox</span>\n<h1>This payment is already decided</h1>\n<p>Its status is ${escapeHtml(status)}.</p>`,
  });
}
