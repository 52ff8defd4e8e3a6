/** Payments waiting on their payer (3-D Secure, a provider's page or QR code, a provider's confirmation), for the payer-action expiry worker. */
export interface AbandonedPayerAction {
  paymentId: string;
  phase: 'awaiting_3ds' | 'awaiting_redirect' | 'awaiting_provider';
  /** The provider's page shows a QR code. */
  qr?: boolean;
}

export interface PayerActionsDue {
  /** Payments still waiting on their payer whose last change is older than `cutoffIso`. */
  abandonedPayerActions(cutoffIso: string, limit: number): Promise<AbandonedPayerAction[]>;
  /** Payments still waiting on their payer whose provider's deadline (a QR code's lifetime) is at or before `nowIso`. */
  expiredPayerActions(nowIso: string, limit: number): Promise<AbandonedPayerAction[]>;
}
