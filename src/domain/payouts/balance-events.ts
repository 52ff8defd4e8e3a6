/**
 * Events of a merchant's payout balance in one currency: the stream
 * `payout-balance-<merchant id>-<currency>`. Every decision that spends the balance (a payout's
 * hold) is taken on this one stream at the version read, so concurrent payouts, in one process or
 * many, can never spend the same money twice. What else changes the balance is recorded here too:
 * operator top-ups, and (by the balance feeder, in the order of the global log) settled sales and
 * captures, refunds and voids, and how each held payout ended. Amounts are minor units.
 */

export const PAYOUT_BALANCE_EVENT_SCHEMA_VERSION = 1;

export const payoutBalanceStreamId = (merchantId: string, currency: string): string => `payout-balance-${merchantId}-${currency}`;

/** An operator added money the merchant may pay out (`ledger top-up`). */
export interface PayoutBalanceToppedUp {
  type: 'PayoutBalanceToppedUp';
  data: { merchantId: string; currency: string; topUpId: string; amount: number; note?: string; toppedUpAt: string };
}

/** A payout's amount set aside before its provider is asked: nothing else can spend it. */
export interface PayoutHoldPlaced {
  type: 'PayoutHoldPlaced';
  data: { merchantId: string; currency: string; paymentId: string; amount: number; placedAt: string };
}

/**
 * How a movement changed the balance:
 * - `received`: settled money (a sale or capture, positive) or money given back (a refund or void, negative);
 * - `paid_out`: a payout that settled without a hold (a Checkout card credit);
 * - `hold_settled` / `hold_released`: a held payout settled (the money left) or ended otherwise (it is free again).
 */
export type PayoutMovementKind = 'received' | 'paid_out' | 'hold_settled' | 'hold_released';

export interface PayoutMovement {
  kind: PayoutMovementKind;
  paymentId: string;
  /** The payment event that moved the money. */
  eventId: string;
  eventType: string;
  /** Minor units; signed for `received`, positive otherwise. */
  amount: number;
}

/**
 * Payment events that moved money, recorded in the order of the global log up to `throughPosition`
 * (a decimal string): the feeder's watermark, so a movement is never recorded twice, however many
 * feeders follow the log or however often one replays it.
 */
export interface PayoutMovementsRecorded {
  type: 'PayoutMovementsRecorded';
  data: { merchantId: string; currency: string; movements: PayoutMovement[]; throughPosition: string; recordedAt: string };
}

export type PayoutBalanceEvent = PayoutBalanceToppedUp | PayoutHoldPlaced | PayoutMovementsRecorded;
