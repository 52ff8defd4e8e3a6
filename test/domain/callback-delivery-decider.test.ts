/**
 * Given the events of one callback delivery, when a command arrives, then these events (or this
 * refusal): when a callback may go out, what an HTTP outcome means, and when it is tried again.
 */
import { expect } from 'chai';
import { decideCallback } from '../../src/domain/callback-delivery/decide';
import type { CallbackEvent } from '../../src/domain/callback-delivery/events';
import { evolveDelivery, initialDeliveryState } from '../../src/domain/callback-delivery/state';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule } from '../../src/domain/callback-delivery/retry-schedule';
import { blockedUntil, DEFAULT_URL_BLOCK_POLICY } from '../../src/domain/callback-delivery/url-block';
import { DeciderSpecification } from '../support/decider-spec';

const spec = DeciderSpecification.for({ decide: decideCallback, evolve: evolveDelivery, initialState: initialDeliveryState });
const ID = '6f1c2a4e-8a7b-5c3d-9e1f-0a1b2c3d4e5f';
const T0 = '2026-11-22T10:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const MIN = 60_000;
const SCHEDULE = [1 * MIN, 5 * MIN];

const scheduled: CallbackEvent = {
  type: 'CallbackScheduled',
  data: {
    deliveryId: ID,
    paymentId: 'p-1',
    merchantId: 'm-1',
    sourceEventId: 'e-1',
    sourceEventType: 'PaymentSettled',
    url: 'https://merchant.example/callback',
    contentType: 'application/x-www-form-urlencoded',
    body: 'action=SALE&result=SUCCESS',
    scheduledAt: T0,
  },
};
const started = (attempt: number, ms: number): CallbackEvent => ({
  type: 'CallbackAttemptStarted',
  data: { deliveryId: ID, attempt, startedAt: at(ms), leaseUntil: at(ms + 40_000) },
});
const failed = (attempt: number, ms: number, nextMs: number | null, statusCode: number | null = 500): CallbackEvent => ({
  type: 'CallbackAttemptFailed',
  data: {
    deliveryId: ID,
    attempt,
    statusCode,
    latencyMs: 12,
    error: null,
    timedOut: false,
    failedAt: at(ms),
    nextAttemptAt: nextMs === null ? null : at(nextMs),
  },
});
const result = (attempt: number, statusCode: number | null, ms: number, extra: { timedOut?: boolean; error?: string } = {}) => ({
  type: 'RecordCallbackResult' as const,
  data: {
    attempt,
    statusCode,
    latencyMs: 12,
    error: extra.error ?? null,
    timedOut: extra.timedOut ?? false,
    now: at(ms),
    retryScheduleMs: SCHEDULE,
  },
});
const start = (ms: number) => ({ type: 'StartCallbackAttempt' as const, data: { now: at(ms), leaseMs: 40_000, retryScheduleMs: SCHEDULE } });

