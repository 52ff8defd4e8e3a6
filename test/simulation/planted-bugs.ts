/**
 * Bugs planted on purpose, one at a time, to show the simulator finds what it is meant to find. Each
 * wraps a real part of the gateway for the length of one run and answers a function that takes the
 * wrapper off again.
 */
import sinon from 'sinon';
import { NotifierRuntime } from '../../src/application/callbacks/notifier-runtime';
import type { PaymentCommand } from '../../src/domain/payment/commands';
import { paymentDecider } from '../../src/domain/payment/decider';
import type { PaymentState } from '../../src/domain/payment/state';
import type { PayoutBalanceCommand } from '../../src/domain/payouts/balance-decide';
import { payoutBalanceDecider } from '../../src/domain/payouts/balance-decider';

export type PlantedBug = 'refund-beyond-settled' | 'hold-kept-on-decline' | 'callback-skipped-after-store-error';

export const PLANTED_BUGS: readonly PlantedBug[] = ['refund-beyond-settled', 'hold-kept-on-decline', 'callback-skipped-after-store-error'];

export function plant(bug: PlantedBug): () => void {
  const sandbox = sinon.createSandbox();
  switch (bug) {
    case 'refund-beyond-settled': {
      // A refund decided as if nothing had been refunded before.
      const decide = paymentDecider.decide;
      sandbox.replace(paymentDecider, 'decide', (command: PaymentCommand, state: PaymentState) =>
        command.type === 'RequestCreditVoid' && state.exists ? decide(command, { ...state, refundedAmount: 0 }) : decide(command, state),
      );
      break;
    }
    case 'hold-kept-on-decline': {
      // The balance never hears that a payout was declined.
      const decide = payoutBalanceDecider.decide;
      sandbox.replace(payoutBalanceDecider, 'decide', (command: PayoutBalanceCommand, state) =>
        decide(
          command.type === 'RecordPayoutMovements' ? { ...command, data: { ...command.data, movements: command.data.movements.filter((m) => m.effect !== 'payout_declined') } } : command,
          state,
        ),
      );
      break;
    }
    case 'callback-skipped-after-store-error': {
      // A scheduling that fails once is taken as done, with nothing to send.
      type Retrying = (what: string, work: () => Promise<unknown>, untilMs?: number) => Promise<{ ok: boolean; value?: unknown }>;
      const proto = NotifierRuntime.prototype as unknown as { retrying: Retrying };
      const retrying = proto.retrying;
      sandbox.replace(proto, 'retrying', function (this: unknown, what: string, work: () => Promise<unknown>, untilMs?: number) {
        if (what !== 'scheduling') return retrying.call(this, what, work, untilMs);
        return work().then(
          (value) => ({ ok: true, value }),
          () => ({ ok: true, value: null }),
        );
      } as Retrying);
      break;
    }
    default: {
      const unknown: never = bug;
      throw new Error(`no planted bug ${String(unknown)}`);
    }
  }
  return () => sandbox.restore();
}
