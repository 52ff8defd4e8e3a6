/**
 * A payout balance remembered by one process, while another (the balance feeder, on its own
 * thread or process) appends to the same stream: the remembered state is brought up to date with
 * the events appended since, not by folding the whole stream again. A busy merchant's balance
 * stream grows by a few events a second for as long as it sells.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { PayoutBalances } from '../../src/application/payouts/payout-balances';
import type { FedMovement } from '../../src/domain/payouts/balance-decide';
import { eventsRead } from '../support/events-read';
import { MemoryEventStore } from '../support/memory-event-store';

const now = '2026-01-05T10:00:00.000Z';
const M = 'merchant-1';
const C = 'EUR';

describe('Payout balances remembered while another process appends', function () {
  let store: MemoryEventStore;
  let feeder: PayoutBalances;
  let api: PayoutBalances;
  let position = 0;

  const received = (amount: number): FedMovement => {
    position += 1;
    return { position: String(position), paymentId: `sale-${position}`, eventId: `event-${position}`, eventType: 'PaymentSettled', effect: 'received', amount };
  };
  const feed = (...movements: FedMovement[]) =>
    feeder.handle(M, C, { type: 'RecordPayoutMovements', data: { merchantId: M, currency: C, movements, now } });
  const hold = (paymentId: string, amount: number) =>
    api.handle(M, C, { type: 'HoldPayout', data: { merchantId: M, currency: C, paymentId, amount, now } });

  /** Events the api side read from the store while `work` ran. */
  const eventsReadBy = <T>(work: () => Promise<T>) => eventsRead(store, work);

  beforeEach(async function () {
    store = new MemoryEventStore();
    feeder = new PayoutBalances(store);
    api = new PayoutBalances(store);
    position = 0;
    for (let i = 0; i < 50; i++) await feed(received(100));
    // The api side has read the balance once (50 events: 5,000 available).
    expect((await api.balance(M, C)).available).to.equal(5_000);
  });

  it('takes a hold on the whole balance, reading only what the feeder appended since', async function () {
    await feed(received(700), received(300));
    const { result, read } = await eventsReadBy(() => hold('payout-1', 5_900));
    expect(result.newEvents.map((e) => e.type)).to.deep.equal(['PayoutHoldPlaced']);
    expect(result.state.held).to.equal(5_900);
    expect(read).to.equal(1);
    expect((await store.readStream(`payout-balance-${M}-${C}`)).map((e) => e.type).at(-1)).to.equal('PayoutHoldPlaced');
  });

  it('decides a hold again, on the events appended since, when the append finds the stream moved on', async function () {
    await feed(received(100), received(100));
    await feed(received(100));
    const appends = sinon.spy(store, 'append');
    const { result, read } = await eventsReadBy(() => hold('payout-1', 200));
    // The first append expected the remembered version and was refused; the second landed.
    expect(appends.callCount).to.equal(2);
    appends.restore();
    expect(read).to.equal(2);
    expect(result.state).to.include({ held: 200, received: 5_300 });
    const stream = await store.readStream(`payout-balance-${M}-${C}`);
    expect(stream.map((e) => e.type).slice(-3)).to.deep.equal(['PayoutMovementsRecorded', 'PayoutMovementsRecorded', 'PayoutHoldPlaced']);
  });

  it('refuses a hold the balance cannot cover only after reading what was appended since', async function () {
    await feed(received(1_000));
    const { result, read } = await eventsReadBy(() => hold('payout-1', 6_000));
    expect(result.state.held).to.equal(6_000);
    expect(read).to.equal(1);

    const refused = await eventsReadBy(() => hold('payout-2', 1).catch((error: Error & { code?: string }) => error.code));
    expect(refused.result).to.equal('insufficient_payout_balance');
    expect(refused.read).to.equal(0);
  });

  it('answers the balance from what it remembered and the events appended since', async function () {
    await feed(received(250));
    const { result, read } = await eventsReadBy(() => api.balance(M, C));
    expect(result).to.include({ available: 5_250, received: 5_250 });
    expect(read).to.equal(1);
    // A process that remembers nothing folds the whole stream and finds the same.
    expect(await new PayoutBalances(store).balance(M, C)).to.deep.equal(result);
  });

  it('releases the hold of a payout the provider declined, though the feeder never saw the hold placed', async function () {
    // The api side placed the hold; the feeder remembers the balance from before it.
    await hold('payout-1', 1_000);
    position += 1;
    const declined: FedMovement = { position: String(position), paymentId: 'payout-1', eventId: 'event-declined', eventType: 'PaymentDeclined', effect: 'payout_declined', amount: 0 };
    const { newEvents, state } = await feed(declined);
    expect(newEvents.map((e) => e.type)).to.deep.equal(['PayoutMovementsRecorded']);
    expect(state).to.include({ held: 0 });
    expect(await new PayoutBalances(store).balance(M, C)).to.include({ held: 0, available: 5_000 });
  });

  it('reads the whole stream when it remembers nothing of it', async function () {
    const { result, read } = await eventsReadBy(() => new PayoutBalances(store).balance(M, C));
    expect(result.available).to.equal(5_000);
    expect(read).to.equal(50);
  });
});

