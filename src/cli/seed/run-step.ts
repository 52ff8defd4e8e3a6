/** A seeded payment's next request, run through the real payment decider as the gateway runs it. */
import { randomUUID } from 'node:crypto';
import { toNewEvent } from '../../application/command-handler';
import type { EventMetadata, NewEvent, StreamWrite } from '../../application/ports/event-store';
import { exactly, NO_STREAM } from '../../application/ports/event-store';
import { ORDER_EVENT_SCHEMA_VERSION, orderStreamId, type OrderIdReserved } from '../../domain/order/order-reservation';
import { decidePayment } from '../../domain/payment/decide';
import { paymentEventSchemaVersion, paymentStreamId } from '../../domain/payment/events';
import { evolvePayment } from '../../domain/payment/state';
import type { SeededPayment } from './seeded-payment';

/** Runs the payment's next step, moving its state and version on; returns the writes it records. */
export function runNextStep(payment: SeededPayment): StreamWrite[] {
  const step = payment.steps[payment.next++];
  const now = new Date(step.at).toISOString();
  const requestId = randomUUID();
  const metadata: EventMetadata = { correlationId: requestId, causationId: requestId };
  const recorded: NewEvent[] = [];
  for (const command of step.commands(payment, now)) {
    for (const event of decidePayment(command, payment.state)) {
      payment.state = evolvePayment(payment.state, event);
      recorded.push(toNewEvent(event, paymentEventSchemaVersion, metadata));
    }
  }
  if (recorded.length !== step.events) {
    throw new Error(`seeding: a step of payment ${payment.id} recorded ${recorded.length} events, ${step.events} planned`);
  }
  const writes: StreamWrite[] = [];
  if (payment.version === null) writes.push(orderReservation(payment, now, metadata));
  writes.push({ streamId: paymentStreamId(payment.id), events: recorded, expected: payment.version === null ? NO_STREAM : exactly(payment.version) });
  payment.version = (payment.version ?? -1n) + BigInt(recorded.length);
  return writes;
}

/** A SALE reserves its order id in the same append, as the gateway does. */
function orderReservation(payment: SeededPayment, now: string, metadata: EventMetadata): StreamWrite {
  const s = payment.state.exists ? payment.state : null;
  if (!s) throw new Error('seeding: the first step must initiate the payment');
  const reservation: OrderIdReserved = {
    type: 'OrderIdReserved',
    data: { merchantId: s.merchantId, orderId: s.orderId, paymentId: payment.id, reservedAt: now },
  };
  return {
    streamId: orderStreamId(s.merchantId, s.orderId),
    events: [toNewEvent(reservation, ORDER_EVENT_SCHEMA_VERSION, metadata)],
    expected: NO_STREAM,
  };
}
