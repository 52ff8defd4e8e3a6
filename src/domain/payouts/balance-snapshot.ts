/**
 * A payout balance's state as folded up to a version of its stream, kept so that a process that
 * remembers nothing of the balance (after a start, or once it fell out of its cache) folds only
 * what came after it instead of the whole stream. A busy merchant's balance stream grows by a few
 * events a second for as long as it sells.
 *
 * Snapshots live in a stream of their own (`snapshot-payout-balance-<merchant>-<currency>`), never
 * in the balance stream, so the balance stream's versions, expected versions and history stay
 * exactly what the commands made them. A snapshot is derived, never a fact of its own: the balance
 * is always what the whole balance stream folds to, and a snapshot of a state shape this code does
 * not know is ignored.
 */
import type { PayoutBalanceState } from './balance-state';

export const PAYOUT_BALANCE_SNAPSHOT_SCHEMA_VERSION = 1;

/**
 * The shape of `PayoutBalanceState` a snapshot holds. Raise it whenever the state's fields or
 * their meaning change: snapshots of any other shape are then passed over and the stream folded.
 */
export const PAYOUT_BALANCE_STATE_SHAPE = 1;

/** Starts with `snapshot-`, which no balance stream does, whatever the merchant id holds. */
export const payoutBalanceSnapshotStreamId = (merchantId: string, currency: string): string =>
  `snapshot-payout-balance-${merchantId}-${currency}`;

export interface PayoutBalanceSnapshotted {
  type: 'PayoutBalanceSnapshotted';
  data: {
    merchantId: string;
    currency: string;
    /** The balance stream's version the state was folded through (decimal text). */
    throughVersion: string;
    stateShape: number;
    state: PayoutBalanceState;
    takenAt: string;
  };
}

export function payoutBalanceSnapshot(
  merchantId: string,
  currency: string,
  state: PayoutBalanceState,
  throughVersion: bigint,
  takenAt: string,
): PayoutBalanceSnapshotted {
  return {
    type: 'PayoutBalanceSnapshotted',
    data: { merchantId, currency, throughVersion: throughVersion.toString(), stateShape: PAYOUT_BALANCE_STATE_SHAPE, state, takenAt },
  };
}

/** The state and version a stored snapshot holds, or null when it is not one this code can use. */
export function fromPayoutBalanceSnapshot(event: { type: string; data: Record<string, unknown> }): { state: PayoutBalanceState; version: bigint } | null {
  if (event.type !== 'PayoutBalanceSnapshotted') return null;
  const data = event.data as Partial<PayoutBalanceSnapshotted['data']>;
  if (data.stateShape !== PAYOUT_BALANCE_STATE_SHAPE || typeof data.throughVersion !== 'string' || !/^\d+$/.test(data.throughVersion) || !data.state) return null;
  return { state: data.state, version: BigInt(data.throughVersion) };
}
