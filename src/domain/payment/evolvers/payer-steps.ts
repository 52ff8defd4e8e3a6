/** The events that make a payment wait: for the payer at the ACS or a provider's page, or for the provider. */
import type { PayerRedirectRequired, PaymentPending, ThreeDSChallengeRequired } from '../events';
import type { ExistingPayment } from '../payment-state';
import { connectorReference } from './parts';

export function threeDSChallengeRequired(s: ExistingPayment, event: ThreeDSChallengeRequired): ExistingPayment {
  return {
    ...s,
    phase: 'awaiting_3ds',
    status: '3DS',
    payerAction: { kind: '3ds', url: event.data.acsUrl, params: { ...event.data.params } },
    lastPayerAction: '3ds',
    updatedAt: event.data.requiredAt,
    ...connectorReference(event.data),
  };
}

export function payerRedirectRequired(s: ExistingPayment, event: PayerRedirectRequired): ExistingPayment {
  const qr = event.data.display === 'qr';
  return {
    ...s,
    phase: 'awaiting_redirect',
    // A QR code is shown, not followed: the payment waits on the payer's bank (REDIRECT/PENDING).
    status: qr ? 'PENDING' : 'REDIRECT',
    payerAction: {
      kind: 'redirect',
      url: event.data.redirectUrl,
      params: { ...(event.data.params ?? {}) },
      ...(qr ? { display: 'qr' as const } : {}),
      ...(event.data.collects ? { collects: event.data.collects } : {}),
    },
    lastPayerAction: 'redirect',
    updatedAt: event.data.requiredAt,
    ...(event.data.expiresAt ? { expiresAt: event.data.expiresAt } : {}),
    ...(event.data.instructions ? { providerInstructions: { ...event.data.instructions } } : {}),
    ...connectorReference(event.data),
  };
}

export function paymentPending(s: ExistingPayment, event: PaymentPending): ExistingPayment {
  return {
    ...s,
    phase: 'awaiting_provider',
    // A payout its provider decides later is answered UNDEFINED/PREPARE (docs/reference/s2s-apm.md#credit2virtual).
    status: s.kind === 'credit' && s.method ? 'PREPARE' : 'PENDING',
    payerAction: null,
    updatedAt: event.data.pendingAt,
    ...(event.data.instructions ? { providerInstructions: { ...event.data.instructions } } : {}),
    ...(event.data.expiresAt ? { expiresAt: event.data.expiresAt } : {}),
    ...connectorReference(event.data),
  };
}