describe('Payout balance snapshots', function () {
  const stream = `payout-balance-${M}-${C}`;
  const snapshots = `snapshot-payout-balance-${M}-${C}`;
  let store: MemoryEventStore;
  let feeder: PayoutBalances;

  const feed = (i: number) =>
    feeder.handle(M, C, {
      type: 'RecordPayoutMovements',
      data: {
        merchantId: M,
        currency: C,
        movements: [{ position: String(i + 1), paymentId: `sale-${i}`, eventId: `event-${i}`, eventType: 'PaymentSettled', effect: 'received', amount: 100 }],
        now,
      },
    });

  /** Events read from the balance stream itself while `work` ran. */
  const readFromBalanceStream = <T>(work: () => Promise<T>) => eventsRead(store, work, stream);

  beforeEach(async function () {
    store = new MemoryEventStore();
    feeder = new PayoutBalances(store, { snapshotEvery: 10 });
    for (let i = 0; i < 35; i++) await feed(i);
  });

  it('are taken every so many events, in a stream of their own', async function () {
    const taken = await store.readStream(snapshots);
    expect(taken.map((e) => e.data.throughVersion)).to.deep.equal(['9', '19', '29']);
    expect(taken.every((e) => e.type === 'PayoutBalanceSnapshotted')).to.equal(true);
    expect(await store.readStream(stream)).to.have.length(35);
    expect((await store.readStream(stream)).every((e) => e.type === 'PayoutMovementsRecorded')).to.equal(true);
  });

  it('let a process that remembers nothing fold only the events after the newest one', async function () {
    const { result, read } = await readFromBalanceStream(() => new PayoutBalances(store).balance(M, C));
    expect(read).to.equal(5);
    expect(result).to.include({ available: 3_500, received: 3_500 });
  });

  it('give the balance the whole stream folds to, and a hold decided on it lands at the right version', async function () {
    const api = new PayoutBalances(store);
    const held = await api.handle(M, C, { type: 'HoldPayout', data: { merchantId: M, currency: C, paymentId: 'payout-1', amount: 3_500, now } });
    expect(held.state.held).to.equal(3_500);
    const whole = await store.readStream(stream);
    expect(whole.map((e) => e.version)).to.deep.equal(whole.map((_, i) => BigInt(i)));
    const refused = await api
      .handle(M, C, { type: 'HoldPayout', data: { merchantId: M, currency: C, paymentId: 'payout-2', amount: 1, now } })
      .catch((error: Error & { code?: string }) => error.code);
    expect(refused).to.equal('insufficient_payout_balance');
  });

  it('of a state shape this code does not know are passed over: the whole stream is folded', async function () {
    const [newest] = (await store.readStream(snapshots)).slice(-1);
    await store.append(snapshots, [{ id: 'odd-shape', type: newest!.type, schemaVersion: 1, data: { ...newest!.data, stateShape: 99, state: { toppedUp: 1e9 } }, metadata: {} }], { kind: 'any' });
    const { result, read } = await readFromBalanceStream(() => new PayoutBalances(store).balance(M, C));
    expect(read).to.equal(35);
    expect(result.available).to.equal(3_500);
  });

  it('that cannot be written leave the command recorded, and are taken by the next one', async function () {
    const append = sinon.stub(store, 'append').callThrough();
    append.withArgs(snapshots).rejects(new Error('database is locked'));
    for (let i = 35; i < 41; i++) await feed(i);
    expect(await store.readStream(stream)).to.have.length(41);
    expect((await store.readStream(snapshots)).map((e) => e.data.throughVersion)).to.deep.equal(['9', '19', '29']);
    append.restore();
    await feed(41);
    expect((await store.readStream(snapshots)).map((e) => e.data.throughVersion)).to.deep.equal(['9', '19', '29', '41']);
  });
});
