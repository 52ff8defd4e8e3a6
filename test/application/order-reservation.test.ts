/**
 * The one order id reservation SALE, payouts and Checkout sessions share: the append that wins it,
 * the refusal a second one meets, and what a repeat of the order is judged to be.
 */
import { expect } from 'chai';
import { DUPLICATE_WINDOW_MS, orderStreamId } from '../../src/domain/order/order-reservation';
import { orderReservation, orderReserved, orderTaken, repeatOf } from '../../src/application/order-reservation';
import { MemoryEventStore } from '../support/memory-event-store';

const MERCHANT = '11111111-1111-4111-8111-111111111111';
const RESERVED_AT = new Date('2030-05-01T12:00:00.000Z');
const metadata = { correlationId: 'test', causationId: 'test' };
const order = { merchantId: MERCHANT, orderId: 'ORDER-42' };
const later = (ms: number) => new Date(RESERVED_AT.getTime() + ms);

describe('order id reservation', () => {
  it('Given a free order id, when a payment reserves it, then the order is reserved for that payment alone', async () => {
    const store = new MemoryEventStore();
    expect(await orderReserved(store, order)).to.equal(false);
    await store.appendMultiple([orderReservation({ ...order, paymentId: 'pay-1' }, RESERVED_AT.toISOString(), metadata)]);
    expect(await orderReserved(store, order)).to.equal(true);
    const [event] = await store.readStream(orderStreamId(MERCHANT, 'ORDER-42'));
    expect(event.data).to.deep.equal({ merchantId: MERCHANT, orderId: 'ORDER-42', paymentId: 'pay-1', reservedAt: RESERVED_AT.toISOString() });
  });

  it('Given an order id reserved, when a second append reserves it, then the refusal is recognised as the order being taken', async () => {
    const store = new MemoryEventStore();
    await store.appendMultiple([orderReservation({ ...order, paymentId: 'pay-1' }, RESERVED_AT.toISOString(), metadata)]);
    const second = orderReservation({ ...order, paymentId: 'pay-2' }, RESERVED_AT.toISOString(), metadata);
    const refusal = await store.appendMultiple([second]).then(
      () => null,
      (error: unknown) => error,
    );
    expect(orderTaken(refusal, second)).to.equal(true);
    expect(orderTaken(refusal, orderReservation({ ...order, orderId: 'OTHER', paymentId: 'pay-3' }, '', metadata))).to.equal(false);
    expect(orderTaken(new Error('database down'), second)).to.equal(false);
  });

  it("Given a payment's order id, then a repeat within the window replays the payment, a later one is a duplicate, and a session never replays it", async () => {
    const store = new MemoryEventStore();
    await store.appendMultiple([orderReservation({ ...order, paymentId: 'pay-1' }, RESERVED_AT.toISOString(), metadata)]);
    expect(await repeatOf(store, order, 'payment', later(DUPLICATE_WINDOW_MS))).to.deep.equal({ kind: 'replay', owner: 'pay-1' });
    expect(await repeatOf(store, order, 'payment', later(DUPLICATE_WINDOW_MS + 1))).to.deep.equal({ kind: 'duplicate' });
    expect(await repeatOf(store, order, 'session', RESERVED_AT)).to.deep.equal({ kind: 'duplicate' });
  });

  it("Given a session's order id, then a repeat of the session within the window replays the session, and a payment never replays it", async () => {
    const store = new MemoryEventStore();
    const session = { ...order, paymentId: 'session-1', sessionId: 'session-1' };
    await store.appendMultiple([orderReservation(session, RESERVED_AT.toISOString(), metadata)]);
    expect(await repeatOf(store, order, 'session', later(1000))).to.deep.equal({ kind: 'replay', owner: 'session-1' });
    expect(await repeatOf(store, order, 'session', later(DUPLICATE_WINDOW_MS + 1))).to.deep.equal({ kind: 'duplicate' });
    expect(await repeatOf(store, order, 'payment', RESERVED_AT)).to.deep.equal({ kind: 'duplicate' });
  });
});
