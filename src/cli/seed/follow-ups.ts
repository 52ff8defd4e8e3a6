/** The requests made on a payment after its SALE: each asks for an operation, then records the acquirer's answer. */
import { newId } from '../../application/new-id';
import { SANDBOX_DECLINE_REASONS } from '../../adapters/connectors/sandbox';
import { formatMinor } from '../../domain/money';
import type { PaymentCommand } from '../../domain/payment/commands';
import { digits } from './acquirer-answers';
import type { Step } from './seeded-payment';

/** One request of an operation: both commands share the operation id it is given. */
function followUp(
  request: (operationId: string, now: string) => PaymentCommand,
  record: (operationId: string, now: string) => PaymentCommand,
): Step['commands'] {
  return (_p, now) => {
    const operationId = newId();
    return [request(operationId, now), record(operationId, now)];
  };
}

export const refund = (minor: number, currency: string, outcome: 'success' | 'declined' = 'success'): Step['commands'] =>
  followUp(
    (operationId, now) => ({ type: 'RequestCreditVoid', data: { operationId, amount: minor, amountText: formatMinor(minor, currency), refundsEnabled: true, now } }),
    (operationId, now) => ({
      type: 'RecordCreditVoid',
      data: { operationId, now, result: outcome === 'success' ? { outcome: 'success' } : { outcome: 'declined', reason: 'Refund declined by acquirer' } },
    }),
  );

/** A capture of `minor`, or of the whole authorization when null. */
export const capture = (minor: number | null, currency: string, outcome: 'success' | 'declined'): Step['commands'] =>
  followUp(
    (operationId, now) => ({
      type: 'RequestCapture',
      data: { operationId, ...(minor === null ? {} : { amount: minor, amountText: formatMinor(minor, currency) }), now },
    }),
    (operationId, now) => ({
      type: 'RecordCapture',
      data: {
        operationId,
        now,
        result: outcome === 'success' ? { outcome: 'success', arn: digits(23) } : { outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.capture },
      },
    }),
  );

export const voidSale = (): Step['commands'] =>
  followUp(
    (operationId, now) => ({ type: 'RequestVoid', data: { operationId, now } }),
    (operationId, now) => ({ type: 'RecordVoid', data: { operationId, now, result: { outcome: 'success' } } }),
  );
