/** Reading schedules and chains: the scheduler's and the test clock's due dates, and a schedule's chains. */
import { sql, type Kysely } from 'kysely';
import type { ChainListing, ChainSummary } from '../../src/application/ports/chain-listing';
import type { DueChain, DueChainsReadModel } from '../../src/application/ports/due-chains-read-model';
import type { ScheduleTables } from './tables';

export class ScheduleQueries implements DueChainsReadModel, ChainListing {
  constructor(private readonly db: Kysely<ScheduleTables>) {}

  /** Chains of one schedule that a payment of this chain started (its initial payment or a later charge). */
  async chainIdsOf(merchantId: string, scheduleId: string, initPaymentId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('scheduled_chains')
      .select('chain_id')
      .where('merchant_id', '=', merchantId)
      .where('schedule_id', '=', scheduleId)
      .where((eb) => eb.or([eb('init_payment_id', '=', initPaymentId), eb('chain_id', '=', initPaymentId)]))
      .execute();
    return rows.map((r) => r.chain_id);
  }

  async dueChains(date: string, limit: number): Promise<DueChain[]> {
    const rows = await this.db
      .selectFrom('scheduled_chains')
      .select(['chain_id', 'next_due_date'])
      .where('status', '=', 'open')
      .where('next_due_date', '<=', date)
      .orderBy('next_due_date', 'asc')
      .orderBy('chain_id', 'asc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ chainId: r.chain_id, nextDueDate: r.next_due_date! }));
  }

  async earliestDueDateAfter(date: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('scheduled_chains')
      .select((eb) => eb.fn.min('next_due_date').as('earliest'))
      .where('status', '=', 'open')
      .where('next_due_date', '>', date)
      .executeTakeFirst();
    return (row?.earliest as string | null | undefined) ?? null;
  }

  /** Chains for operators, newest first. */
  async listChains(filter: { merchantId?: string; status?: 'open' | 'ended'; limit: number }): Promise<ChainSummary[]> {
    let query = this.db
      .selectFrom('scheduled_chains')
      .select(['chain_id', 'merchant_id', 'schedule_id', 'status', 'next_due_date', 'payments_started', 'payments_skipped', 'end_reason', 'started_at']);
    if (filter.merchantId !== undefined) query = query.where('merchant_id', '=', filter.merchantId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const rows = await query.orderBy('started_at', 'desc').orderBy('chain_id').limit(Math.min(Math.max(filter.limit, 1), 500)).execute();
    return rows.map((r) => ({
      chainId: r.chain_id,
      merchantId: r.merchant_id,
      scheduleId: r.schedule_id,
      status: r.status,
      nextDueDate: r.next_due_date,
      paymentsStarted: Number(r.payments_started),
      paymentsSkipped: Number(r.payments_skipped),
      endReason: r.end_reason,
      startedAt: r.started_at,
    }));
  }

  async countChainsDue(date: string): Promise<number> {
    const row = await this.db
      .selectFrom('scheduled_chains')
      .select(sql<number>`count(*)`.as('due'))
      .where('status', '=', 'open')
      .where('next_due_date', '<=', date)
      .executeTakeFirst();
    return Number(row?.due ?? 0);
  }
}
