import { expect } from 'chai';
import { sql, type Kysely, type Transaction } from 'kysely';
import { allProjectionNames, allProjections } from '../../projections';
import type { Projection } from '../../projections/projector';
import { ReadModels } from '../../projections/read-models';
import { RebuildError, rebuildProjections, verifyProjections } from '../../projections/rebuild';
import type { ReadModelDatabase } from '../../projections/database-schema';
import { seedPayments } from '../../src/cli/seed/seed-payments';
import { seededRandom } from '../../src/cli/seed/seeded-random';
import type { EventStore, SubscribeOptions } from '../../src/application/ports/event-store';
import { foldPayment } from '../../src/domain/payment/state';
import type { PaymentEvent } from '../../src/domain/payment/events';
import {
  appendMerchantEvents,
  appendPaymentEvents,
  creditVoid,
  merchantRegistered,
  paymentInitiated,
  paymentSettled,
} from '../support/payment-fixtures';
import { forEachDialect } from './harness';

const MERCHANTS = ['merchant-1', 'merchant-2'];

/** A store with realistic histories of both merchants: some 1,500 events. */
async function givenSeededStore(store: EventStore, events = 1_500): Promise<void> {
  for (const merchantId of MERCHANTS) await appendMerchantEvents(store, merchantId, [merchantRegistered({ merchantId })]);
  await seedPayments({ store, events, merchantIds: MERCHANTS, random: seededRandom(7), eventsPerAppend: 300 });
}

