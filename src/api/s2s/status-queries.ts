/**
 * S2S status lookups over the payment read-model port. The port returns payment records; like the
 * Checkout API, which shows `record.state` in its own shape, the S2S API turns the state into its
 * view here, so the composition root only connects the port.
 */
import type { PaymentReadModel } from '../../application/ports/payment-read-model';
import type { PaymentQueries } from './s2s-action';
import { viewOf } from './responses';

export function s2sStatusQueries(payments: PaymentReadModel): PaymentQueries {
  return {
    async latestPaymentViewByOrder(merchantId, orderId) {
      const record = await payments.latestPaymentByOrder(merchantId, orderId);
      return record && viewOf(record.state);
    },
    catchUpToHead: (timeoutMs) => payments.catchUpToHead(timeoutMs),
  };
}
