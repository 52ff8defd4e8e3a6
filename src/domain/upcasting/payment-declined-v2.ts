/**
 * PaymentDeclined 1 → 2: version 2 records a machine-readable decline `code`. A version 1 event
 * has only the reason text and the stage, which is exactly what the decider derives the code from,
 * so the upcast event carries the code the decider would have recorded.
 */
import { declineCodeOf } from '../payment/decline-code';
import type { DeclineStage } from '../payment/events';
import type { Upcaster } from './registry';

export const paymentDeclinedV1ToV2: Upcaster = {
  type: 'PaymentDeclined',
  fromVersion: 1,
  upcast(data) {
    const reason = typeof data.reason === 'string' ? data.reason : '';
    return { ...data, code: declineCodeOf(data.stage as DeclineStage, reason) };
  },
};
