/**
 * What a follow-up's event tells the merchant, the same on S2S CARD and S2S APM callbacks: the
 * request it answers (CAPTURE, VOID, CREDITVOID, whether that refunded or released a hold), whether
 * it succeeded, its amount and when.
 */
import type { PaymentEvent } from '../payment/events';

export type FollowUpEvent = Extract<
  PaymentEvent,
  { type: 'CaptureSucceeded' | 'CaptureDeclined' | 'PaymentVoided' | 'VoidDeclined' | 'RefundSucceeded' | 'RefundDeclined' | 'AuthorizationReversed' | 'ReversalDeclined' }
>;

export interface FollowUpOutcome {
  action: 'CAPTURE' | 'VOID' | 'CREDITVOID';
  result: 'SUCCESS' | 'DECLINED';
  /** Minor units of the operation. */
  amount: number;
  at: string;
  declineReason?: string;
}

export function followUpOutcomeOf(event: FollowUpEvent): FollowUpOutcome {
  switch (event.type) {
    case 'CaptureSucceeded':
      return { action: 'CAPTURE', result: 'SUCCESS', amount: event.data.amount, at: event.data.capturedAt };
    case 'CaptureDeclined':
      return { action: 'CAPTURE', result: 'DECLINED', amount: event.data.amount, at: event.data.declinedAt, declineReason: event.data.reason };
    case 'PaymentVoided':
      return { action: 'VOID', result: 'SUCCESS', amount: event.data.amount, at: event.data.voidedAt };
    case 'VoidDeclined':
      return { action: 'VOID', result: 'DECLINED', amount: event.data.amount, at: event.data.declinedAt, declineReason: event.data.reason };
    case 'RefundSucceeded':
      return { action: 'CREDITVOID', result: 'SUCCESS', amount: event.data.amount, at: event.data.refundedAt };
    case 'RefundDeclined':
      return { action: 'CREDITVOID', result: 'DECLINED', amount: event.data.amount, at: event.data.declinedAt, declineReason: event.data.reason };
    case 'AuthorizationReversed':
      return { action: 'CREDITVOID', result: 'SUCCESS', amount: event.data.amount, at: event.data.reversedAt };
    case 'ReversalDeclined':
      return { action: 'CREDITVOID', result: 'DECLINED', amount: event.data.amount, at: event.data.declinedAt, declineReason: event.data.reason };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