/** The store as a projector sees it, with deliveries to subscribers held back on demand. */
function gatedStore(inner: EventStore): { store: EventStore; hold(): void; release(): void } {
  let gate: Promise<void> = Promise.resolve();
  let open = (): void => undefined;
  const store = new Proxy(inner, {
    get(target, property) {
      if (property === 'subscribeToAll') {
        return (options: SubscribeOptions) =>
          target.subscribeToAll({
            ...options,
            onEvent: async (event) => {
              await gate;
              await options.onEvent(event);
            },
          });
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store,
    hold: () => void (gate = new Promise<void>((resolve) => (open = resolve))),
    release: () => open(),
  };
}

function settledSale(): PaymentEvent[] {
  const initiated = paymentInitiated();
  return [initiated, paymentSettled(initiated.data.paymentId, { amount: initiated.data.amount })];
}

/** Every row of every projection table, in a stable order. */
async function dump(db: Kysely<ReadModelDatabase>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of allProjections().flatMap((p) => p.tables)) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const rows = await (db as Kysely<any>).selectFrom(table).selectAll().execute();
    out[table] = rows.map((row) => JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).sort();
  }
  return out;
}

forEachDialect('projections rebuild and verify', (fixture) => {
  describe('rebuild', function () {
    this.timeout(60_000);

    it('replays every projection from position zero into fresh tables: the same rows the live projector wrote, checkpoints at the head', async function () {
      const { store, db, projector, readModels } = fixture();
      await givenSeededStore(store);
      await projector.catchUp();
      const before = await dump(db);
      expect(before.payments.length).to.be.greaterThan(300);

      const result = await rebuildProjections({ store, db, pageSize: 250 });

      const head = await store.headPosition();
      expect(result.position).to.equal(head);
      expect(result.events).to.equal(store.size);
      expect(result.projections).to.deep.equal(allProjections().map((p) => p.name));
      expect(await dump(db)).to.deep.equal(before);
      const checkpoints = await readModels.checkpoints();
      for (const name of result.projections) expect(checkpoints[name]).to.equal(head);
    });

    it('throws away rows the events do not produce and restores rows someone edited by hand', async function () {
      const { store, db, projector, readModels } = fixture();
      await givenSeededStore(store);
      await projector.catchUp();
      const before = await dump(db);
      const victim = (await db.selectFrom('payments').select(['payment_id', 'status']).where('status', '=', 'SETTLED').executeTakeFirstOrThrow()).payment_id;
      await db.updateTable('payments').set({ status: 'DECLINED', amount: 1 }).where('payment_id', '=', victim).execute();
      await db.deleteFrom('transactions').where('operation_id', '=', victim).execute();
      const stray = await db.selectFrom('payments').selectAll().where('payment_id', '=', victim).executeTakeFirstOrThrow();
      await db.insertInto('payments').values({ ...stray, payment_id: 'not-a-payment', initiated_position: 1n }).execute();

      await rebuildProjections({ store, db, names: ['payments', 'transactions'] });

      expect(await dump(db)).to.deep.equal(before);
      expect(await readModels.paymentById('not-a-payment')).to.equal(undefined);
      expect(await readModels.paymentById(victim)).to.include({ status: 'SETTLED' });
      expect(await verifyProjections({ store, db })).to.deep.equal([]);
    });

    it('leaves the projections it was not asked to rebuild alone', async function () {
      const { store, db, projector } = fixture();
      await givenSeededStore(store);
      await projector.catchUp();
      const operation = await db.selectFrom('transactions').select('operation_id').executeTakeFirstOrThrow();
      await db.updateTable('transactions').set({ reason: 'edited by hand' }).where('operation_id', '=', operation.operation_id).execute();

      await rebuildProjections({ store, db, names: ['payments'] });

      const differences = await verifyProjections({ store, db });
      expect(differences.map((d) => [d.table, d.kind])).to.deep.equal([['transactions', 'changed']]);
    });

    it('includes events appended while it replays and while it waits to swap', async function () {
      const { store, db, readModels } = fixture();
      await givenSeededStore(store);
      const duringReplay = settledSale();
      const beforeSwap = settledSale();
      let appended = false;

      await rebuildProjections({
        store,
        db,
        pageSize: 200,
        onProgress: async () => {
          if (appended) return;
          appended = true;
          await appendPaymentEvents(store, duringReplay[0].data.paymentId, duringReplay);
        },
        hooks: { beforeSwap: async () => void (await appendPaymentEvents(store, beforeSwap[0].data.paymentId, beforeSwap)) },
      });

      for (const sale of [duringReplay, beforeSwap]) {
        expect(await readModels.paymentById(sale[0].data.paymentId)).to.include({ status: 'SETTLED' });
      }
      const head = await store.headPosition();
      expect(Object.values(await readModels.checkpoints())).to.deep.equal(allProjections().map(() => head));
      expect(await verifyProjections({ store, db })).to.deep.equal([]);
    });

    it('swaps in one transaction: until it commits, readers on another connection see every old row', async function () {
      const { store, db, projector } = fixture();
      await givenSeededStore(store);
      await projector.catchUp();
      const reader = await fixture().openDb();
      const api = new ReadModels({ db: reader, store });
      const pristine = await dump(reader);
      // Damage the live tables, so old and rebuilt rows can be told apart.
      const damaged = await reader.selectFrom('payments').select('payment_id').limit(5).execute();
      await reader.deleteFrom('payments').where('payment_id', 'in', damaged.map((r) => r.payment_id)).execute();
      await reader.updateTable('transactions').set({ reason: 'damaged' }).execute();
      const old = await dump(reader);
      const sample = await reader.selectFrom('payments').select(['payment_id', 'status']).limit(20).execute();
      const seenInside: Array<Record<string, string[]>> = [];

      await rebuildProjections({
        store,
        db,
        hooks: {
          beforeCommit: async () => {
            seenInside.push(await dump(reader));
            for (const row of sample) expect(await api.paymentById(row.payment_id)).to.include({ status: row.status });
          },
        },
      });

      expect(seenInside).to.deep.equal([old]);
      expect(await dump(reader)).to.deep.equal(pristine);
    });

    for (const where of ['in this process', 'in another process'] as const) {
      it(`lets a live projector ${where} that is behind the swap carry on from the rebuilt checkpoint, without losing or doubling an event`, async function () {
        const { db } = fixture();
        const gated = gatedStore(fixture().store);
        const store = gated.store;
        await givenSeededStore(store);
        const errors: unknown[] = [];
        const liveDb = where === 'in this process' ? db : await fixture().openDb();
        const live = fixture().newProjector({ store, db: liveDb, onError: (error) => errors.push(error) });
        const api = new ReadModels({ db: liveDb, store, projector: live });
        await live.start();
        expect(await api.catchUpToHead(10_000)).to.equal(true);
        const refunded = (await db.selectFrom('payments').select('payment_id').where('phase', '=', 'settled').where('refunded_amount', '=', 0).executeTakeFirstOrThrow()).payment_id;

        // The live projector does not get to see the refund before the rebuild has swapped it in.
        gated.hold();
        await appendPaymentEvents(store, refunded, creditVoid(refunded, 'refund', 7));
        let pages = 0;
        await rebuildProjections({
          store,
          db,
          pageSize: 300,
          onProgress: async () => {
            if (++pages > 3) return;
            const sale = settledSale();
            await appendPaymentEvents(store, sale[0].data.paymentId, sale);
          },
        });
        gated.release();
        const after = settledSale();
        await appendPaymentEvents(store, after[0].data.paymentId, after);

        expect(await api.catchUpToHead(10_000, allProjectionNames())).to.equal(true);
        const head = await store.headPosition();
        expect(Object.values(await api.checkpoints())).to.deep.equal(allProjections().map(() => head));
        expect(await api.paymentById(refunded)).to.include({ refundedAmount: 7 });
        expect((await api.paymentById(after[0].data.paymentId))!.state).to.deep.equal(foldPayment(after));
        expect(await verifyProjections({ store, db })).to.deep.equal([]);
        // It took the moved checkpoint over at once, instead of failing and resubscribing.
        expect(errors).to.deep.equal([]);
      });
    }

    it('rebuilds a projection of its own tables too: unique indexes, conflict targets and aggregates across streams', async function () {
      const { store, db, dialect } = fixture();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const anyDb = db as Kysely<any>;
      await anyDb.schema
        .createTable('test_event_counts')
        .addColumn('type', 'text', (c) => c.primaryKey())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .execute();
      await anyDb.schema.createIndex('test_event_counts_code_idx').unique().on('test_event_counts').column('code').execute();
      const counting: Projection = {
        name: 'event_counts',
        tables: ['test_event_counts'] as unknown as Projection['tables'],
        async apply(trx, events) {
          for (const event of events) {
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            await (trx as Transaction<any>)
              .insertInto('test_event_counts')
              .values({ type: event.type, code: event.type.toLowerCase(), total: 1 })
              .onConflict((oc) => oc.column('code').doUpdateSet({ total: sql`test_event_counts.total + 1` }))
              .execute();
          }
        },
      };
      await givenSeededStore(store, 400);
      await fixture().newProjector({ projections: [counting] }).catchUp();
      await anyDb.updateTable('test_event_counts').set({ total: 0 }).execute();

      await rebuildProjections({ store, db, projections: [counting], pageSize: 50 });

      const rows = await anyDb.selectFrom('test_event_counts').select(['type', 'total']).execute();
      const expected = new Map<string, number>();
      for (const event of await store.readAll()) expected.set(event.type, (expected.get(event.type) ?? 0) + 1);
      expect(Object.fromEntries(rows.map((r) => [r.type, Number(r.total)]))).to.deep.equal(Object.fromEntries(expected));
      expect(await verifyProjections({ store, db, projections: [counting] })).to.deep.equal([]);
      // The live table still has its own unique index, under its own name.
      const indexes =
        dialect === 'sqlite'
          ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'test_event_counts'`.execute(db)).rows
          : (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'test_event_counts' and schemaname = current_schema()`.execute(db)).rows;
      expect(indexes.map((r) => r.name)).to.include('test_event_counts_code_idx');
    });

    it('refuses an unknown projection name, naming the ones there are', async function () {
      const { store, db } = fixture();
      let error: unknown;
      try {
        await rebuildProjections({ store, db, names: ['payments', 'nonsense'] });
      } catch (caught) {
        error = caught;
      }
      expect(error).to.be.instanceOf(RebuildError);
      expect(String(error)).to.contain('nonsense').and.to.contain('transactions');
    });

    it('refuses a projection that does not declare its tables', async function () {
      const { store, db } = fixture();
      const anonymous = { name: 'anonymous', tables: [], apply: async () => undefined } as unknown as Projection;
      let error: unknown;
      try {
        await rebuildProjections({ store, db, projections: [anonymous] });
      } catch (caught) {
        error = caught;
      }
      expect(String(error)).to.contain('does not declare the tables it owns');
    });
  });

  describe('verify', function () {
    this.timeout(60_000);

    it('finds nothing when the live tables are what the events produce', async function () {
      const { store, db, projector } = fixture();
      await givenSeededStore(store);
      await projector.catchUp();

      expect(await verifyProjections({ store, db })).to.deep.equal([]);
    });

    it('catches a hand-edited column, naming table, key, column, live and rebuilt values', async function () {
      const { store, db, projector } = fixture();
      await givenSeededStore(store);
      await projector.catchUp();
      const row = await db.selectFrom('payments').select(['payment_id', 'status']).where('status', '=', 'SETTLED').executeTakeFirstOrThrow();
      await db.updateTable('payments').set({ status: 'REFUND' }).where('payment_id', '=', row.payment_id).execute();

      const differences = await verifyProjections({ store, db });

      expect(differences).to.deep.equal([
        { projection: 'payments', table: 'payments', key: { payment_id: row.payment_id }, kind: 'changed', column: 'status', live: 'REFUND', rebuilt: 'SETTLED' },
      ]);
    });

    it('catches a row missing from a live table and a row the events never produced', async function () {
      const { store, db, projector } = fixture();
      await givenSeededStore(store);
      await projector.catchUp();
      const gone = await db.selectFrom('transactions').selectAll().executeTakeFirstOrThrow();
      await db.deleteFrom('transactions').where('operation_id', '=', gone.operation_id).execute();
      await db.insertInto('merchants').values({ ...(await db.selectFrom('merchants').selectAll().executeTakeFirstOrThrow()), merchant_id: 'ghost', client_key: 'ck-ghost', merchant_key: 'mk-ghost' }).execute();

      const differences = await verifyProjections({ store, db });

      expect(differences).to.deep.equal([
        { projection: 'transactions', table: 'transactions', key: { operation_id: gone.operation_id }, kind: 'missing' },
        { projection: 'merchants', table: 'merchants', key: { merchant_id: 'ghost' }, kind: 'extra' },
      ]);
    });

    it('compares each projection as of its own checkpoint, while a projector keeps writing', async function () {
      const { store, db } = fixture();
      await givenSeededStore(store);
      const live = fixture().newProjector({ db: await fixture().openDb(), batchSize: 50 });
      await live.start();
      let pages = 0;

      const differences = await verifyProjections({
        store,
        db,
        pageSize: 100,
        onProgress: async () => {
          if (++pages > 3) return;
          const sale = settledSale();
          await appendPaymentEvents(store, sale[0].data.paymentId, sale);
        },
      });

      expect(differences).to.deep.equal([]);
      await live.stop();
    });

    it('leaves no scratch tables behind', async function () {
      const { store, db, projector, dialect } = fixture();
      await givenSeededStore(store, 200);
      await projector.catchUp();
      const scratchNames = async (): Promise<string[]> => {
        const query =
          dialect === 'sqlite'
            ? sql<{ name: string }>`select name from pragma_database_list where name like 'projection_scratch%'`
            : sql<{ name: string }>`select nspname as name from pg_namespace where nspname like current_schema() || '%projection_scratch%'`;
        return (await query.execute(db)).rows.map((r) => r.name).sort();
      };
      const before = await scratchNames();

      await verifyProjections({ store, db });
      await rebuildProjections({ store, db });

      expect(await scratchNames()).to.deep.equal(before);
    });
  });
});
