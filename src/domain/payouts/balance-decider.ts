import type { Decider } from '../decider';
import { decidePayoutBalance, type PayoutBalanceCommand } from './balance-decide';
import { PAYOUT_BALANCE_EVENT_SCHEMA_VERSION, type PayoutBalanceEvent } from './balance-events';
import { evolvePayoutBalance, initialPayoutBalance, type PayoutBalanceState } from './balance-state';

/** The payout balance stream (`payout-balance-<merchant>-<currency>`, payoutBalanceStreamId): one per merchant and currency. */
export const payoutBalanceDecider: Decider<PayoutBalanceCommand, PayoutBalanceState, PayoutBalanceEvent> = {
  decide: decidePayoutBalance,
  evolve: evolvePayoutBalance,
  initialState: initialPayoutBalance,
  schemaVersion: PAYOUT_BALANCE_EVENT_SCHEMA_VERSION,
};
