/**
 * One decide function per payment command. The map is typed over every command type, so a command
 * added to commands.ts without its decider does not compile.
 */
import type { PaymentCommand } from '../commands';
import type { PaymentEvent } from '../events';
import type { ExistingPayment, PaymentState } from '../payment-state';
import { recordCapture, requestCapture } from './capture';
import { recordCreditVoid, requestCreditVoid, requestRefund } from './credit-void';
import { initiatePayment } from './initiate-payment';
import { completePayerAction, expirePayerAction } from './payer-action';
import { recordProviderNotification } from './provider-notification';
import { recordAuthorization } from './record-authorization';
import { recordVoid, requestVoid } from './void';

type CommandType = PaymentCommand['type'];
type CommandOf<T extends CommandType> = Extract<PaymentCommand, { type: T }>;

/** Every command but InitiatePayment is about a payment that exists (payment_not_found otherwise). */
export type PaymentDeciders = { [T in Exclude<CommandType, 'InitiatePayment'>]: (command: CommandOf<T>, state: ExistingPayment) => PaymentEvent[] } & {
  InitiatePayment: (command: CommandOf<'InitiatePayment'>, state: PaymentState) => PaymentEvent[];
};

export const paymentDeciders: PaymentDeciders = {
  InitiatePayment: initiatePayment,
  RecordAuthorization: recordAuthorization,
  CompletePayerAction: completePayerAction,
  RecordProviderNotification: recordProviderNotification,
  ExpirePayerAction: expirePayerAction,
  RequestCapture: requestCapture,
  RecordCapture: recordCapture,
  RequestVoid: requestVoid,
  RecordVoid: recordVoid,
  RequestCreditVoid: requestCreditVoid,
  RequestRefund: requestRefund,
  RecordCreditVoid: recordCreditVoid,
};
