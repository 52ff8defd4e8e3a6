/** Refusals several payment commands share, and how a follow-up's answer becomes its events. */
import { DomainError } from '../../errors';
import type { FollowUpResult } from '../commands';
import type { PaymentEvent } from '../events';
import type { ExistingPayment } from '../payment-state';

/** A payout made with a method (CREDIT2VIRTUAL) is never captured, voided or refunded (docs/payouts.md#how-it-works: 204005). */
export function refuseOnPayout(s: ExistingPayment): void {
  if (s.kind === 'credit' && s.method) throw new DomainError('action_not_supported', 'Payment action not supported');
}

/** Some acquirers take refunds in their own portal only: the gateway cannot ask them. */
export function refuseRefundOutsideApi(refundsViaApi: boolean | undefined): void {
  if (refundsViaApi === false) {
    throw new DomainError('refund_via_api_not_supported', 'Refund via API is not supported. Only from the connector admin portal.');
  }
}

export function refuseWhileBusy(s: ExistingPayment): void {
  if (s.pendingOperation) {
    throw new DomainError('operation_in_progress', `Another operation (${s.pendingOperation.kind}) is still in progress for this payment`);
  }
}

export function refuseNonPositive(amount: number): void {
  if (amount <= 0) throw new DomainError('amount_not_positive', 'amount: This value should be greater than 0.');
}

export function expectPending(s: ExistingPayment, operationId: string, kind: 'capture' | 'void') {
  const op = s.pendingOperation;
  if (!op || op.operationId !== operationId || op.kind !== kind) {
    throw new DomainError('unexpected_outcome', `Operation ${operationId} is not pending`);
  }
  return op;
}

export function followUp(result: FollowUpResult, on: { success(): PaymentEvent[]; declined(reason: string): PaymentEvent[] }): PaymentEvent[] {
  switch (result.outcome) {
    case 'success':
      return on.success();
    case 'declined':
      return on.declined(result.reason);
    case 'unknown':
      // The request stays pending in the stream; the acquirer is asked for its status, not called again.
      return [];
    default: {
      const unreachable: never = result;
      return unreachable;
    }
  }
}
