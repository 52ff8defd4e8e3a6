/** Reading schedules and chains: the scheduler's and the test clock's due dates, and a schedule's chains. */
import type { Kysely } from 'kysely';
import type { DueChain, DueChainsReadModel } from '../../src/application/ports/due-chains-read-model';
import type { ScheduleTables } from './tables';

export class ScheduleQueries implements DueChainsReadModel {
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
}
