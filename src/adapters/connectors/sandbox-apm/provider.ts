/**
 * The simulated provider behind the sandbox APM connector: what its page (and `gateway sandbox
 * decide`) does when the payer, or a test, decides a payment. The decision is told to the gateway
 * the way a real provider tells it: as the provider's signed notification, handed to the gateway's
 * notification intake exactly as `POST /notifications/sandbox-apm` hands one over, so that path is
 * exercised for real.
 */
import type { NotificationIntake, NotificationResult } from '../../../application/ports/notification-intake';
import type { ExistingPayment } from '../../../domain/payment/state';
import { sandboxMethod } from './catalogue';
import type { SandboxMethod } from './sandbox-method';
import { SANDBOX_APM_NAME } from './connector';
import { notificationStatus, signNotification, type PayerDecision } from './transformers';

export interface SandboxApmProviderDeps {
  secret: Buffer;
  payments: NotificationIntake;
  now: () => Date;
}

/** A payment of this provider's, with the method it was made with. */
export interface ProviderPayment {
  payment: ExistingPayment;
  method: SandboxMethod;
}

export class SandboxApmProvider {
  constructor(private readonly deps: SandboxApmProviderDeps) {}

  /** The payment, when it exists and is this provider's; null otherwise. */
  async find(paymentId: string): Promise<ProviderPayment | null> {
    let payment: ExistingPayment;
    try {
      payment = await this.deps.payments.current(paymentId);
    } catch {
      return null;
    }
    const method = payment.method ? sandboxMethod(payment.method.brand) : null;
    if (payment.connector !== SANDBOX_APM_NAME || !method) return null;
    return { payment, method };
  }

  /**
   * Tells the gateway the payer's decision, as the provider's notification in the method's
   * vocabulary. A payment already decided stays as it is (the notification changes nothing).
   */
  async decide(found: ProviderPayment, decision: PayerDecision, correlationId: string): Promise<NotificationResult> {
    const raw = signNotification(
      this.deps.secret,
      { paymentId: found.payment.paymentId, reference: found.payment.acquirerReference ?? '', status: notificationStatus(found.method.vocabulary, decision) },
      Math.floor(this.deps.now().getTime() / 1000),
    );
    return this.deps.payments.acceptNotification(SANDBOX_APM_NAME, raw, correlationId);
  }
}
