/**
 * The payout balance decider (a merchant's payout balance in one currency,
 * docs/payouts.md#funding-the-payout-balance): operator top-ups, holds that spend the balance or are refused, and the
 * movements the balance feeder reads from the log (settled money, refunds, how held payouts end),
 * each recorded once however often it is fed.
 */
import { expect } from 'chai';
import type { FedMovement, PayoutBalanceCommand } from '../../src/domain/payouts/balance-decide';
import type { PayoutBalanceEvent } from '../../src/domain/payouts/balance-events';
import { payoutBalanceDecider } from '../../src/domain/payouts/balance-decider';
import { availableOf } from '../../src/domain/payouts/balance-state';
import { DeciderSpecification } from '../support/decider-spec';

const spec = DeciderSpecification.for(payoutBalanceDecider);

const M = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f';
const C = 'KES';
const T0 = '2025-03-01T10:00:00.000Z';
const T1 = '2025-03-01T10:00:05.000Z';
const PAYOUT_1 = 'a1000000-0000-4000-8000-000000000001';
const PAYOUT_2 = 'a1000000-0000-4000-8000-000000000002';
const SALE = 'b1000000-0000-4000-8000-000000000001';

const toppedUp = (amount: number, topUpId = 'top-1'): PayoutBalanceEvent => ({
  type: 'PayoutBalanceToppedUp',
  data: { merchantId: M, currency: C, topUpId, amount, toppedUpAt: T0 },
});
const held = (paymentId: string, amount: number, placedAt = T0): PayoutBalanceEvent => ({
  type: 'PayoutHoldPlaced',
  data: { merchantId: M, currency: C, paymentId, amount, placedAt },
});
const hold = (paymentId: string, amount: number): PayoutBalanceCommand => ({ type: 'HoldPayout', data: { merchantId: M, currency: C, paymentId, amount, now: T1 } });
const fed = (movements: FedMovement[]): PayoutBalanceCommand => ({ type: 'RecordPayoutMovements', data: { merchantId: M, currency: C, movements, now: T1 } });
const movement = (position: number, paymentId: string, effect: FedMovement['effect'], amount: number, eventType = 'PaymentSettled'): FedMovement => ({
  position: String(position),
  paymentId,
  eventId: `e-${position}`,
  eventType,
  effect,
  amount,
});

