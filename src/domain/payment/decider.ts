import type { Decider } from '../decider';
import type { PaymentCommand } from './commands';
import { decidePayment } from './decide';
import { paymentEventSchemaVersion, type PaymentEvent } from './events';
import { evolvePayment, initialPaymentState, type PaymentState } from './state';

/** The payment stream (`payment-<id>`, paymentStreamId): one per payment. */
export const paymentDecider: Decider<PaymentCommand, PaymentState, PaymentEvent> = {
  decide: decidePayment,
  evolve: evolvePayment,
  initialState: initialPaymentState,
  schemaVersion: paymentEventSchemaVersion,
};
