/** Queries on the callback-deliveries read model, for notifiers (due work) and operators (listings). */
import type { Kysely } from 'kysely';
import type {
  CallbackAttemptRecord,
  CallbackDeliveriesReadModel,
  CallbackDeliveryRecord,
  ListDeliveriesFilter,
} from '../../src/application/ports/callback-deliveries-read-model';
import { DELIVERY_FACT_COLUMNS, type CallbackDeliveriesTables } from './tables';

const DELIVERY_COLUMNS = ['delivery_id', ...DELIVERY_FACT_COLUMNS] as const;

export class CallbackQueries implements CallbackDeliveriesReadModel {
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

  /** End times (ISO) of the URL's timed-out attempts since `sinceIso`. */
  async timeoutsSince(url: string, sinceIso: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('callback_attempts')
      .select('finished_at')
      .where('url', '=', url)
      .where('timed_out', '=', 1)
      .where('finished_at', '>=', sinceIso)
      .execute();
    return rows.map((r) => r.finished_at!).filter(Boolean);
  }

  async list(filter: ListDeliveriesFilter = {}): Promise<CallbackDeliveryRecord[]> {
    let query = this.db.selectFrom('callback_deliveries').select(DELIVERY_COLUMNS);
    if (filter.paymentId) query = query.where('payment_id', '=', filter.paymentId);
    if (filter.merchantId) query = query.where('merchant_id', '=', filter.merchantId);
    if (filter.failed) {
      query = query.where((eb) =>
        eb.or([eb('status', '=', 'failed'), eb.and([eb('status', '=', 'pending'), eb('attempts', '>', 0)])]),
      );
    }
    return query
      .orderBy('scheduled_position', 'desc')
      .limit(Math.min(Math.max(filter.limit ?? 100, 1), 1000))
      .execute();
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
}