describe('payout balance decider', () => {
  describe('top-ups', () => {
    it('Given nothing, When an operator tops up 500.00, Then it is recorded and 500.00 is available', () => {
      const outcome = spec
        .given([])
        .when({ type: 'TopUpPayoutBalance', data: { merchantId: M, currency: C, topUpId: 'top-1', amount: 50_000, note: 'float', now: T0 } })
        .then([{ type: 'PayoutBalanceToppedUp', data: { merchantId: M, currency: C, topUpId: 'top-1', amount: 50_000, note: 'float', toppedUpAt: T0 } }]);
      expect(availableOf(outcome.state)).to.equal(50_000);
    });

    it('Given nothing, When a top-up of nothing is asked, Then it is refused', () => {
      spec.given([]).when({ type: 'TopUpPayoutBalance', data: { merchantId: M, currency: C, topUpId: 't', amount: 0, now: T0 } }).thenThrows('amount_not_positive');
    });
  });

  describe('holds', () => {
    it('Given 100.00 topped up, When a payout of 100.00 is held, Then the hold is placed and nothing is left', () => {
      const outcome = spec.given([toppedUp(10_000)]).when(hold(PAYOUT_1, 10_000)).then([held(PAYOUT_1, 10_000, T1)]);
      expect(availableOf(outcome.state)).to.equal(0);
    });

    it('Given 100.00 topped up, When a payout of 100.01 is held, Then it is refused as an insufficient payout balance', () => {
      spec.given([toppedUp(10_000)]).when(hold(PAYOUT_1, 10_001)).thenThrows('insufficient_payout_balance', 'Insufficient payout balance');
    });

    it('Given 100.00 topped up and 60.00 held, When another 60.00 is held, Then it is refused: held money is spent', () => {
      spec.given([toppedUp(10_000), held(PAYOUT_1, 6_000)]).when(hold(PAYOUT_2, 6_000)).thenThrows('insufficient_payout_balance');
    });

    it('Given a hold already placed for the payout, When it is asked again, Then nothing more is held', () => {
      spec.given([toppedUp(10_000), held(PAYOUT_1, 6_000)]).when(hold(PAYOUT_1, 6_000)).thenNothing();
    });

    it('Given an empty balance, When a payout is held, Then it is refused', () => {
      spec.given([]).when(hold(PAYOUT_1, 1)).thenThrows('insufficient_payout_balance');
    });
  });

  describe('movements fed from the log', () => {
    it('Given nothing, When a sale of 80.00 settles and 30.00 of it is refunded, Then 50.00 is available', () => {
      const outcome = spec
        .given([])
        .when(fed([movement(10, SALE, 'received', 8_000), movement(12, SALE, 'received', -3_000, 'RefundSucceeded')]))
        .then([
          {
            type: 'PayoutMovementsRecorded',
            data: {
              merchantId: M,
              currency: C,
              movements: [
                { kind: 'received', paymentId: SALE, eventId: 'e-10', eventType: 'PaymentSettled', amount: 8_000 },
                { kind: 'received', paymentId: SALE, eventId: 'e-12', eventType: 'RefundSucceeded', amount: -3_000 },
              ],
              throughPosition: '12',
              recordedAt: T1,
            },
          },
        ]);
      expect(availableOf(outcome.state)).to.equal(5_000);
    });

    it('Given movements recorded through position 12, When the same movements are fed again (another feeder, a replay), Then nothing is recorded twice', () => {
      const first = spec.given([]).when(fed([movement(10, SALE, 'received', 8_000), movement(12, SALE, 'received', -3_000)])).events();
      spec.given(first).when(fed([movement(10, SALE, 'received', 8_000), movement(12, SALE, 'received', -3_000)])).thenNothing();
    });

    it('Given movements recorded through position 12, When a batch overlaps it, Then only what lies beyond is recorded', () => {
      const first = spec.given([]).when(fed([movement(12, SALE, 'received', 8_000)])).events();
      const outcome = spec.given(first).when(fed([movement(12, SALE, 'received', 8_000), movement(15, SALE, 'received', 100)])).events();
      expect(outcome[0]!.type === 'PayoutMovementsRecorded' && outcome[0].data.movements.map((m) => m.eventId)).to.deep.equal(['e-15']);
    });

    it('Given a payout held, When it settles, Then the hold becomes money paid out and the balance stays as it was', () => {
      const outcome = spec.given([toppedUp(10_000), held(PAYOUT_1, 6_000)]).when(fed([movement(20, PAYOUT_1, 'payout_settled', 6_000)])).events();
      expect(outcome[0]!.type === 'PayoutMovementsRecorded' && outcome[0].data.movements).to.deep.equal([
        { kind: 'hold_settled', paymentId: PAYOUT_1, eventId: 'e-20', eventType: 'PaymentSettled', amount: 6_000 },
      ]);
      spec
        .given([toppedUp(10_000), held(PAYOUT_1, 6_000)])
        .when(fed([movement(20, PAYOUT_1, 'payout_settled', 6_000)]))
        .thenState({ held: 0, paidOut: 6_000, openHolds: {} });
    });

    it('Given a payout held, When it is declined, Then its hold is released and the money is available again', () => {
      const outcome = spec.given([toppedUp(10_000), held(PAYOUT_1, 6_000)]).when(fed([movement(20, PAYOUT_1, 'payout_declined', 6_000, 'PaymentDeclined')]));
      outcome.thenState({ held: 0, paidOut: 0, openHolds: {} });
      expect(availableOf(outcome.state())).to.equal(10_000);
    });

    it('Given a payout declined before anything was held (an insufficient balance), When its decline is fed, Then nothing is recorded', () => {
      spec.given([toppedUp(100)]).when(fed([movement(20, PAYOUT_1, 'payout_declined', 6_000, 'PaymentDeclined')])).thenNothing();
    });

    it('Given no hold for a payout, When it settles (a card credit), Then it is paid out of the balance', () => {
      const outcome = spec.given([toppedUp(10_000)]).when(fed([movement(20, PAYOUT_2, 'payout_settled', 2_500)]));
      outcome.thenState({ paidOut: 2_500, held: 0 });
      expect(availableOf(outcome.state())).to.equal(7_500);
    });

    it('Given a held payout already settled, When its settlement is fed again by a feeder behind the watermark, Then it is not paid out a second time', () => {
      const history = [toppedUp(10_000), held(PAYOUT_1, 6_000)];
      const settled = spec.given(history).when(fed([movement(20, PAYOUT_1, 'payout_settled', 6_000)])).events();
      spec.given([...history, ...settled]).when(fed([movement(20, PAYOUT_1, 'payout_settled', 6_000)])).thenNothing();
    });
  });
});
