/** The Checkout session stream's command handler, bound once: use cases speak of session ids and commands. */
import type { CheckoutSessionCommand } from '../../domain/checkout/session-decide';
import { sessionDecider } from '../../domain/checkout/session-decider';
import { checkoutSessionStreamId, type CheckoutSessionEvent } from '../../domain/checkout/session-events';
import type { SessionState } from '../../domain/checkout/session-state';
import { commandHandler, toNewEvent, type StreamHandler } from '../command-handler';
import { NO_STREAM, exactly, type EventMetadata, type EventStore, type StreamWrite } from '../ports/event-store';

export type SessionStream = StreamHandler<CheckoutSessionCommand, SessionState, CheckoutSessionEvent>;

export const sessionStream = (store: EventStore): SessionStream => commandHandler(store, checkoutSessionStreamId, sessionDecider);

/**
 * The session's new events as one write of an append over several streams (with the order id's
 * reservation, or with an attempt's payment), expecting the version they were decided at (null: a new session).
 */
export function sessionWrite(
  sessions: SessionStream,
  sessionId: string,
  events: readonly CheckoutSessionEvent[],
  metadata: EventMetadata,
  version: bigint | null,
): StreamWrite {
  return {
    streamId: sessions.streamId(sessionId),
    events: events.map((e) => toNewEvent(e, sessions.decider.schemaVersion, metadata)),
    expected: version === null ? NO_STREAM : exactly(version),
  };
}
