import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { merchantsProjection } from '../../projections/merchants/module';
import { PAYMENTS_PROJECTION, paymentsProjection } from '../../projections/payments/module';
import { READ_YOUR_WRITES, ReadModels } from '../../projections/read-models';
import { LEDGER_PROJECTION } from '../../projections/ledger/module';
import type { Projection } from '../../projections/projector';
import { allProjections } from '../../projections';
import { TRANSACTIONS_PROJECTION, transactionsProjection } from '../../projections/transactions/module';
import type { PaymentEvent } from '../../src/domain/payment/events';
import { foldPayment } from '../../src/domain/payment/state';
import { CommitSignal } from '../../src/adapters/event-store/commit-signal';
import { PollingSubscription } from '../../src/adapters/event-store/shared';
import type { EventStore } from '../../src/application/ports/event-store';
import { MemoryEventStore } from '../support/memory-event-store';
import {
  appendMerchantEvents,
  appendPaymentEvents,
  creditVoid,
  merchantRegistered,
  paymentDeclined,
  paymentInitiated,
  paymentSettled,
} from '../support/payment-fixtures';
import { countRows, forEachDialect, instrumented } from './harness';

/** Every projection the gateway runs, each checkpointed at `position`. */
const everyProjectionAt = (position: bigint | null) =>
  Object.fromEntries(allProjections().map((projection) => [projection.name, position]));

/** A settled sale: two events. */
function settledSale(overrides: Parameters<typeof paymentInitiated>[0] = {}): PaymentEvent[] {
  const initiated = paymentInitiated(overrides);
  return [initiated, paymentSettled(initiated.data.paymentId, { amount: initiated.data.amount })];
}

const idOf = (events: PaymentEvent[]): string => events[0].data.paymentId;

/** `inner`, whose batches wait (inside their transaction) until `release`. */
function held(inner: Projection): Projection & { release(): void } {
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    name: inner.name,
    tables: inner.tables,
    async apply(...args: Parameters<Projection['apply']>): Promise<void> {
      await gate;
      await inner.apply(...args);
    },
    release: () => release(),
  };
}

