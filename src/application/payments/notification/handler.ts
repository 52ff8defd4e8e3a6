/**
 * A provider telling the gateway about a transaction later (a QR payment executed, a bank transfer
 * rejected). The notification goes to the connector exactly as it arrived, for the connector to
 * authenticate; a verified one is recorded on its payment if that payment is the connector's, and
 * the decider decides what it changes: nothing, for a duplicate or a payment already decided.
 */
import { DomainError } from '../../../domain/errors';
import { connectorOf } from '../../../domain/payment/state';
import type { InboundNotification } from '../../ports/connector';
import type { NotificationResult, RawNotification } from '../../ports/notification-intake';
import { toAuthorizationResult } from '../connector-calls';
import type { PaymentDeps } from '../deps';
import { existing } from '../existing';
import { paymentStream } from '../payment-stream';

export type { NotificationResult, RawNotification };

export async function acceptNotification(deps: PaymentDeps, connectorName: string, raw: RawNotification, correlationId: string): Promise<NotificationResult> {
  const connector = deps.connectors.get(connectorName);
  if (!connector) return { kind: 'not_verified' };
  let told: InboundNotification;
  try {
    told = await connector.parseNotification(raw);
  } catch (error) {
    deps.logger.error('connector could not read a notification', { requestId: correlationId, connector: connectorName, error: String((error as Error)?.message ?? error) });
    return { kind: 'not_verified' };
  }
  if (!told.verified) return { kind: 'not_verified' };
  const stream = paymentStream(deps.store);
  const loaded = await stream.load(told.paymentId);
  // A connector speaks only for its own payments.
  if (!loaded.state.exists || connectorOf(loaded.state) !== connectorName) return { kind: 'ignored' };
  try {
    const result = await stream.handle(
      told.paymentId,
      { type: 'RecordProviderNotification', data: { result: toAuthorizationResult(told.outcome), now: deps.clock.now().toISOString() } },
      { correlationId, causationId: correlationId },
      loaded,
    );
    return { kind: 'recorded', payment: existing(result.state), changed: result.newEvents.length > 0 };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'payment_not_found') return { kind: 'ignored' };
    throw error;
  }
}
