/** Where a provider's notification is handed to the gateway, exactly as it arrived, for its connector to authenticate. */
import type { ExistingPayment } from '../../domain/payment/state';

export interface RawNotification {
  body: string;
  headers: Record<string, string>;
}

/** `ignored`: verified, but about nothing this connector holds (an unknown or another connector's payment). */
export type NotificationResult = { kind: 'not_verified' } | { kind: 'ignored' } | { kind: 'recorded'; payment: ExistingPayment; changed: boolean };

export interface NotificationIntake {
  current(paymentId: string): Promise<ExistingPayment>;
  acceptNotification(connector: string, raw: RawNotification, correlationId: string): Promise<NotificationResult>;
}
