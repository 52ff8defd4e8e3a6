import type { Decider } from '../decider';
import type { CallbackCommand } from './commands';
import { decideCallback } from './decide';
import { CALLBACK_EVENT_SCHEMA_VERSION, type CallbackEvent } from './events';
import { evolveDelivery, initialDeliveryState, type DeliveryState } from './state';

/** One merchant callback's stream (`callback-<delivery id>`). */
export const callbackDecider: Decider<CallbackCommand, DeliveryState, CallbackEvent> = {
  decide: decideCallback,
  evolve: evolveDelivery,
  initialState: initialDeliveryState,
  schemaVersion: CALLBACK_EVENT_SCHEMA_VERSION,
};