/** `store`, whose subscriptions find new events only at their poll every `pollIntervalMs`, or when hurried. */
function pollingOnly(store: MemoryEventStore, pollIntervalMs: number): EventStore {
  return Object.assign(Object.create(store) as MemoryEventStore, {
    subscribeToAll: (options: Parameters<EventStore['subscribeToAll']>[0]) =>
      new PollingSubscription(
        { readAfter: (after, maxCount) => store.readAll({ after, maxCount }), onWake: () => () => undefined, pollIntervalMs },
        options,
        () => undefined,
      ),
  });
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

forEachDialect('projector', (fixture) => {
  describe('checkpoints', function () {
    it('stores each checkpoint with its rows: a projection failing mid-batch leaves neither rows nor checkpoint advanced', async function () {
      const { store, db } = fixture();
      const sales = [settledSale(), settledSale(), settledSale()];
      for (const sale of sales) await appendPaymentEvents(store, idOf(sale), sale);
      // Batches of two events: one sale each. The payments projection, applied last, writes its
      // rows for the second sale, then throws.
      const failing = instrumented(paymentsProjection(), { failOnCall: (call) => call === 2 });
      const projector = fixture().newProjector({
        projections: [transactionsProjection(), merchantsProjection(), failing],
        batchSize: 2,
      });

      const error = await rejectionOf(projector.catchUp());

      expect(String(error)).to.contain('payments failed on purpose');
      expect(await countRows(db, 'payments')).to.equal(1);
      expect(await fixture().readModels.paymentById(idOf(sales[0]))).to.not.equal(undefined);
      expect(await fixture().readModels.paymentById(idOf(sales[1]))).to.equal(undefined);
      const checkpoints = await fixture().readModels.checkpoints();
      expect(checkpoints.payments).to.equal(1n);
      expect(projector.checkpoints().payments).to.equal(1n);
      // The healthy projections committed the batch that failed for the other.
      expect(checkpoints.transactions).to.equal(3n);
      expect(await countRows(db, 'transactions')).to.equal(2);
    });

    it('resumes from the checkpoints after a restart without applying anything twice', async function () {
      const { store, db } = fixture();
      const first = [settledSale(), settledSale(), settledSale()];
      for (const sale of first) await appendPaymentEvents(store, idOf(sale), sale);
      const before = fixture().newProjector();
      await before.catchUp();
      await before.stop();
      const checkpoint = (await fixture().readModels.checkpoints()).payments;
      expect(checkpoint).to.equal(5n);

      // Refunding half of a payment twice over would show up as a doubled refunded amount.
      const refunded = idOf(first[0]);
      await appendPaymentEvents(store, refunded, creditVoid(refunded, 'refund', 500));
      const later = settledSale();
      await appendPaymentEvents(store, idOf(later), later);

      const payments = instrumented(paymentsProjection());
      const transactions = instrumented(transactionsProjection());
      const after = fixture().newProjector({ projections: [payments, transactions, merchantsProjection()] });
      await after.catchUp();

      expect(payments.applied).to.deep.equal([6n, 7n, 8n, 9n]);
      expect(transactions.applied).to.deep.equal([6n, 7n, 8n, 9n]);
      expect(await countRows(db, 'payments')).to.equal(4);
      expect(await countRows(db, 'transactions')).to.equal(5);
      expect(await fixture().readModels.paymentById(refunded)).to.include({ status: 'SETTLED', refundedAmount: 500 });
      expect(after.position()).to.equal(9n);
    });

    it('never writes a batch twice when another projector moved the checkpoint meanwhile, and carries on after it', async function () {
      const { store, db } = fixture();
      const stale = fixture().newProjector();
      await stale.catchUp(); // loads the (empty) checkpoints, then falls behind
      const sale = settledSale();
      await appendPaymentEvents(store, idOf(sale), sale);
      await fixture().newProjector().catchUp();

      // The stale projector's write is refused (compare-and-set on the checkpoint); its catch-up
      // takes the newer checkpoints over instead of failing, as a CLI next to a server needs.
      await stale.catchUp();

      expect(stale.position()).to.equal(await store.headPosition());
      expect(await countRows(db, 'payments')).to.equal(1);
      expect(await countRows(db, 'transactions')).to.equal(1);
      // Rows keyed by id would hide a batch written twice; the ledger's running totals would not.
      const postings = await db.selectFrom('ledger_postings').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
      const totals = await db.selectFrom('ledger_daily_totals').select((eb) => eb.fn.sum<string | number>('line_count').as('n')).executeTakeFirstOrThrow();
      expect(Number(postings.n)).to.be.greaterThan(0);
      expect(Number(totals.n)).to.equal(Number(postings.n));
      const refund = creditVoid(idOf(sale), 'refund', 400);
      await appendPaymentEvents(store, idOf(sale), refund);
      await stale.catchUp();
      expect(stale.position()).to.equal(await store.headPosition());
      expect(await fixture().readModels.paymentById(idOf(sale))).to.include({ refundedAmount: 400 });
      expect(await countRows(db, 'transactions')).to.equal(2);
    });

    it('keeps positions beyond 2^53 exact', async function () {
      const base = 2n ** 62n + 1n;
      const store = fixture().useStore({ firstPosition: base });
      const older = settledSale({ orderId: 'o-1' });
      const newer = settledSale({ orderId: 'o-1' });
      for (const sale of [older, newer]) await appendPaymentEvents(store, idOf(sale), sale);

      await fixture().projector.catchUp();

      const head = base + 3n;
      expect(await store.headPosition()).to.equal(head);
      expect(await fixture().readModels.checkpoints()).to.deep.equal(everyProjectionAt(head));
      // Same initiation instant: only the exact positions tell which one is newer.
      const byOrder = await fixture().readModels.paymentsByOrder('merchant-1', 'o-1', 5);
      expect(byOrder.map((p) => p.paymentId)).to.deep.equal([idOf(newer), idOf(older)]);
      const restarted = fixture().newProjector();
      await restarted.catchUp();
      expect(restarted.position()).to.equal(head);
    });
  });

  describe('following the store', function () {
    it('projects live appends and reports through waitFor and catchUpToHead', async function () {
      const { store, projector, readModels } = fixture();
      expect(await readModels.catchUpToHead(100)).to.equal(true); // empty store
      await projector.start();

      const sale = settledSale();
      await appendPaymentEvents(store, idOf(sale), sale);
      expect(await readModels.catchUpToHead(3000)).to.equal(true);
      expect(await readModels.paymentById(idOf(sale))).to.include({ status: 'SETTLED' });
      expect(projector.position()).to.equal(1n);

      const declined = paymentInitiated();
      await appendPaymentEvents(store, declined.data.paymentId, [declined, paymentDeclined(declined.data.paymentId)]);
      expect(await projector.waitFor(3n, 3000)).to.equal(true);
      expect(await readModels.paymentById(declined.data.paymentId)).to.include({ status: 'DECLINED' });
      expect(await projector.waitFor(99n, 50)).to.equal(false);
    });

    it('gathers live events for a moment under load, but never keeps a reader of its own write waiting', async function () {
      const { store } = fixture();
      const projector = fixture().newProjector({ gatherMs: 400 });
      await projector.start();
      try {
        const first = settledSale();
        await appendPaymentEvents(store, idOf(first), first);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(projector.position(), 'still gathering').to.equal(null);

        const started = Date.now();
        expect(await projector.waitFor((await store.headPosition())!, 3000)).to.equal(true);
        expect(Date.now() - started, 'a waiter cuts the gathering short').to.be.below(250);
        expect(await fixture().readModels.paymentById(idOf(first))).to.include({ status: 'SETTLED' });
      } finally {
        await projector.stop();
      }
    });

    it('writes at once what arrives while a reader waits, even when a gathering began before the reader came', async function () {
      const { store } = fixture();
      const projector = fixture().newProjector({ gatherMs: 60_000 });
      await projector.start();
      try {
        // The first half of a sale arrives alone and starts a long gathering.
        const initiated = paymentInitiated();
        const id = initiated.data.paymentId;
        await appendPaymentEvents(store, id, [initiated]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        // A reader of an earlier write takes what was gathered so far; the gathering's timer runs on.
        expect(await projector.waitFor((await store.headPosition())!, 3000)).to.equal(true);
        await new Promise((resolve) => setTimeout(resolve, 100));

        // The second half arrives while a reader of it already waits.
        const waiting = store.headPosition().then((head) => projector.waitFor(head! + 1n, 3000));
        await appendPaymentEvents(store, id, [paymentSettled(id, { amount: initiated.data.amount })]);

        expect(await waiting, 'not held back by the gathering').to.equal(true);
        expect(await fixture().readModels.paymentById(id)).to.include({ status: 'SETTLED' });
      } finally {
        await projector.stop();
      }
    });

    it('has its subscription look for what a reader waits for at once, not at its next poll', async function () {
      const { store } = fixture();
      // A store that finds new events only by polling, once a minute, as a reader on another thread
      // with a long settling time would.
      const projector = fixture().newProjector({ store: pollingOnly(store, 60_000) });
      await projector.start();
      try {
        const sale = settledSale();
        await appendPaymentEvents(store, idOf(sale), sale);

        expect(await projector.waitFor((await store.headPosition())!, 2000), 'read at once, not after a minute').to.equal(true);
        expect(await fixture().readModels.paymentById(idOf(sale))).to.include({ status: 'SETTLED' });
      } finally {
        await projector.stop();
      }
    });

    it('lets a reader on another thread wait on the batches it applies instead of polling the checkpoints', async function () {
      const { store } = fixture();
      const applied = CommitSignal.create();
      // Gathering a while, so that the reader's first look finds nothing and it has to wait.
      const projector = fixture().newProjector({ gatherMs: 300, onApplied: () => applied.committed() });
      const api = new ReadModels({ db: await fixture().openDb(), store, pollIntervalMs: 60_000 });
      const hurried: bigint[] = [];
      api.followProjectorElsewhere({ hurry: (position) => void hurried.push(position), applied });
      await projector.start();

      const sale = settledSale();
      await appendPaymentEvents(store, idOf(sale), sale);
      const started = Date.now();
      expect(await api.catchUpToHead(5000)).to.equal(true);

      expect(Date.now() - started, 'woken by the batch, not by the one-minute poll').to.be.below(2000);
      expect(hurried).to.deep.equal([(await store.headPosition())!]);
      expect(await api.paymentById(idOf(sale))).to.include({ status: 'SETTLED' });
    });

    it('tells a reader waiting for the projections it reads once they have the batch, before the others have theirs', async function () {
      const { store } = fixture();
      const ledger = held(allProjections().find((p) => p.name === LEDGER_PROJECTION)!);
      let told = 0;
      // The ledger comes first in the list; the projections readers wait for still go first.
      const projector = fixture().newProjector({
        projections: [ledger, paymentsProjection(), transactionsProjection()],
        readersWaitFor: [PAYMENTS_PROJECTION, TRANSACTIONS_PROJECTION],
        onApplied: () => void told++,
      });
      await projector.start();
      try {
        const sale = settledSale();
        await appendPaymentEvents(store, idOf(sale), sale);
        const head = (await store.headPosition())!;

        expect(await projector.waitFor(head, 3000, [PAYMENTS_PROJECTION, TRANSACTIONS_PROJECTION])).to.equal(true);
        expect(told, 'told while the ledger waits for its turn').to.equal(1);
        expect(await projector.waitFor(head, 50), 'the ledger is still held').to.equal(false);
        ledger.release();
        expect(await projector.waitFor(head, 3000)).to.equal(true);
        expect(told).to.equal(2);
      } finally {
        ledger.release();
        await projector.stop();
      }
    });

    it('lets a reader on another thread wait for the projections it names: a ledger lookup waits for the ledger', async function () {
      const { store } = fixture();
      const applied = CommitSignal.create();
      const ledger = held(allProjections().find((p) => p.name === LEDGER_PROJECTION)!);
      const projector = fixture().newProjector({
        projections: allProjections().map((p) => (p.name === LEDGER_PROJECTION ? ledger : p)),
        readersWaitFor: READ_YOUR_WRITES,
        onApplied: () => applied.committed(),
      });
      const api = new ReadModels({ db: await fixture().openDb(), store, pollIntervalMs: 60_000 });
      api.followProjectorElsewhere({ hurry: () => undefined, applied });
      await projector.start();
      try {
        const sale = settledSale();
        await appendPaymentEvents(store, idOf(sale), sale);

        expect(await api.catchUpToHead(3000), 'a payment request reads what it wrote').to.equal(true);
        expect(await api.paymentById(idOf(sale))).to.include({ status: 'SETTLED' });
        expect(await api.catchUpToHead(100, [LEDGER_PROJECTION]), 'the ledger is still held').to.equal(false);
        ledger.release();
        expect(await api.catchUpToHead(3000, [LEDGER_PROJECTION])).to.equal(true);
        expect(await api.ledger.balances(), 'the sale posted').to.not.be.empty;
      } finally {
        ledger.release();
        await projector.stop();
      }
    });

    it('lets a second process read its own writes by polling the checkpoints', async function () {
      const { store, projector } = fixture();
      const otherDb = await fixture().openDb();
      const api = new ReadModels({ db: otherDb, store });
      await projector.start();

      const sale = settledSale();
      await appendPaymentEvents(store, idOf(sale), sale);
      expect(await api.catchUpToHead(3000)).to.equal(true);
      expect(await api.paymentById(idOf(sale))).to.include({ status: 'SETTLED' });

      await projector.stop();
      const unseen = settledSale();
      await appendPaymentEvents(store, idOf(unseen), unseen);
      const started = Date.now();
      expect(await api.catchUpToHead(150)).to.equal(false);
      expect(Date.now() - started).to.be.at.least(140);
    });

    it('returns false from catchUpToHead when no projector is running', async function () {
      const sale = settledSale();
      await appendPaymentEvents(fixture().store, idOf(sale), sale);
      expect(await fixture().readModels.catchUpToHead(100)).to.equal(false);
    });

    it('retries a failed batch from the checkpoint and then catches up', async function () {
      const { store } = fixture();
      const errors: unknown[] = [];
      const flaky = instrumented(paymentsProjection(), { failOnCall: (call) => call === 1 });
      const projector = fixture().newProjector({
        projections: [flaky, transactionsProjection(), merchantsProjection()],
        onError: (error) => errors.push(error),
      });
      const readModels = new ReadModels({ db: fixture().db, store, projector });
      await projector.start();

      const sales = [settledSale(), settledSale()];
      for (const sale of sales) await appendPaymentEvents(store, idOf(sale), sale);

      expect(await readModels.catchUpToHead(5000)).to.equal(true);
      expect(errors).to.have.length(1);
      for (const sale of sales) expect(await readModels.paymentById(idOf(sale))).to.include({ status: 'SETTLED' });
      expect(await countRows(fixture().db, 'transactions')).to.equal(2);
    });

    it('ignores event types it does not know, while still moving the checkpoints past them', async function () {
      const { store, projector, readModels, db } = fixture();
      await store.append(`order-${randomUUID()}`, [{ id: randomUUID(), type: 'OrderCreated', schemaVersion: 1, data: { orderId: 'o' } }], {
        kind: 'any',
      });
      const sale = settledSale();
      await appendPaymentEvents(store, idOf(sale), sale);
      await store.append(
        `invoice-${randomUUID()}`,
        [
          { id: randomUUID(), type: 'InvoiceMailed', schemaVersion: 1, data: { paymentId: idOf(sale) } },
          { id: randomUUID(), type: 'SomethingNobodyKnows', schemaVersion: 7, data: { merchantId: 'merchant-1' } },
        ],
        { kind: 'any' },
      );

      await projector.catchUp();

      expect(await countRows(db, 'payments')).to.equal(1);
      expect(await countRows(db, 'transactions')).to.equal(1);
      expect(await countRows(db, 'merchants')).to.equal(0);
      expect(await readModels.checkpoints()).to.deep.equal(everyProjectionAt(4n));
      expect(await readModels.catchUpToHead(100)).to.equal(true);
    });
  });

  describe('volume', function () {
    this.timeout(60_000);

    /** 2,000 payments: settled sales, every 10th declined, every 7th settled one half refunded. */
    async function givenTwoThousandPayments(store: MemoryEventStore): Promise<Map<string, PaymentEvent[]>> {
      await appendMerchantEvents(store, 'merchant-1', [merchantRegistered()]);
      const streams = new Map<string, PaymentEvent[]>();
      for (let i = 0; i < 2000; i++) {
        const initiated = paymentInitiated({ orderId: `order-${i}`, amount: 100 + i, amountText: ((100 + i) / 100).toFixed(2) });
        const id = initiated.data.paymentId;
        const events: PaymentEvent[] =
          i % 10 === 0 ? [initiated, paymentDeclined(id)] : [initiated, paymentSettled(id, { amount: 100 + i })];
        if (i % 10 !== 0 && i % 7 === 0) events.push(...creditVoid(id, 'refund', Math.floor((100 + i) / 2)));
        streams.set(id, events);
        await appendPaymentEvents(store, id, events);
      }
      return streams;
    }

    async function thenAllProjected(streams: Map<string, PaymentEvent[]>, names?: string[]): Promise<void> {
      const { db, readModels } = fixture();
      expect(await countRows(db, 'payments')).to.equal(2000);
      const refunds = [...streams.values()].filter((events) => events.length === 4).length;
      expect(await countRows(db, 'transactions')).to.equal(2000 + refunds);
      expect(await countRows(db, 'merchants')).to.equal(1);
      const byStatus = await db.selectFrom('payments').select(['status', (eb) => eb.fn.countAll<string | number>().as('n')]).groupBy('status').execute();
      expect(Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)]))).to.deep.equal({ SETTLED: 1800, DECLINED: 200 });
      for (const [id, events] of [...streams].filter((_, i) => i % 97 === 0)) {
        expect((await readModels.paymentById(id))!.state).to.deep.equal(foldPayment(events));
      }
      const head = await fixture().store.headPosition();
      const checkpoints = await readModels.checkpoints();
      if (names) {
        expect(Object.fromEntries(names.map((n) => [n, checkpoints[n]]))).to.deep.equal(Object.fromEntries(names.map((n) => [n, head])));
      } else {
        expect(checkpoints).to.deep.equal(everyProjectionAt(head));
      }
    }

    it('projects 2,000 payments through the live subscription in batches', async function () {
      const streams = await givenTwoThousandPayments(fixture().store);
      await fixture().projector.start();

      expect(await fixture().readModels.catchUpToHead(30_000)).to.equal(true);

      await thenAllProjected(streams);
    });

    it('projects 2,000 payments in one catch-up batch larger than a statement can carry', async function () {
      const streams = await givenTwoThousandPayments(fixture().store);
      const payments = instrumented(paymentsProjection());
      const projector = fixture().newProjector({
        projections: [payments, transactionsProjection(), merchantsProjection()],
        batchSize: 10_000,
      });

      await projector.catchUp();

      expect(payments.calls).to.equal(1);
      await thenAllProjected(streams, ['payments', 'transactions', 'merchants']);
    });

    it('yields to the event loop between batches', async function () {
      await givenTwoThousandPayments(fixture().store);
      const projector = fixture().newProjector({ batchSize: 200 });
      let ticks = 0;
      let spinning = true;
      const spin = (): void => {
        ticks++;
        if (spinning) setImmediate(spin);
      };
      setImmediate(spin);

      await projector.catchUp();
      spinning = false;

      // 4,000-odd events in batches of 200: the other callback got in at least once per batch.
      expect(ticks).to.be.at.least(20);
    });
  });
});
