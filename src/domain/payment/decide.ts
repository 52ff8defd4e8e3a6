/**
 * The payment decider: `decidePayment(command, state) -> events`. Pure; refuses a transition by
 * throwing a DomainError whose code the API maps to the spec's error.
 */
import { DomainError } from '../errors';
import { formatMinor } from '../money';
import type { AuthorizationResult, FollowUpResult, PaymentCommand } from './commands';
import { declineCodeOf } from './decline-code';
import { requestedDescriptor } from './descriptor';
import { paymentModeAllows, zeroAmountAllowed } from './policy';
import type { PaymentEvent, DeclineStage, PayerReturnData } from './events';
import type { ExistingPayment, PaymentState } from './state';

export function decidePayment(command: PaymentCommand, state: PaymentState): PaymentEvent[] {
  if (command.type === 'InitiatePayment') {
    if (state.exists) throw new DomainError('payment_exists', `Payment ${command.data.paymentId} already exists`);
    const { now, merchantPaymentMode, ...d } = command.data;
    if (d.amount === 0 && !zeroAmountAllowed(d)) throw new DomainError('amount_not_positive', 'amount: This value should be greater than 0.');
    if (merchantPaymentMode && !paymentModeAllows(merchantPaymentMode, d.kind)) throw new DomainError('action_not_supported', 'Payment action not supported');
    return [{ type: 'PaymentInitiated', data: { ...d, initiatedAt: now } }];
  }
  if (!state.exists) throw new DomainError('payment_not_found', 'Payment not found.');
  const s = state;
  switch (command.type) {
    case 'RecordAuthorization':
      if (s.phase !== 'initiated' && s.phase !== 'outcome_unknown') {
        // A provider may notify before its own answer to the request is recorded: what it notified
        // stands, but a page it then names for the payer (a QR code) is still shown.
        if (s.method && s.phase === 'awaiting_provider' && command.data.result.outcome === 'redirect') {
          return authorizationEvents(s, command.data.result, command.data.now, 'authorization');
        }
        if (s.method) return [];
        throw new DomainError('unexpected_outcome', `Authorization already decided (${s.phase})`);
      }
      return cascadeOf(s, command.data.result, command.data.now) ?? authorizationEvents(s, command.data.result, command.data.now, 'authorization');
    case 'RecordProviderNotification':
      return notificationEvents(s, command.data.result, command.data.now);
    case 'CompletePayerAction': {
      if (s.phase !== 'awaiting_3ds' && s.phase !== 'awaiting_redirect') {
        throw new DomainError('unexpected_outcome', `No payer action is awaited (${s.phase})`);
      }
      const result = command.data.result;
      // The acquirer may not ask for a second challenge once the payer came back.
      if (result.outcome === 'challenge' || result.outcome === 'redirect') {
        throw new DomainError('unexpected_outcome', 'A completed payer action cannot start another one');
      }
      const returned: PayerReturnData = {
        ...(command.data.threeDS ? { threeDS: command.data.threeDS } : {}),
        ...(command.data.browser ? { browser: command.data.browser } : {}),
      };
      return authorizationEvents(s, result, command.data.now, s.phase === 'awaiting_3ds' ? '3ds' : 'redirect', returned);
    }
    case 'ExpirePayerAction':
      if (s.phase !== 'awaiting_3ds' && s.phase !== 'awaiting_redirect' && s.phase !== 'awaiting_provider') {
        throw new DomainError('unexpected_outcome', `No payer action is awaited (${s.phase})`);
      }
      // A provider that gave the payer longer than the gateway's timeout is waited for.
      if (s.expiresAt !== undefined && Date.parse(command.data.now) < Date.parse(s.expiresAt)) {
        throw new DomainError('unexpected_outcome', `The payer's step lasts until ${s.expiresAt}`);
      }
      return [
        {
          type: 'PaymentDeclined',
          data: {
            paymentId: s.paymentId,
            reason: command.data.reason,
            code: declineCodeOf('timeout', command.data.reason),
            stage: 'timeout',
            declinedAt: command.data.now,
          },
        },
      ];
    case 'RequestCapture': {
      refuseOnPayout(s);
      if (s.phase !== 'authorized' || s.heldAmount <= 0) {
        throw new DomainError(
          'capture_not_allowed',
          'Not acceptable to request the capture for payment not in pending status',
        );
      }
      refuseWhileBusy(s);
      const amount = command.data.amount ?? s.heldAmount;
      if (amount <= 0) throw new DomainError('amount_not_positive', 'amount: This value should be greater than 0.');
      if (amount > s.heldAmount) {
        throw new DomainError('amount_exceeds_available', 'amount: The amount exceeds the authorized amount.');
      }
      return [
        {
          type: 'CaptureRequested',
          data: {
            paymentId: s.paymentId,
            operationId: command.data.operationId,
            amount,
            amountText: command.data.amountText ?? (amount === s.amount ? s.amountText : formatMinor(amount, s.currency)),
            requestedAt: command.data.now,
          },
        },
      ];
    }
    case 'RecordCapture': {
      const op = expectPending(s, command.data.operationId, 'capture');
      return followUp(command.data.result, {
        success: () => [
          {
            type: 'CaptureSucceeded',
            data: {
              paymentId: s.paymentId,
              operationId: op.operationId,
              amount: op.amount,
              amountText: op.amountText,
              ...(command.data.result.outcome === 'success' && command.data.result.arn !== undefined
                ? { arn: command.data.result.arn }
                : {}),
              capturedAt: command.data.now,
            },
          },
        ],
        declined: (reason) => [
          {
            type: 'CaptureDeclined',
            data: { paymentId: s.paymentId, operationId: op.operationId, amount: op.amount, reason, declinedAt: command.data.now },
          },
        ],
      });
    }
    case 'RequestVoid':
      refuseOnPayout(s);
      // Only money that settled and was never refunded can be voided; a hold is released instead.
      if (s.phase !== 'settled' || s.refundedAmount > 0 || s.kind === 'credit') {
        throw new DomainError('void_not_allowed', 'Void is not allowed.');
      }
      // An alternative method's provider cancels a settlement only on its settlement day (UTC, docs/reference/s2s-apm.md#follow-ups).
      if (s.method && (s.settledAt === undefined || s.settledAt.slice(0, 10) !== command.data.now.slice(0, 10))) {
        throw new DomainError('void_not_allowed', 'Void is not allowed.');
      }
      refuseWhileBusy(s);
      return [
        {
          type: 'VoidRequested',
          data: { paymentId: s.paymentId, operationId: command.data.operationId, amount: s.settledAmount, requestedAt: command.data.now },
        },
      ];
    case 'RecordVoid': {
      const op = expectPending(s, command.data.operationId, 'void');
      return followUp(command.data.result, {
        success: () => [
          {
            type: 'PaymentVoided',
            data: { paymentId: s.paymentId, operationId: op.operationId, amount: op.amount, voidedAt: command.data.now },
          },
        ],
        declined: (reason) => [
          {
            type: 'VoidDeclined',
            data: { paymentId: s.paymentId, operationId: op.operationId, amount: op.amount, reason, declinedAt: command.data.now },
          },
        ],
      });
    }
    case 'RequestCreditVoid': {
      refuseOnPayout(s);
      const { amount, amountText, operationId, refundsEnabled, now } = command.data;
      let kind: 'refund' | 'reversal';
      let available: number;
      if (s.phase === 'authorized') {
        // Releasing a hold moves no money back, so it does not need refunds enabled.
        kind = 'reversal';
        available = s.heldAmount;
      } else if (s.phase === 'settled' && refundsEnabled && s.kind !== 'credit') {
        kind = 'refund';
        available = s.settledAmount - s.refundedAmount;
        refuseRefundOutsideApi(command.data.refundsViaApi);
      } else {
        throw new DomainError('refund_not_allowed', 'Refund is not allowed');
      }
      refuseWhileBusy(s);
      if (amount <= 0) throw new DomainError('amount_not_positive', 'amount: This value should be greater than 0.');
      if (amount > available) {
        throw new DomainError(
          'amount_exceeds_available',
          kind === 'refund'
            ? 'amount: The amount exceeds the amount that can still be refunded.'
            : 'amount: The amount exceeds the authorized amount.',
        );
      }
      return [
        {
          type: 'CreditVoidRequested',
          data: { paymentId: s.paymentId, operationId, kind, amount, amountText, requestedAt: now },
        },
      ];
    }
    case 'RequestRefund': {
      refuseOnPayout(s);
      // Checkout refunds money that settled; a hold is never "refunded" (it is voided instead).
      const { amount, amountText, operationId, refundsEnabled, now } = command.data;
      if (s.phase !== 'settled' || !refundsEnabled || s.kind === 'credit') {
        throw new DomainError('refund_not_allowed', 'Refund is not allowed');
      }
      refuseRefundOutsideApi(command.data.refundsViaApi);
      refuseWhileBusy(s);
      if (amount <= 0) throw new DomainError('amount_not_positive', 'amount: This value should be greater than 0.');
      if (amount > s.settledAmount - s.refundedAmount) {
        throw new DomainError('amount_exceeds_available', 'amount: The amount exceeds the amount that can still be refunded.');
      }
      return [
        {
          type: 'CreditVoidRequested',
          data: { paymentId: s.paymentId, operationId, kind: 'refund', amount, amountText, requestedAt: now },
        },
      ];
    }
    case 'RecordCreditVoid': {
      const op = s.pendingOperation;
      if (!op || op.operationId !== command.data.operationId || (op.kind !== 'refund' && op.kind !== 'reversal')) {
        throw new DomainError('unexpected_outcome', `Operation ${command.data.operationId} is not pending`);
      }
      const base = { paymentId: s.paymentId, operationId: op.operationId, amount: op.amount };
      const now = command.data.now;
      return followUp(command.data.result, {
        success: () =>
          op.kind === 'refund'
            ? [{ type: 'RefundSucceeded', data: { ...base, refundedAt: now } }]
            : [{ type: 'AuthorizationReversed', data: { ...base, reversedAt: now } }],
        declined: (reason) =>
          op.kind === 'refund'
            ? [{ type: 'RefundDeclined', data: { ...base, reason, declinedAt: now } }]
            : [{ type: 'ReversalDeclined', data: { ...base, reason, declinedAt: now } }],
      });
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/**
 * A soft decline of the first answer goes on to the next connector of the payment's route, when
 * there is one: the payer is not involved yet. After a payer action it is final (the payer
 * authenticated with this connector), and a hard decline is final everywhere.
 */
function cascadeOf(s: ExistingPayment, result: AuthorizationResult, now: string): PaymentEvent[] | null {
  if (result.outcome !== 'declined' || !result.soft || !s.route || !s.connector) return null;
  const next = s.route[s.route.indexOf(s.connector) + 1];
  if (next === undefined || s.route.indexOf(s.connector) < 0) return null;
  return [
    {
      type: 'PaymentCascaded',
      data: {
        paymentId: s.paymentId,
        fromConnector: s.connector,
        toConnector: next,
        reason: result.reason,
        code: declineCodeOf('authorization', result.reason),
        ...referenceOf(result),
        cascadedAt: now,
      },
    },
  ];
}

function referenceOf(result: { reference?: string }): { reference?: string } {
  return result.reference !== undefined ? { reference: result.reference } : {};
}

function authorizationEvents(
  s: ExistingPayment,
  result: AuthorizationResult,
  now: string,
  stage: DeclineStage,
  returned: PayerReturnData = {},
): PaymentEvent[] {
  const paymentId = s.paymentId;
  switch (result.outcome) {
    case 'success': {
      const rrn = {
        ...(result.rrn !== undefined ? { rrn: result.rrn } : {}),
        ...(result.cardOnFileId !== undefined ? { cardOnFileId: result.cardOnFileId } : {}),
        ...(result.conversion ? { conversion: result.conversion } : {}),
        ...(result.extendedData ? { extendedData: result.extendedData } : {}),
      };
      // The descriptor the merchant sent with the payment is the one it is known by.
      const descriptor = requestedDescriptor(s) ?? result.descriptor;
      // A sale settles at once, so its ARN comes with it; an authorization's comes with its capture.
      return s.kind !== 'authorization'
        ? [
            {
              type: 'PaymentSettled',
              data: {
                paymentId,
                amount: s.amount,
                descriptor,
                ...referenceOf(result),
                ...rrn,
                ...(result.arn !== undefined ? { arn: result.arn } : {}),
                ...returned,
                settledAt: now,
              },
            },
          ]
        : [
            {
              type: 'PaymentAuthorized',
              data: { paymentId, amount: s.amount, descriptor, ...referenceOf(result), ...rrn, ...returned, authorizedAt: now },
            },
          ];
    }
    case 'declined':
      return [
        {
          type: 'PaymentDeclined',
          data: { paymentId, reason: result.reason, code: declineCodeOf(stage, result.reason), stage, ...referenceOf(result), ...returned, declinedAt: now },
        },
      ];
    case 'challenge':
      return [
        {
          type: 'ThreeDSChallengeRequired',
          data: { paymentId, acsUrl: result.acsUrl, params: result.params, ...referenceOf(result), requiredAt: now },
        },
      ];
    case 'redirect':
      return [
        {
          type: 'PayerRedirectRequired',
          data: {
            paymentId,
            redirectUrl: result.redirectUrl,
            ...(result.display ? { display: result.display } : {}),
            ...(result.params && Object.keys(result.params).length > 0 ? { params: { ...result.params } } : {}),
            ...(result.expiresAt ? { expiresAt: result.expiresAt } : {}),
            ...(result.instructions && Object.keys(result.instructions).length > 0 ? { instructions: { ...result.instructions } } : {}),
            ...(result.collects ? { collects: result.collects } : {}),
            ...referenceOf(result),
            requiredAt: now,
          },
        },
      ];
    case 'pending':
      return [
        {
          type: 'PaymentPending',
          data: {
            paymentId,
            ...(result.instructions && Object.keys(result.instructions).length > 0 ? { instructions: { ...result.instructions } } : {}),
            ...(result.expiresAt ? { expiresAt: result.expiresAt } : {}),
            ...referenceOf(result),
            pendingAt: now,
          },
        },
      ];
    case 'unknown':
      // Already unknown: nothing new to record; the reconciler will ask again.
      if (s.phase === 'outcome_unknown') return [];
      return [{ type: 'PaymentOutcomeUnknown', data: { paymentId, detail: result.detail, ...returned, at: now } }];
    default: {
      const unreachable: never = result;
      return unreachable;
    }
  }
}

/**
 * A provider's notification. It decides a payment still waiting for its provider (or for its
 * answer); on a payment already decided, and for anything that is not a decision (still pending,
 * a page, no answer), it records nothing: duplicates and late or out-of-order notifications are
 * harmless. It never sends the payer anywhere and never cascades (the payer took part).
 */
function notificationEvents(s: ExistingPayment, result: AuthorizationResult, now: string): PaymentEvent[] {
  switch (s.phase) {
    case 'initiated':
    case 'outcome_unknown':
      // Accepted or decided before the connector's own answer was recorded.
      if (result.outcome !== 'success' && result.outcome !== 'declined' && result.outcome !== 'pending') return [];
      return authorizationEvents(s, result, now, 'authorization');
    case 'awaiting_redirect':
    case 'awaiting_provider':
      if (result.outcome !== 'success' && result.outcome !== 'declined') return [];
      return authorizationEvents(s, result, now, s.phase === 'awaiting_redirect' ? 'redirect' : 'authorization');
    default:
      // Decided (or the payer is with the ACS, whose return decides): nothing changes.
      return [];
  }
}

/** A payout made with a method (CREDIT2VIRTUAL) is never captured, voided or refunded (docs/payouts.md#how-it-works: 204005). */
function refuseOnPayout(s: ExistingPayment): void {
  if (s.kind === 'credit' && s.method) throw new DomainError('action_not_supported', 'Payment action not supported');
}

/** Some acquirers take refunds in their own portal only: the gateway cannot ask them. */
function refuseRefundOutsideApi(refundsViaApi: boolean | undefined): void {
  if (refundsViaApi === false) {
    throw new DomainError('refund_via_api_not_supported', 'Refund via API is not supported. Only from the connector admin portal.');
  }
}

function refuseWhileBusy(s: ExistingPayment): void {
  if (s.pendingOperation) {
    throw new DomainError(
      'operation_in_progress',
      `Another operation (${s.pendingOperation.kind}) is still in progress for this payment`,
    );
  }
}

function expectPending(s: ExistingPayment, operationId: string, kind: 'capture' | 'void') {
  const op = s.pendingOperation;
  if (!op || op.operationId !== operationId || op.kind !== kind) {
    throw new DomainError('unexpected_outcome', `Operation ${operationId} is not pending`);
  }
  return op;
}

function followUp(
  result: FollowUpResult,
  on: { success(): PaymentEvent[]; declined(reason: string): PaymentEvent[] },
): PaymentEvent[] {
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
