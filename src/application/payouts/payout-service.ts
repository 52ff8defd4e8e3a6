/**
 * Payouts in one handle for the API, the CLI and the workers: a payout (CREDIT2VIRTUAL), an
 * operator's top-up of a merchant's payout balance, the balance itself, and the feeder that keeps
 * the balances in step with the payments (balance-feeder.ts).
 */
import { randomUUID } from 'node:crypto';
import type { PayoutBalanceToppedUp } from '../../domain/payouts/balance-events';
import { BalanceFeeder, type FeederCheckpoint } from './balance-feeder';
import { PayoutBalances, type PayoutBalanceView } from './payout-balances';
import { startPayout, type PayoutDeps, type PayoutRequest, type PayoutResult } from './start-payout';

export type { PayoutBalanceView, PayoutRequest, PayoutResult };

export interface PayoutServiceDeps extends Omit<PayoutDeps, 'balances'> {
  /** Where the balance feeder keeps its place in the log. */
  feederCheckpoint: FeederCheckpoint;
}

export interface TopUp {
  merchantId: string;
  currency: string;
  amount: number;
  note?: string;
  correlationId: string;
}

export class PayoutService {
  readonly balances: PayoutBalances;
  readonly feeder: BalanceFeeder;

  constructor(private readonly deps: PayoutServiceDeps) {
    this.balances = new PayoutBalances(deps.store);
    this.feeder = new BalanceFeeder({ store: deps.store, balances: this.balances, checkpoint: deps.feederCheckpoint, clock: deps.clock });
  }

  payout(request: PayoutRequest): Promise<PayoutResult> {
    return startPayout({ ...this.deps, balances: this.balances }, request);
  }

  /** Money an operator adds to a merchant's payout balance; answers the top-up and the balance after it. */
  async topUp(request: TopUp): Promise<{ topUp: PayoutBalanceToppedUp['data']; balance: PayoutBalanceView }> {
    const { merchantId, currency } = request;
    const result = await this.balances.handle(
      merchantId,
      currency,
      {
        type: 'TopUpPayoutBalance',
        data: { merchantId, currency, topUpId: randomUUID(), amount: request.amount, ...(request.note ? { note: request.note } : {}), now: this.deps.clock.now().toISOString() },
      },
      { correlationId: request.correlationId, causationId: request.correlationId },
    );
    const recorded = result.newEvents[0] as PayoutBalanceToppedUp;
    return { topUp: recorded.data, balance: await this.balances.balance(merchantId, currency) };
  }

  /** The merchant's payout balance in `currency`, from its stream (the source of truth). */
  balance(merchantId: string, currency: string): Promise<PayoutBalanceView> {
    return this.balances.balance(merchantId, currency);
  }

  /**
   * Records what the log holds beyond the feeder's checkpoint on the balances (what each feeder
   * pass does); ends early, after the page in hand, once `signal` is aborted.
   */
  feedBalances(signal?: AbortSignal): Promise<number> {
    return this.feeder.runOnce(signal);
  }
}
