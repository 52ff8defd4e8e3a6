/**
 * Why a payment whose payer never finished their step is declined (docs/reference/sandbox.md#abandoned-payer-steps):
 * the words of its decline, by the step it waited on. The payer-action expiry worker and the hosted
 * Checkout page (which notices a QR code's minute running out as the payer watches) say the same.
 */
export type AwaitedStep = 'awaiting_3ds' | 'awaiting_redirect' | 'awaiting_provider';

export const QR_CODE_EXPIRED = 'QR code expired';

export function payerTimeoutReason(phase: AwaitedStep, qr: boolean): string {
  switch (phase) {
    case 'awaiting_3ds':
      return '3-D Secure authentication was not completed in time';
    case 'awaiting_redirect':
      return qr ? QR_CODE_EXPIRED : 'The payer did not return from the redirect in time';
    case 'awaiting_provider':
      return 'The payer did not confirm the payment in time';
    default: {
      const unreachable: never = phase;
      return unreachable;
    }
  }
}
