import type { Decider } from '../decider';
import { decideMerchant, type MerchantCommand } from './decide';
import { MERCHANT_EVENT_SCHEMA_VERSION, type MerchantEvent } from './events';
import { evolveMerchant, initialMerchantState, type MerchantState } from './state';

/** The merchant stream (`merchant-<id>`, merchantStreamId). */
export const merchantDecider: Decider<MerchantCommand, MerchantState, MerchantEvent> = {
  decide: decideMerchant,
  evolve: evolveMerchant,
  initialState: initialMerchantState,
  schemaVersion: MERCHANT_EVENT_SCHEMA_VERSION,
};
