/** Payments waiting on their payer (3-D Secure or a redirect), for the payer-action expiry worker. */
export interface AbandonedPayerAction {
  paymentId: string;
  phase: 'awaiting_3ds' | 'awaiting_redirect';
}

export interface PayerActionsDue {
  /** Payments still waiting on their payer whose last change is older than `cutoffIso`. */
  abandonedPayerActions(cutoffIso: string, limit: number): Promise<AbandonedPayerAction[]>;
}
