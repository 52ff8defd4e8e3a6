import { decideMerchant, type MerchantCommand } from '../domain/merchant/decide';
import { MERCHANT_EVENT_SCHEMA_VERSION, type MerchantEvent } from '../domain/merchant/events';
import { evolveMerchant, initialMerchantState, type MerchantState } from '../domain/merchant/state';
import type { PaymentCommand } from '../domain/payment/commands';
import { decidePayment } from '../domain/payment/decide';
import { paymentEventSchemaVersion, type PaymentEvent } from '../domain/payment/events';
import { evolvePayment, initialPaymentState, type PaymentState } from '../domain/payment/state';
import type { Decider } from './command-handler';
import { decideSchedule, type ScheduleCommand } from '../domain/schedule/schedule-decide';
import { SCHEDULE_EVENT_SCHEMA_VERSION, type ScheduleEvent } from '../domain/schedule/schedule-events';
import { evolveSchedule, initialScheduleState, type ScheduleState } from '../domain/schedule/schedule-state';
import { evolveChain, initialChainState } from '../domain/schedule/chain-decide';

export const paymentDecider: Decider<PaymentCommand, PaymentState, PaymentEvent> = {
  decide: decidePayment,
  evolve: evolvePayment,
  initialState: initialPaymentState,
  schemaVersion: paymentEventSchemaVersion,
};

export const merchantDecider: Decider<MerchantCommand, MerchantState, MerchantEvent> = {
  decide: decideMerchant,
  evolve: evolveMerchant,
  initialState: initialMerchantState,
  schemaVersion: MERCHANT_EVENT_SCHEMA_VERSION,
};

export const scheduleDecider: Decider<ScheduleCommand, ScheduleState, ScheduleEvent> = {
  decide: decideSchedule,
  evolve: evolveSchedule,
  initialState: initialScheduleState,
  schemaVersion: SCHEDULE_EVENT_SCHEMA_VERSION,
};

/** The chain's steps are decided by the scheduler (nextChainStep); this folds and versions them. */
export const chainFold = { evolve: evolveChain, initialState: initialChainState };
