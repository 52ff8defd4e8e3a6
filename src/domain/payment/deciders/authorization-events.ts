/**
 * What a connector's answer about an authorization records, one function per outcome. Shared by the
 * first answer, the payer's return and the provider's notification; only the decline stage and
 * what the payer's return produced differ between them.
 */
import type { AuthorizationResult } from '../commands';
import type { DeclineStage } from '../decline-code';
import { declineCodeOf } from '../decline-code';
import { requestedDescriptor } from '../descriptor';
import type { PayerReturnData, PaymentEvent } from '../events';
import type { ExistingPayment } from '../payment-state';

type Outcome<O extends AuthorizationResult['outcome']> = Extract<AuthorizationResult, { outcome: O }>;

export function referenceOf(result: { reference?: string }): { reference?: string } {
  return result.reference !== undefined ? { reference: result.reference } : {};
}

export function authorizationEvents(
  s: ExistingPayment,
  result: AuthorizationResult,
  now: string,
  stage: DeclineStage,
  returned: PayerReturnData = {},
): PaymentEvent[] {
  switch (result.outcome) {
    case 'success':
      return [succeeded(s, result, now, returned)];
    case 'declined':
      return [declined(s, result, now, stage, returned)];
    case 'challenge':
      return [
        {
          type: 'ThreeDSChallengeRequired',
          data: { paymentId: s.paymentId, acsUrl: result.acsUrl, params: result.params, ...referenceOf(result), requiredAt: now },
        },
      ];
    case 'redirect':
      return [redirected(s, result, now)];
    case 'pending':
      return [pending(s, result, now)];
    case 'unknown':
      // Already unknown: nothing new to record; the reconciler will ask again.
      if (s.phase === 'outcome_unknown') return [];
      return [{ type: 'PaymentOutcomeUnknown', data: { paymentId: s.paymentId, detail: result.detail, ...returned, at: now } }];
    default: {
      const unreachable: never = result;
      return unreachable;
    }
  }
}

function succeeded(s: ExistingPayment, result: Outcome<'success'>, now: string, returned: PayerReturnData): PaymentEvent {
  const rrn = {
    ...(result.rrn !== undefined ? { rrn: result.rrn } : {}),
    ...(result.cardOnFileId !== undefined ? { cardOnFileId: result.cardOnFileId } : {}),
    ...(result.conversion ? { conversion: result.conversion } : {}),
    ...(result.extendedData ? { extendedData: result.extendedData } : {}),
  };
  // The descriptor the merchant sent with the payment is the one it is known by.
  const descriptor = requestedDescriptor(s) ?? result.descriptor;
  const paymentId = s.paymentId;
  // A sale settles at once, so its ARN comes with it; an authorization's comes with its capture.
  if (s.kind === 'authorization') {
    return { type: 'PaymentAuthorized', data: { paymentId, amount: s.amount, descriptor, ...referenceOf(result), ...rrn, ...returned, authorizedAt: now } };
  }
  const arn = result.arn !== undefined ? { arn: result.arn } : {};
  return { type: 'PaymentSettled', data: { paymentId, amount: s.amount, descriptor, ...referenceOf(result), ...rrn, ...arn, ...returned, settledAt: now } };
}

function declined(s: ExistingPayment, result: Outcome<'declined'>, now: string, stage: DeclineStage, returned: PayerReturnData): PaymentEvent {
  const code = declineCodeOf(stage, result.reason);
  return { type: 'PaymentDeclined', data: { paymentId: s.paymentId, reason: result.reason, code, stage, ...referenceOf(result), ...returned, declinedAt: now } };
}

/** Only what the provider gave: empty parameters and instructions are not recorded. */
function nonEmpty<K extends string>(key: K, value: Record<string, string> | undefined): { [P in K]?: Record<string, string> } {
  return (value && Object.keys(value).length > 0 ? { [key]: { ...value } } : {}) as { [P in K]?: Record<string, string> };
}

function redirected(s: ExistingPayment, result: Outcome<'redirect'>, now: string): PaymentEvent {
  return {
    type: 'PayerRedirectRequired',
    data: {
      paymentId: s.paymentId,
      redirectUrl: result.redirectUrl,
      ...(result.display ? { display: result.display } : {}),
      ...nonEmpty('params', result.params),
      ...(result.expiresAt ? { expiresAt: result.expiresAt } : {}),
      ...nonEmpty('instructions', result.instructions),
      ...(result.collects ? { collects: result.collects } : {}),
      ...referenceOf(result),
      requiredAt: now,
    },
  };
}

function pending(s: ExistingPayment, result: Outcome<'pending'>, now: string): PaymentEvent {
  return {
    type: 'PaymentPending',
    data: {
      paymentId: s.paymentId,
      ...nonEmpty('instructions', result.instructions),
      ...(result.expiresAt ? { expiresAt: result.expiresAt } : {}),
      ...referenceOf(result),
      pendingAt: now,
    },
  };
}
