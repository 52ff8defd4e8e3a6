/**
 * The payout balance decider: `decidePayoutBalance(command, state) -> events`. Pure; refuses by
 * throwing a DomainError. A hold is the only command that spends: it is refused when the balance
 * cannot cover it, and because it is appended at the version it was decided on, two holds can never
 * both spend the same money (the loser decides again on the balance the winner left).
 */
import { DomainError } from '../errors';
import type { PayoutBalanceEvent, PayoutMovement } from './balance-events';
import { availableOf, type PayoutBalanceState } from './balance-state';

export interface TopUpPayoutBalance {
  type: 'TopUpPayoutBalance';
  data: { merchantId: string; currency: string; topUpId: string; amount: number; note?: string; now: string };
}

export interface HoldPayout {
  type: 'HoldPayout';
  data: { merchantId: string; currency: string; paymentId: string; amount: number; now: string };
}

/**
 * What a payment event did to the money, as the balance feeder read it from the global log:
 * settled money in (`received`, negative for a refund or void), or a payout that settled or was
 * declined. `position` is the event's global position (decimal text).
 */
export interface FedMovement {
  position: string;
  paymentId: string;
  eventId: string;
  eventType: string;
  effect: 'received' | 'payout_settled' | 'payout_declined';
  /** Minor units: signed for `received`, the payout's amount otherwise. */
  amount: number;
}

export interface RecordPayoutMovements {
  type: 'RecordPayoutMovements';
  data: { merchantId: string; currency: string; movements: FedMovement[]; now: string };
}

export type PayoutBalanceCommand = TopUpPayoutBalance | HoldPayout | RecordPayoutMovements;

export const INSUFFICIENT_PAYOUT_BALANCE = 'Insufficient payout balance';

export function decidePayoutBalance(command: PayoutBalanceCommand, state: PayoutBalanceState): PayoutBalanceEvent[] {
  switch (command.type) {
    case 'TopUpPayoutBalance': {
      const d = command.data;
      if (!Number.isSafeInteger(d.amount) || d.amount <= 0) throw new DomainError('amount_not_positive', 'amount: This value should be greater than 0.');
      return [
        {
          type: 'PayoutBalanceToppedUp',
          data: { merchantId: d.merchantId, currency: d.currency, topUpId: d.topUpId, amount: d.amount, ...(d.note ? { note: d.note } : {}), toppedUpAt: d.now },
        },
      ];
    }
    case 'HoldPayout': {
      const d = command.data;
      if (!Number.isSafeInteger(d.amount) || d.amount <= 0) throw new DomainError('amount_not_positive', 'amount: This value should be greater than 0.');
      // Asked again (a retried request): the hold it placed stands.
      if (state.openHolds[d.paymentId] !== undefined) return [];
      if (d.amount > availableOf(state)) throw new DomainError('insufficient_payout_balance', INSUFFICIENT_PAYOUT_BALANCE);
      return [{ type: 'PayoutHoldPlaced', data: { merchantId: d.merchantId, currency: d.currency, paymentId: d.paymentId, amount: d.amount, placedAt: d.now } }];
    }
    case 'RecordPayoutMovements':
      return movementsEvents(command.data, state);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/**
 * Only what lies beyond the watermark counts, in log order: a movement recorded before (by this
 * feeder or another) is recorded once. A payout that settles closes its hold (the money leaves);
 * one declined frees it; one that settled without a hold (a card credit) is paid out of the balance.
 */
function movementsEvents(d: RecordPayoutMovements['data'], state: PayoutBalanceState): PayoutBalanceEvent[] {
  const through = state.movementsThrough === null ? -1n : BigInt(state.movementsThrough);
  const fresh = d.movements.filter((m) => BigInt(m.position) > through).sort((a, b) => (BigInt(a.position) < BigInt(b.position) ? -1 : 1));
  if (fresh.length === 0) return [];
  const open: Record<string, number> = { ...state.openHolds };
  const recorded: PayoutMovement[] = [];
  for (const m of fresh) {
    const base = { paymentId: m.paymentId, eventId: m.eventId, eventType: m.eventType };
    const held = open[m.paymentId];
    switch (m.effect) {
      case 'received':
        if (m.amount !== 0) recorded.push({ kind: 'received', ...base, amount: m.amount });
        break;
      case 'payout_settled':
        if (held !== undefined) {
          delete open[m.paymentId];
          recorded.push({ kind: 'hold_settled', ...base, amount: held });
        } else if (m.amount > 0) {
          recorded.push({ kind: 'paid_out', ...base, amount: m.amount });
        }
        break;
      case 'payout_declined':
        if (held !== undefined) {
          delete open[m.paymentId];
          recorded.push({ kind: 'hold_released', ...base, amount: held });
        }
        break;
      default: {
        const unreachable: never = m.effect;
        return unreachable;
      }
    }
  }
  if (recorded.length === 0) return [];
  return [
    {
      type: 'PayoutMovementsRecorded',
      data: { merchantId: d.merchantId, currency: d.currency, movements: recorded, throughPosition: fresh[fresh.length - 1]!.position, recordedAt: d.now },
    },
  ];
}
