/** A seeded payment: its state so far and the requests it still goes through. */
import type { PaymentCommand } from '../../domain/payment/commands';
import type { PaymentState } from '../../domain/payment/state';

/** A request to the gateway: the commands it runs and how many events they record. */
export interface Step {
  at: number;
  events: number;
  commands(payment: SeededPayment, now: string): PaymentCommand[];
}

export interface SeededPayment {
  id: string;
  state: PaymentState;
  version: bigint | null;
  steps: Step[];
  next: number;
}

export type InitiatePayment = PaymentCommand & { type: 'InitiatePayment' };
