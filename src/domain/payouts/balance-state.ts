/**
 * A payout balance folded from its stream. `available` is what a payout may still take:
 *
 *   available = topped up + received - paid out - held
 *
 * where `received` is settled money net of refunds and voids, `paidOut` the payouts that settled
 * and `held` the payouts still in flight. Only the holds in flight are kept one by one, so the
 * state stays small however long the stream grows.
 */
import type { PayoutBalanceEvent } from './balance-events';

export interface PayoutBalanceState {
  toppedUp: number;
  received: number;
  paidOut: number;
  held: number;
  /** Payouts in flight: payment id to the amount held for it. */
  openHolds: Readonly<Record<string, number>>;
  /** The feeder's watermark: the global position of the last payment event recorded (decimal text). */
  movementsThrough: string | null;
}

export const initialPayoutBalance = (): PayoutBalanceState => ({ toppedUp: 0, received: 0, paidOut: 0, held: 0, openHolds: {}, movementsThrough: null });

export const availableOf = (s: PayoutBalanceState): number => s.toppedUp + s.received - s.paidOut - s.held;

function withoutHold(holds: Readonly<Record<string, number>>, paymentId: string): Record<string, number> {
  const { [paymentId]: _closed, ...rest } = holds;
  return rest;
}

export function evolvePayoutBalance(state: PayoutBalanceState, event: PayoutBalanceEvent): PayoutBalanceState {
  switch (event.type) {
    case 'PayoutBalanceToppedUp':
      return { ...state, toppedUp: state.toppedUp + event.data.amount };
    case 'PayoutHoldPlaced':
      return {
        ...state,
        held: state.held + event.data.amount,
        openHolds: { ...state.openHolds, [event.data.paymentId]: event.data.amount },
      };
    case 'PayoutMovementsRecorded': {
      let s: PayoutBalanceState = { ...state, movementsThrough: event.data.throughPosition };
      for (const m of event.data.movements) {
        switch (m.kind) {
          case 'received':
            s = { ...s, received: s.received + m.amount };
            break;
          case 'paid_out':
            s = { ...s, paidOut: s.paidOut + m.amount };
            break;
          case 'hold_settled':
            s = { ...s, held: s.held - m.amount, paidOut: s.paidOut + m.amount, openHolds: withoutHold(s.openHolds, m.paymentId) };
            break;
          case 'hold_released':
            s = { ...s, held: s.held - m.amount, openHolds: withoutHold(s.openHolds, m.paymentId) };
            break;
          default: {
            const unreachable: never = m.kind;
            return unreachable;
          }
        }
      }
      return s;
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
