/** The requests one seeded payment goes through, scenario by scenario, with their simulated times and event counts. */
import { sandboxThreeDSResult, SANDBOX_DECLINE_REASONS } from '../../adapters/connectors/sandbox';
import type { AuthorizationResult } from '../../domain/payment/commands';
import type { PaymentKind } from '../../domain/payment/events';
import { BROWSER, challenge, redirect, success } from './acquirer-answers';
import { capture, refund, voidSale } from './follow-ups';
import type { Scenario } from './scenarios';
import type { InitiatePayment, Step } from './seeded-payment';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface PlanTools {
  between(low: number, high: number): number;
  brand: string;
}

/** What every scenario's plan is made from. */
interface PlanContext {
  amount: number;
  currency: string;
  kind: PaymentKind;
  initiate: InitiatePayment;
  brand: string;
  /** The SALE request: the intent, then the acquirer's first answer. */
  sale(answer: AuthorizationResult): Step;
  /** The SALE request answered with a 3-D Secure challenge. */
  challenged(): Step;
  /** A request between `min` and `max` ms after the SALE. */
  later(min: number, max: number, events: number, commands: Step['commands']): Step;
}

/** After a challenge: the payer comes back from 3-D Secure, and the acquirer answers. */
const threeDS = (approved: boolean) => (c: PlanContext): Step[] => [
  c.challenged(),
  c.later(20_000, 3 * MINUTE, 1, (_p, now) => [
    {
      type: 'CompletePayerAction',
      data: {
        threeDS: sandboxThreeDSResult(approved, c.brand),
        browser: BROWSER,
        result: approved ? success(c.kind) : { outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.threeDsFailed },
        now,
      },
    },
  ]),
];

/** After a redirect: the payer comes back from the payer page, and the acquirer answers. */
const redirected = (approved: boolean) => (c: PlanContext): Step[] => [
  c.sale(redirect(c.initiate.data.paymentId)),
  c.later(20_000, 4 * MINUTE, 1, (_p, now) => [
    {
      type: 'CompletePayerAction',
      data: { browser: BROWSER, result: approved ? success(c.kind) : { outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.redirectFailed }, now },
    },
  ]),
];

const PLANS: Readonly<Record<Scenario, (c: PlanContext) => Step[]>> = {
  sale: (c) => [c.sale(success(c.kind))],
  sale_refund: (c) => [c.sale(success(c.kind)), c.later(2 * HOUR, 48 * HOUR, 2, refund(c.amount, c.currency))],
  sale_partial_refunds: (c) => {
    const first = Math.max(1, Math.floor(c.amount / 3));
    return [c.sale(success(c.kind)), c.later(1 * HOUR, 12 * HOUR, 2, refund(first, c.currency)), c.later(13 * HOUR, 40 * HOUR, 2, refund(first, c.currency))];
  },
  sale_void: (c) => [c.sale(success(c.kind)), c.later(5 * MINUTE, 3 * HOUR, 2, voidSale())],
  sale_declined: (c) => [c.sale({ outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.issuer })],
  auth_capture: (c) => [c.sale(success(c.kind)), c.later(10 * MINUTE, 24 * HOUR, 2, capture(null, c.currency, 'success'))],
  auth_partial_capture: (c) => [
    c.sale(success(c.kind)),
    c.later(10 * MINUTE, 24 * HOUR, 2, capture(Math.max(1, Math.floor(c.amount * 0.8)), c.currency, 'success')),
  ],
  auth_capture_declined: (c) => [c.sale(success(c.kind)), c.later(10 * MINUTE, 24 * HOUR, 2, capture(null, c.currency, 'declined'))],
  auth_reversal: (c) => [c.sale(success(c.kind)), c.later(30 * MINUTE, 36 * HOUR, 2, refund(c.amount, c.currency))],
  '3ds_settled': threeDS(true),
  '3ds_declined': threeDS(false),
  '3ds_abandoned': (c) => [
    c.challenged(),
    c.later(15 * MINUTE, 16 * MINUTE, 1, (_p, now) => [{ type: 'ExpirePayerAction', data: { now, reason: 'Payer did not complete 3-D Secure in time' } }]),
  ],
  redirect_settled: redirected(true),
  redirect_declined: redirected(false),
  outcome_unknown: (c) => [
    c.sale({ outcome: 'unknown', detail: 'acquirer call failed' }),
    // The reconciler asks the acquirer 30 s later and records what it says.
    c.later(30_000, 60_000, 1, (_p, now) => [{ type: 'RecordAuthorization', data: { result: success(c.kind), now } }]),
  ],
};

/** The requests one payment goes through, with their simulated times and event counts. */
export function plan(scenario: Scenario, at: number, amount: number, currency: string, initiate: InitiatePayment, { between, brand }: PlanTools): Step[] {
  const started = (answer: (p: Parameters<Step['commands']>[0]) => AuthorizationResult): Step => ({
    at,
    events: 2,
    commands: (p, now) => [
      { ...initiate, data: { ...initiate.data, now } },
      { type: 'RecordAuthorization', data: { result: answer(p), now } },
    ],
  });
  return PLANS[scenario]({
    amount,
    currency,
    kind: initiate.data.kind,
    initiate,
    brand,
    sale: (answer) => started(() => answer),
    challenged: () => started(challenge),
    later: (min, max, events, commands) => ({ at: at + between(min, max), events, commands }),
  });
}
