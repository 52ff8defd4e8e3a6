/** The events that decide an authorization (or give up on knowing it), and a cascade to the next connector. */
import type { PaymentAuthorized, PaymentCascaded, PaymentDeclined, PaymentOutcomeUnknown, PaymentSettled } from '../events';
import type { ExistingPayment } from '../payment-state';
import { chainToken, connectorReference, decidedStep, extras, payerReturn, references } from './parts';

export function paymentSettled(state: ExistingPayment, event: PaymentSettled): ExistingPayment {
  const s = decidedStep(state);
  return {
    ...s,
    phase: 'settled',
    status: 'SETTLED',
    descriptor: event.data.descriptor,
    settledAmount: event.data.amount,
    payerAction: null,
    settledAt: event.data.settledAt,
    updatedAt: event.data.settledAt,
    ...references(event.data),
    ...connectorReference(event.data),
    ...payerReturn(event.data),
    ...chainToken(s, event.data),
    ...extras(event.data),
  };
}

export function paymentAuthorized(state: ExistingPayment, event: PaymentAuthorized): ExistingPayment {
  const s = decidedStep(state);
  return {
    ...s,
    phase: 'authorized',
    status: 'PENDING',
    descriptor: event.data.descriptor,
    heldAmount: event.data.amount,
    payerAction: null,
    updatedAt: event.data.authorizedAt,
    ...references(event.data),
    ...connectorReference(event.data),
    ...payerReturn(event.data),
    ...chainToken(s, event.data),
    ...extras(event.data),
  };
}

export function paymentDeclined(state: ExistingPayment, event: PaymentDeclined): ExistingPayment {
  return {
    ...decidedStep(state),
    phase: 'declined',
    status: 'DECLINED',
    declineReason: event.data.reason,
    declineCode: event.data.code,
    payerAction: null,
    updatedAt: event.data.declinedAt,
    ...payerReturn(event.data),
    ...connectorReference(event.data),
  };
}

export function paymentCascaded(s: ExistingPayment, event: PaymentCascaded): ExistingPayment {
  // The next connector starts afresh: the declining one's reference is not quoted to it.
  const { acquirerReference: _declined, ...rest } = s;
  return {
    ...rest,
    connector: event.data.toConnector,
    cascadedFrom: [...(s.cascadedFrom ?? []), event.data.fromConnector],
    updatedAt: event.data.cascadedAt,
  };
}

export function paymentOutcomeUnknown(s: ExistingPayment, event: PaymentOutcomeUnknown): ExistingPayment {
  return { ...s, phase: 'outcome_unknown', status: s.method ? 'PREPARE' : 'PENDING', updatedAt: event.data.at, ...payerReturn(event.data) };
}
