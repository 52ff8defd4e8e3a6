import type { DeliveryState } from '../../domain/callback-delivery/state';

/** A delivery's state as this notifier last appended it, so a send needs no read. */
export interface KnownDelivery {
  state: DeliveryState;
  version: bigint;
}

/** A delivery whose attempt is claimed, to be sent by the notifier that claimed it. */
export interface Claimed {
  deliveryId: string;
  known: KnownDelivery;
}
