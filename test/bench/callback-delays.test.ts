import { expect } from 'chai';
import { callbackDelays } from './callbacks';

describe('bench: where a callback\'s delay goes', function () {
  it('Given callbacks of which one was scheduled late and another sent late, then the delay and each leg show which', function () {
    const callbacks = Array.from({ length: 100 }, (_, i) => {
      const settledAt = 1_000 * i;
      const scheduledAt = settledAt + (i === 99 ? 100 : 10);
      return { settledAt, scheduledAt, arrivedAt: scheduledAt + (i === 50 ? 70 : 20) };
    });
    const delays = callbackDelays(callbacks);

    expect(delays.total).to.deep.equal({ p50: 30, p90: 30, p99: 80, max: 120, count: 100 });
    expect(delays.scheduling).to.deep.equal({ p50: 10, p90: 10, p99: 10, max: 100, count: 100 });
    expect(delays.sending).to.deep.equal({ p50: 20, p90: 20, p99: 20, max: 70, count: 100 });
  });
});
