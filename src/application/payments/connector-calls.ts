/**
 * Calling a payment's connector, and reading its answer as the decider's data. A connector that
 * throws, or that this deployment no longer has, gives an `unknown` outcome: recorded, and
 * reconciled later by a status lookup, never blindly retried.
 */
import type { AuthorizationResult, FollowUpResult } from '../../domain/payment/commands';
import type { ExistingPayment } from '../../domain/payment/state';
import type { Connector, ConnectorOutcome, FollowUpOutcome, StatusRequest } from '../ports/connector';
import type { PaymentDeps } from './deps';

/**
 * The payer's way back to the gateway from any connector's page (ACS, provider redirect), built in
 * this one place. Named for 3-D Secure, where it began; every connector gets the same address.
 */
export function payerReturnUrl(baseUrl: string, paymentId: string): string {
  return `${baseUrl}/payments/${encodeURIComponent(paymentId)}/3ds-return`;
}

/**
 * Runs `call` on the payment's connector; a connector this deployment lacks, or a call that throws,
 * is an `unknown` outcome (the one shape both first calls and follow-ups take for it). The
 * operator's line names the work's correlation id as its `requestId`: the request's id, or the
 * gateway's own for work it started (docs/operations.md#logs).
 */
async function guardedCall<T>(
  deps: Pick<PaymentDeps, 'connectors' | 'logger'>,
  name: string,
  correlationId: string,
  call: (connector: Connector) => Promise<T>,
): Promise<T | { outcome: 'unknown'; detail: string }> {
  const connector = deps.connectors.get(name);
  if (!connector) {
    deps.logger.error('payment of a connector this deployment does not have', { requestId: correlationId, connector: name });
    return { outcome: 'unknown', detail: `connector ${name} is not configured` };
  }
  try {
    return await call(connector);
  } catch (error) {
    deps.logger.error('connector call failed', { requestId: correlationId, connector: name, error: String((error as Error)?.message ?? error) });
    return { outcome: 'unknown', detail: 'connector call failed' };
  }
}

/** What a status lookup tells the connector of a payment: what was recorded of its request, never the card number. */
export function statusRequestOf(state: ExistingPayment, baseUrl: string): StatusRequest {
  return {
    paymentId: state.paymentId,
    reference: state.acquirerReference ?? null,
    kind: state.kind,
    amount: state.amount,
    currency: state.currency,
    ...(state.card
      ? { card: { expMonth: state.card.expMonth, expYear: state.card.expYear, brand: state.card.brand, ...(state.card.panType ? { panType: state.card.panType } : {}) } }
      : {}),
    ...(state.method
      ? { method: { method: state.method.brand, parameters: state.method.parameters, ...(state.method.identifier !== undefined ? { identifier: state.method.identifier } : {}) } }
      : {}),
    ...(state.payer.email ? { payerEmail: state.payer.email } : {}),
    returnUrl: payerReturnUrl(baseUrl, state.paymentId),
  };
}

export function callConnector(
  deps: Pick<PaymentDeps, 'connectors' | 'logger'>,
  name: string,
  correlationId: string,
  call: (connector: Connector) => Promise<ConnectorOutcome>,
): Promise<ConnectorOutcome> {
  return guardedCall(deps, name, correlationId, call);
}

export function callFollowUp(
  deps: Pick<PaymentDeps, 'connectors' | 'logger'>,
  name: string,
  correlationId: string,
  call: (connector: Connector) => Promise<FollowUpOutcome>,
): Promise<FollowUpResult> {
  return guardedCall(deps, name, correlationId, call);
}

function withQuery(url: string, params: Record<string, string>): string {
  const entries = Object.entries(params);
  if (entries.length === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams(entries)}`;
}

export function toAuthorizationResult(outcome: ConnectorOutcome): AuthorizationResult {
  switch (outcome.outcome) {
    case 'success':
      return {
        outcome: 'success',
        reference: outcome.reference,
        descriptor: outcome.descriptor,
        ...(outcome.rrn !== undefined ? { rrn: outcome.rrn } : {}),
        ...(outcome.arn !== undefined ? { arn: outcome.arn } : {}),
        ...(outcome.cardOnFileId !== undefined ? { cardOnFileId: outcome.cardOnFileId } : {}),
        ...(outcome.conversion ? { conversion: outcome.conversion } : {}),
        ...(outcome.extendedData ? { extendedData: outcome.extendedData } : {}),
      };
    case 'declined':
      return {
        outcome: 'declined',
        reason: outcome.reason,
        ...(outcome.reference !== undefined ? { reference: outcome.reference } : {}),
        ...(outcome.soft ? { soft: true } : {}),
      };
    case 'unknown':
      return { outcome: 'unknown', detail: outcome.detail };
    case 'pending':
      // Accepted: the provider decides later and says so by a notification (or a status lookup).
      return {
        outcome: 'pending',
        reference: outcome.reference,
        ...(outcome.instructions ? { instructions: { ...outcome.instructions } } : {}),
        ...(outcome.expiresAt ? { expiresAt: outcome.expiresAt } : {}),
      };
    case 'redirect': {
      const { redirect, reference } = outcome;
      if (redirect.kind === '3ds') return { outcome: 'challenge', reference, acsUrl: redirect.url, params: { ...redirect.params } };
      // A provider page is a link: its fields travel in the query. A QR code is handed to the merchant too.
      return {
        outcome: 'redirect',
        reference,
        redirectUrl: withQuery(redirect.url, redirect.params),
        ...(redirect.display === 'qr' ? { display: 'qr' as const } : {}),
        ...(redirect.qrCode !== undefined ? { params: { qr_code: redirect.qrCode } } : {}),
        ...(redirect.expiresAt ? { expiresAt: redirect.expiresAt } : {}),
        ...(redirect.instructions && Object.keys(redirect.instructions).length > 0 ? { instructions: { ...redirect.instructions } } : {}),
        ...(redirect.collects ? { collects: redirect.collects } : {}),
      };
    }
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}
