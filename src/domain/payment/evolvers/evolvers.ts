/**
 * One evolver per payment event type. The map is typed over every PaymentEventType, so an event
 * type added to events.ts without its evolver does not compile.
 */
import type { PaymentEvent, PaymentEventType, PaymentInitiated } from '../events';
import type { ExistingPayment } from '../payment-state';
import { paymentAuthorized, paymentCascaded, paymentDeclined, paymentOutcomeUnknown, paymentSettled } from './decisions';
import {
  authorizationReversed,
  captureRequested,
  captureSucceeded,
  creditVoidRequested,
  followUpDeclined,
  paymentVoided,
  refundSucceeded,
  voidRequested,
} from './follow-ups';
import { paymentInitiated } from './initiated';
import { payerRedirectRequired, paymentPending, threeDSChallengeRequired } from './payer-steps';

type EventOf<T extends PaymentEventType> = Extract<PaymentEvent, { type: T }>;

/** Every event but PaymentInitiated changes a payment that exists. */
export type PaymentEvolvers = { [T in Exclude<PaymentEventType, 'PaymentInitiated'>]: (state: ExistingPayment, event: EventOf<T>) => ExistingPayment } & {
  PaymentInitiated: (event: PaymentInitiated) => ExistingPayment;
};

export const paymentEvolvers: PaymentEvolvers = {
  PaymentInitiated: paymentInitiated,
  PaymentSettled: paymentSettled,
  PaymentAuthorized: paymentAuthorized,
  PaymentDeclined: paymentDeclined,
  PaymentCascaded: paymentCascaded,
  ThreeDSChallengeRequired: threeDSChallengeRequired,
  PayerRedirectRequired: payerRedirectRequired,
  PaymentPending: paymentPending,
  PaymentOutcomeUnknown: paymentOutcomeUnknown,
  CaptureRequested: captureRequested,
  CaptureSucceeded: captureSucceeded,
  CaptureDeclined: followUpDeclined,
  VoidRequested: voidRequested,
  VoidDeclined: followUpDeclined,
  PaymentVoided: paymentVoided,
  CreditVoidRequested: creditVoidRequested,
  RefundSucceeded: refundSucceeded,
  RefundDeclined: followUpDeclined,
  AuthorizationReversed: authorizationReversed,
  ReversalDeclined: followUpDeclined,
};
