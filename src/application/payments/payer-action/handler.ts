/**
 * The payer came back from a connector's page (ACS, provider redirect) to the gateway's return
 * address. What the browser sent goes to the payment's connector exactly as it arrived: the
 * connector verifies it and decides. Or the payer never came back in time.
 */
import { DomainError } from '../../../domain/errors';
import type { BrowserAttributes } from '../../../domain/payment/events';
import { connectorOf, type ExistingPayment } from '../../../domain/payment/state';
import type { PayerReturnOutcome } from '../../ports/connector';
import { callConnector, statusRequestOf, toAuthorizationResult } from '../connector-calls';
import type { PaymentDeps } from '../deps';
import { existing } from '../existing';
import { paymentStream } from '../payment-stream';

export interface RawPayerReturn {
  query: Record<string, string>;
  body: Record<string, string>;
}

/**
 * `browser` is what the payer's browser told the page; it is recorded with the decision, as is the
 * ACS's 3-D Secure result. A return that does not verify decides nothing and reveals nothing
 * (`payer_return_invalid`); a verified return of a payment already decided (a repeated submit) is
 * answered with the payment as it stands. A return after the gateway gave up on the payer never
 * reaches the connector: it is answered with the decline.
 */
export async function completePayerAction(
  deps: PaymentDeps,
  paymentId: string,
  raw: RawPayerReturn,
  correlationId: string,
  browser?: BrowserAttributes,
): Promise<ExistingPayment> {
  const stream = paymentStream(deps.store);
  const { state, version } = await stream.load(paymentId);
  if (!state.exists) throw new DomainError('payment_not_found', 'Payment not found.');
  const awaiting = state.phase === 'awaiting_3ds' || state.phase === 'awaiting_redirect';
  const kind = state.phase === 'awaiting_3ds' ? '3ds' : state.phase === 'awaiting_redirect' ? 'redirect' : state.lastPayerAction;
  if (!kind) throw new DomainError('payer_return_invalid', 'This verification answer is not valid.');
  // The gateway gave up on the payer and told the merchant so: finishing the transaction at the
  // connector now could take money for a payment that stays declined. The late payer sees the decline.
  if (state.phase === 'declined' && state.declineCode === 'payer_timeout') return state;
  const connector = deps.connectors.get(connectorOf(state));
  let answer: PayerReturnOutcome;
  try {
    answer = connector
      ? await connector.completePayerAction({
          paymentId,
          reference: state.acquirerReference ?? '',
          kind,
          raw,
          amount: state.amount,
          currency: state.currency,
          saleKind: state.kind,
          ...(state.card ? { cardBrand: state.card.brand } : {}),
          ...(state.method ? { method: state.method.brand } : {}),
        })
      : { verified: true, outcome: { outcome: 'unknown', detail: `connector ${connectorOf(state)} is not configured` } };
  } catch (error) {
    deps.logger.error('connector call failed', { requestId: correlationId, connector: connectorOf(state), error: String((error as Error)?.message ?? error) });
    answer = { verified: true, outcome: { outcome: 'unknown', detail: 'connector call failed' } };
  }
  if (!answer.verified) throw new DomainError('payer_return_invalid', 'This verification answer is not valid.');
  if (!awaiting) return state;
  const outcome = answer.outcome;
  const threeDS = outcome.outcome === 'success' || outcome.outcome === 'declined' ? outcome.threeDS : undefined;
  try {
    const result = await stream.handle(
      paymentId,
      {
        type: 'CompletePayerAction',
        data: {
          result: toAuthorizationResult(outcome),
          now: deps.clock.now().toISOString(),
          ...(threeDS ? { threeDS } : {}),
          ...(browser ? { browser } : {}),
        },
      },
      { correlationId, causationId: correlationId },
      { state, version },
    );
    return existing(result.state);
  } catch (error) {
    // A double submit from the payer's browser: the first one decided; show its result.
    if (error instanceof DomainError && error.code === 'unexpected_outcome') return existing((await stream.load(paymentId)).state);
    throw error;
  }
}

export async function expirePayerAction(deps: PaymentDeps, paymentId: string, reason: string): Promise<void> {
  // The connector may have decided while the gateway did not hear: a provider's notification lost
  // or not arrived yet, a provider that gave up on a pending transaction without saying so, or a
  // payer's return whose answer was lost before it was recorded. A payout it paid, or a sale it
  // took, must not be declined here. It is asked first.
  if ((await askConnector(deps, paymentId)) !== 'undecided') return;
  try {
    await paymentStream(deps.store).handle(paymentId, { type: 'ExpirePayerAction', data: { now: deps.clock.now().toISOString(), reason } });
  } catch (error) {
    // The payer came back just before the timeout: nothing to expire.
    if (error instanceof DomainError && error.code === 'unexpected_outcome') return;
    throw error;
  }
}

/**
 * What the connector says of a payment still waiting: `decided` (recorded now), `waits` (a payout
 * its provider has not decided: only the provider's answer ends a payout, since declining it on a
 * timeout would release its hold while the provider may still pay it out; it is asked again at the
 * next pass) or `undecided` (the timeout's decline applies).
 */
async function askConnector(deps: PaymentDeps, paymentId: string): Promise<'decided' | 'waits' | 'undecided'> {
  const stream = paymentStream(deps.store);
  const { state, version } = await stream.load(paymentId);
  if (!state.exists) return 'undecided';
  const payerAction = state.phase === 'awaiting_3ds' || state.phase === 'awaiting_redirect';
  if (state.phase !== 'awaiting_provider' && !payerAction) return 'undecided';
  const correlationId = `expiry-${paymentId}`;
  const outcome = await callConnector(deps, connectorOf(state), correlationId, (c) => c.status(statusRequestOf(state, deps.baseUrl)));
  const now = deps.clock.now().toISOString();
  const metadata = { correlationId, causationId: correlationId };
  if (payerAction) {
    // Only money taken changes the end: anything else ends in the timeout's decline, with its reason.
    if (outcome.outcome !== 'success') return 'undecided';
    await stream.handle(paymentId, { type: 'CompletePayerAction', data: { result: toAuthorizationResult(outcome), now } }, metadata, { state, version });
    return 'decided';
  }
  if (outcome.outcome !== 'success' && outcome.outcome !== 'declined') return state.kind === 'credit' ? 'waits' : 'undecided';
  await stream.handle(paymentId, { type: 'RecordProviderNotification', data: { result: toAuthorizationResult(outcome), now } }, metadata, { state, version });
  return 'decided';
}
