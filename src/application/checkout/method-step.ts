import type { ExistingPayment } from '../../domain/payment/state';
import type { PageMethod } from './page-methods';

/**
 * The step of an alternative method the hosted page shows itself while its provider decides:
 * - `qr`: the QR code (its payload, Base64) to scan, and when it expires;
 * - `otp`: the one-time code's entry (where the code went; the sandbox tells its code);
 * - `details`: payment details to transfer to, and the provider's page should the payer want it;
 * - `confirm`: the payer confirms elsewhere (an app, a bank); a crypto deposit's address and network.
 */
export type MethodStep =
  | { kind: 'qr'; method: PageMethod; qrCode: string; expiresAt: string | null }
  | { kind: 'otp'; method: PageMethod; phone: string | null; testCode: string | null }
  | { kind: 'details'; method: PageMethod; details: Record<string, string>; providerUrl: string }
  | { kind: 'confirm'; method: PageMethod; instructions: Record<string, string> | null; expiresAt: string | null };

/** The step the hosted page shows itself for this payment, when it is an alternative method's step the page can show. */
export function stepOf(payment: ExistingPayment, methods: readonly PageMethod[]): MethodStep | null {
  if (!payment.method || !payment.checkout) return null;
  const method = methods.find((m) => m.method === payment.method!.brand) ?? { method: payment.method.brand, label: payment.method.brand, collect: [] };
  const instructions = payment.providerInstructions ?? null;
  if (payment.phase === 'awaiting_provider') return { kind: 'confirm', method, instructions, expiresAt: payment.expiresAt ?? null };
  if (payment.phase !== 'awaiting_redirect' || !payment.payerAction) return null;
  const action = payment.payerAction;
  if (action.display === 'qr' && action.params.qr_code) return { kind: 'qr', method, qrCode: action.params.qr_code, expiresAt: payment.expiresAt ?? null };
  if (action.collects === 'otp') return { kind: 'otp', method, phone: instructions?.phone ?? null, testCode: instructions?.test_code ?? null };
  if (instructions && Object.keys(instructions).length) return { kind: 'details', method, details: instructions, providerUrl: action.url };
  return null;
}
