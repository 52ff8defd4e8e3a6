export { PayoutService, type PayoutServiceDeps, type TopUp } from './payout-service';
export type { PayoutBalanceView } from './payout-balances';
export type { PayoutRequest, PayoutResult } from './start-payout';
export type { FeederCheckpoint } from './balance-feeder';
