/**
 * An operator's "send it again": recorded on the delivery's stream (who asked, when), which starts a
 * fresh round of the retry schedule; then sent at once by the notifier at hand.
 */
import { callbackStreamId } from '../../domain/callback-delivery/events';
import type { DeliveryState } from '../../domain/callback-delivery/state';
import { handleCommand, loadState } from '../command-handler';
import type { Clock } from '../ports/clock';
import type { EventStore } from '../ports/event-store';
import { callbackDecider } from '../../domain/callback-delivery/decider';
import type { Notifier } from './notifier';

export async function requestRedelivery(
  deps: { store: EventStore; clock: Clock; notifier: Pick<Notifier, 'sendIfDue'> },
  deliveryId: string,
  requestedBy: string,
): Promise<DeliveryState> {
  await handleCommand(
    deps.store,
    callbackStreamId(deliveryId),
    callbackDecider,
    { type: 'RequestRedelivery', data: { now: deps.clock.now().toISOString(), requestedBy } },
    { correlationId: `redelivery-${deliveryId}` },
  );
  await deps.notifier.sendIfDue(deliveryId);
  return (await loadState(deps.store, callbackStreamId(deliveryId), callbackDecider)).state;
}
