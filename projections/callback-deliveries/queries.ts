/** Queries on the callback-deliveries read model, for notifiers (due work) and operators (listings). */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { CallbackBacklog, CallbackOverview, FailingUrl } from '../../src/application/ports/callback-overview';
import type {
  CallbackAttemptRecord,
  CallbackDeliveriesReadModel,
  CallbackDeliveryRecord,
  ListDeliveriesFilter,
  TimedOutAttempt,
} from '../../src/application/ports/callback-deliveries-read-model';
import { DELIVERY_FACT_COLUMNS, type CallbackDeliveriesTables } from './tables';

const DELIVERY_COLUMNS = ['delivery_id', ...DELIVERY_FACT_COLUMNS] as const;

/** A position as the driver returns it: a number from SQLite, a string from PostgreSQL's bigint. */
type PositionValue = number | string | bigint;

const compareDesc = (a: bigint, b: bigint) => (a > b ? -1 : a < b ? 1 : 0);

type DeliveryConditions = ExpressionBuilder<CallbackDeliveriesTables, 'callback_deliveries'>;

/**
 * A failing delivery: failed for good, or waiting to be tried again after an attempt. The operator's
 * listing reads the two apart (each through the status indexes); the failing URLs ask for either.
 */
const FAILING = {
  failed: (eb: DeliveryConditions) => eb('status', '=', 'failed'),
  retrying: (eb: DeliveryConditions) => eb.and([eb('status', '=', 'pending'), eb('attempts', '>', 0)]),
};

const failing = (eb: DeliveryConditions) => eb.or([FAILING.failed(eb), FAILING.retrying(eb)]);

function withoutPosition<T extends { position: PositionValue }>(row: T): Omit<T, 'position'> {
  const { position: _position, ...record } = row;
  return record;
}

export class CallbackQueries implements CallbackDeliveriesReadModel, CallbackOverview {
  constructor(private readonly db: Kysely<CallbackDeliveriesTables>) {}

  /** Deliveries whose next attempt is due, and attempts whose sender vanished (lease run out). */
  async due(nowIso: string, limit: number): Promise<Array<{ delivery_id: string; url: string }>> {
    return this.db
      .selectFrom('callback_deliveries')
      .select(['delivery_id', 'url'])
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', nowIso)]),
          eb.and([eb('status', '=', 'in_flight'), eb('lease_until', '<=', nowIso)]),
        ]),
      )
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
  }

  /** The URL's timed-out attempts that ended since `sinceIso`. */
  async timeoutsSince(url: string, sinceIso: string): Promise<TimedOutAttempt[]> {
    const rows = await this.db
      .selectFrom('callback_attempts')
      .select(['delivery_id', 'attempt', 'finished_at'])
      .where('url', '=', url)
      .where('timed_out', '=', 1)
      .where('finished_at', '>=', sinceIso)
      .execute();
    return rows.flatMap((r) => (r.finished_at ? [{ delivery_id: r.delivery_id, attempt: r.attempt, finished_at: r.finished_at }] : []));
  }

  async list(filter: ListDeliveriesFilter = {}): Promise<CallbackDeliveryRecord[]> {
    const limit = Math.min(Math.max(filter.limit ?? 100, 1), 1000);
    const newest = (status?: keyof typeof FAILING) => {
      let query = this.db.selectFrom('callback_deliveries').select([...DELIVERY_COLUMNS, sql<PositionValue>`scheduled_position`.as('position')]);
      if (filter.paymentId) query = query.where('payment_id', '=', filter.paymentId);
      if (filter.merchantId) query = query.where('merchant_id', '=', filter.merchantId);
      if (status) query = query.where(FAILING[status]);
      return query.orderBy('scheduled_position', 'desc').limit(limit).execute();
    };
    if (!filter.failed) return (await newest()).map(withoutPosition);
    // Failing means failed for good or waiting to be tried again. Asked as one condition, SQLite
    // gathers every failing row through the status index and sorts them all (a receiver down for a
    // day leaves millions); asked a status at a time, each is read newest first through
    // (status, scheduled_position), or (merchant_id, status, scheduled_position) for one merchant,
    // and stops at the limit.
    const [failed, retrying] = [await newest('failed'), await newest('retrying')];
    return [...failed, ...retrying]
      .sort((a, b) => compareDesc(BigInt(a.position), BigInt(b.position)))
      .slice(0, limit)
      .map(withoutPosition);
  }

  async byId(deliveryId: string): Promise<{ delivery: CallbackDeliveryRecord; body: string; attempts: CallbackAttemptRecord[] } | undefined> {
    const row = await this.db
      .selectFrom('callback_deliveries')
      .select([...DELIVERY_COLUMNS, 'state'])
      .where('delivery_id', '=', deliveryId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { state, ...delivery } = row;
    const attempts = await this.db
      .selectFrom('callback_attempts')
      .selectAll()
      .where('delivery_id', '=', deliveryId)
      .orderBy('attempt')
      .execute();
    return { delivery, body: (JSON.parse(state) as { body: string }).body, attempts };
  }

  /** Deliveries not finished yet, counted by where they stand. */
  async backlog(nowIso: string): Promise<CallbackBacklog> {
    const rows = await this.db
      .selectFrom('callback_deliveries')
      .select([
        'status',
        sql<number>`count(*)`.as('total'),
        sql<number>`sum(case when next_attempt_at <= ${nowIso} then 1 else 0 end)`.as('due'),
      ])
      .where('status', 'in', ['pending', 'in_flight'])
      .groupBy('status')
      .execute();
    const backlog: CallbackBacklog = { pending: 0, due: 0, inFlight: 0 };
    for (const row of rows) {
      if (row.status === 'pending') {
        backlog.pending = Number(row.total);
        backlog.due = Number(row.due ?? 0);
      } else backlog.inFlight = Number(row.total);
    }
    return backlog;
  }

  /** URLs with deliveries that failed for good or are being retried, the most recently failing first. */
  async failingUrls(limit: number): Promise<FailingUrl[]> {
    const urls = await this.db
      .selectFrom('callback_deliveries')
      .select([
        'url',
        sql<number>`sum(case when status = 'failed' then 1 else 0 end)`.as('failed'),
        sql<number>`sum(case when status = 'pending' then 1 else 0 end)`.as('retrying'),
        sql<string>`max(updated_at)`.as('last_failure_at'),
      ])
      .where(failing)
      .groupBy('url')
      .orderBy(sql`max(updated_at)`, 'desc')
      .limit(Math.min(Math.max(limit, 1), 500))
      .execute();
    const result: FailingUrl[] = [];
    for (const row of urls) {
      const latest = await this.db
        .selectFrom('callback_deliveries')
        .select(['merchant_id', 'last_error', 'last_status_code'])
        .where('url', '=', row.url)
        .where(failing)
        .orderBy('updated_at', 'desc')
        .limit(20)
        .execute();
      result.push({
        url: row.url,
        merchantIds: [...new Set(latest.map((r) => r.merchant_id))],
        failed: Number(row.failed),
        retrying: Number(row.retrying),
        lastError: latest[0]?.last_error ?? null,
        lastStatusCode: latest[0]?.last_status_code ?? null,
        lastFailureAt: row.last_failure_at,
      });
    }
    return result;
  }
}
