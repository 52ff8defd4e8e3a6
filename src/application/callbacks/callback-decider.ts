import { decideCallback } from '../../domain/callback-delivery/decide';
import type { CallbackCommand } from '../../domain/callback-delivery/commands';
import { CALLBACK_EVENT_SCHEMA_VERSION, type CallbackEvent } from '../../domain/callback-delivery/events';
import { evolveDelivery, initialDeliveryState, type DeliveryState } from '../../domain/callback-delivery/state';
import type { Decider } from '../command-handler';

export const callbackDecider: Decider<CallbackCommand, DeliveryState, CallbackEvent> = {
  decide: decideCallback,
  evolve: evolveDelivery,
  initialState: initialDeliveryState,
  schemaVersion: CALLBACK_EVENT_SCHEMA_VERSION,
};