describe('callback delivery decider', () => {
  describe('scheduling', () => {
    const schedule = (startNow: boolean) => ({
      type: 'ScheduleCallback' as const,
      data: { ...scheduled.data, now: T0, startNow, leaseMs: 40_000 },
    });

    it('records the body and claims the first attempt in the same decision', () => {
      spec.given([]).when(schedule(true)).then([
        { ...scheduled, data: { ...scheduled.data } },
        started(1, 0),
      ]);
    });

    it('only schedules when the URL is blocked, so the delivery waits', () => {
      spec.given([]).when(schedule(false)).then([scheduled]);
    });

    it('is a no-op when another notifier already scheduled it', () => {
      spec.given([scheduled]).when(schedule(true)).then([]);
    });
  });

  describe('outcomes', () => {
    it('any 2xx is delivered', () => {
      spec.given([scheduled, started(1, 0)]).when(result(1, 204, 50)).then([
        { type: 'CallbackDelivered', data: { deliveryId: ID, attempt: 1, statusCode: 204, latencyMs: 12, deliveredAt: at(50) } },
      ]);
    });

    it('a 500 fails the attempt and schedules the first retry one schedule step later', () => {
      spec.given([scheduled, started(1, 0)]).when(result(1, 500, 50)).then([failed(1, 50, 50 + 1 * MIN)]);
    });

    it('a 3xx is a failure too: redirects are not followed', () => {
      spec.given([scheduled, started(1, 0)]).when(result(1, 302, 50)).then([failed(1, 50, 50 + 1 * MIN, 302)]);
    });

    it('a timeout is recorded as such', () => {
      spec
        .given([scheduled, started(1, 0)])
        .when(result(1, null, 10_000, { timedOut: true, error: 'no answer within 10000 ms' }))
        .then([
          {
            type: 'CallbackAttemptFailed',
            data: {
              deliveryId: ID,
              attempt: 1,
              statusCode: null,
              latencyMs: 12,
              error: 'no answer within 10000 ms',
              timedOut: true,
              failedAt: at(10_000),
              nextAttemptAt: at(10_000 + MIN),
            },
          },
        ]);
    });

    it('the second failure waits the second step', () => {
      spec
        .given([scheduled, started(1, 0), failed(1, 50, 50 + MIN), started(2, 50 + MIN)])
        .when(result(2, 503, 100 + MIN))
        .then([failed(2, 100 + MIN, 100 + MIN + 5 * MIN, 503)]);
    });

    it('after the last step of the schedule the delivery has failed for good', () => {
      spec
        .given([scheduled, started(1, 0), failed(1, 1, MIN), started(2, MIN), failed(2, MIN + 1, 6 * MIN), started(3, 6 * MIN)])
        .when(result(3, 500, 6 * MIN + 1))
        .then([failed(3, 6 * MIN + 1, null), { type: 'CallbackFailed', data: { deliveryId: ID, attempts: 3, failedAt: at(6 * MIN + 1) } }]);
    });

    it('the default schedule retries ten times over about 2.3 days', () => {
      expect(DEFAULT_RETRY_SCHEDULE_MS).to.have.length(10);
      const days = DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0) / 86_400_000;
      expect(days).to.be.within(2.2, 2.4);
    });
  });

  describe('starting attempts', () => {
    it('a due retry may start', () => {
      spec.given([scheduled, started(1, 0), failed(1, 50, MIN)]).when(start(MIN)).then([started(2, MIN)]);
    });

    it('a retry that is not due yet is refused', () => {
      spec.given([scheduled, started(1, 0), failed(1, 50, MIN)]).when(start(MIN - 1)).thenThrows('callback_not_due');
    });

    it('an attempt in progress cannot be claimed twice', () => {
      spec.given([scheduled, started(1, 0)]).when(start(1_000)).thenThrows('callback_in_flight');
    });

    it('an attempt whose sender vanished is recorded as interrupted once its lease ran out, and sent again', () => {
      spec
        .given([scheduled, started(1, 0)])
        .when(start(40_000))
        .then([
          {
            type: 'CallbackAttemptFailed',
            data: {
              deliveryId: ID,
              attempt: 1,
              statusCode: null,
              latencyMs: null,
              error: 'interrupted: no outcome was recorded before the attempt lease ran out',
              timedOut: false,
              failedAt: at(40_000),
              nextAttemptAt: at(40_000),
            },
          },
          started(2, 40_000),
        ]);
    });

    it('a delivered callback is never sent again on its own', () => {
      spec
        .given([scheduled, started(1, 0), { type: 'CallbackDelivered', data: { deliveryId: ID, attempt: 1, statusCode: 200, latencyMs: 5, deliveredAt: at(5) } }])
        .when(start(10 * MIN))
        .thenThrows('callback_not_due');
    });
  });

  describe('redelivery', () => {
    const redeliver = { type: 'RequestRedelivery' as const, data: { now: at(3 * 86_400_000), requestedBy: 'cli ops' } };
    const gaveUp: CallbackEvent = { type: 'CallbackFailed', data: { deliveryId: ID, attempts: 3, failedAt: at(2 * 86_400_000) } };

    it('an operator may send a failed callback again, with a fresh retry schedule', () => {
      spec
        .given([scheduled, started(1, 0), failed(1, 1, null), gaveUp])
        .when(redeliver)
        .thenState({ status: 'pending', nextAttemptAt: at(3 * 86_400_000), failuresInRound: 0 } as never);
    });

    it('an operator may send a delivered callback again', () => {
      spec
        .given([scheduled, started(1, 0), { type: 'CallbackDelivered', data: { deliveryId: ID, attempt: 1, statusCode: 200, latencyMs: 5, deliveredAt: at(5) } }])
        .when(redeliver)
        .then([{ type: 'CallbackRedeliveryRequested', data: { deliveryId: ID, requestedBy: 'cli ops', requestedAt: at(3 * 86_400_000) } }]);
    });

    it('not while an attempt is in progress', () => {
      spec.given([scheduled, started(1, 0)]).when(redeliver).thenThrows('callback_in_flight');
    });

    it('an unknown delivery is not found', () => {
      spec.given([]).when(redeliver).thenThrows('callback_not_found');
    });
  });
});

describe('blocked callback URLs', () => {
  const policy = DEFAULT_URL_BLOCK_POLICY;
  const t = (min: number) => Date.parse(T0) + min * MIN;

  it('five timeouts within five minutes block the URL for fifteen minutes from the fifth', () => {
    const timeouts = [0, 1, 2, 3, 4].map(t);
    expect(blockedUntil(timeouts, t(4), policy)).to.equal(t(19));
    expect(blockedUntil(timeouts, t(18.9), policy)).to.equal(t(19));
    expect(blockedUntil(timeouts, t(19), policy)).to.equal(null);
  });

  it('four timeouts, or five spread over more than five minutes, do not', () => {
    expect(blockedUntil([0, 1, 2, 3].map(t), t(4), policy)).to.equal(null);
    expect(blockedUntil([0, 2, 4, 6, 8].map(t), t(8), policy)).to.equal(null);
  });
});

describe('retry schedule setting', () => {
  it('reads durations with units', () => {
    expect(parseRetrySchedule('30s,2m,1h,1d')).to.deep.equal([30_000, 120_000, 3_600_000, 86_400_000]);
  });
  it('refuses anything else', () => {
    for (const bad of ['', '5', '1m,,2m', '-1m', '1w', '0s']) expect(parseRetrySchedule(bad), bad).to.equal(null);
  });
});
