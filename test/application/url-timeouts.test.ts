/**
 * Which timeouts of a URL a notifier counts when it decides whether the URL is blocked
 * (docs/callbacks.md#delivery-guarantees: five timeouts within five minutes block it for fifteen).
 * Requests that hang together time out together: every timeout counts, whatever its time.
 */
import { expect } from 'chai';
import { UrlTimeouts } from '../../src/application/callbacks/url-timeouts';
import type { NotifierSettings } from '../../src/application/callbacks/notifier-deps';
import type { TimedOutAttempt } from '../../src/application/ports/callback-deliveries-read-model';
import { DEFAULT_URL_BLOCK_POLICY } from '../../src/domain/callback-delivery/url-block';

const URL = 'https://merchant.example/callbacks';
const AT = Date.parse('2026-03-02T10:00:00.000Z');
const FIFTEEN_MINUTES = 15 * 60_000;

const settings: NotifierSettings = {
  timeoutMs: 10_000,
  retryScheduleMs: [60_000],
  blockPolicy: DEFAULT_URL_BLOCK_POLICY,
  pollMs: 100,
  maxInFlight: 10,
};

/** A notifier's view of the URL, with `recorded` being what the read model holds. */
function timeoutsWith(recorded: TimedOutAttempt[] = []): UrlTimeouts {
  return new UrlTimeouts(settings, {
    due: async () => [],
    timeoutsSince: async (url, sinceIso) => recorded.filter((t) => url === URL && t.finished_at >= sinceIso),
  });
}

const recordedAt = (deliveryId: string, at: number): TimedOutAttempt => ({ delivery_id: deliveryId, attempt: 1, finished_at: new Date(at).toISOString() });

describe('Timeouts counted towards blocking a callback URL', () => {
  it('Given five timeouts noted at one and the same instant, when asked, then the URL is blocked for fifteen minutes', () => {
    const timeouts = timeoutsWith();
    for (const id of ['d1', 'd2', 'd3', 'd4', 'd5']) timeouts.note(URL, { deliveryId: id, attempt: 1 }, AT);

    expect(timeouts.blockedUntil(URL, AT)).to.equal(AT + FIFTEEN_MINUTES);
    expect(timeouts.blocked(AT)).to.deep.equal([{ url: URL, until: new Date(AT + FIFTEEN_MINUTES).toISOString() }]);
  });

  it('Given five timeouts other notifiers recorded at one and the same instant, when refreshed, then the URL is blocked', async () => {
    const timeouts = timeoutsWith(['d1', 'd2', 'd3', 'd4', 'd5'].map((id) => recordedAt(id, AT)));

    await timeouts.refresh(URL, AT);

    expect(timeouts.blockedUntil(URL, AT)).to.equal(AT + FIFTEEN_MINUTES);
  });

  it('Given three timeouts noted here and two recorded elsewhere at the same instant, when refreshed, then all five count', async () => {
    const timeouts = timeoutsWith([recordedAt('d4', AT), recordedAt('d5', AT)]);
    for (const id of ['d1', 'd2', 'd3']) timeouts.note(URL, { deliveryId: id, attempt: 1 }, AT);

    await timeouts.refresh(URL, AT);

    expect(timeouts.blockedUntil(URL, AT)).to.equal(AT + FIFTEEN_MINUTES);
  });

  it('Given four timeouts noted here that the read model holds too, when refreshed, then each counts once and the URL is not blocked', async () => {
    const ids = ['d1', 'd2', 'd3', 'd4'];
    const timeouts = timeoutsWith(ids.map((id, i) => recordedAt(id, AT + i)));
    ids.forEach((id, i) => timeouts.note(URL, { deliveryId: id, attempt: 1 }, AT + i));

    await timeouts.refresh(URL, AT + 10);

    expect(timeouts.blockedUntil(URL, AT + 10)).to.equal(null);
  });

  it('Given two attempts of one delivery timing out at the same instant, when asked, then both count', () => {
    const timeouts = timeoutsWith();
    timeouts.note(URL, { deliveryId: 'd1', attempt: 1 }, AT);
    timeouts.note(URL, { deliveryId: 'd1', attempt: 2 }, AT);
    for (const id of ['d2', 'd3', 'd4']) timeouts.note(URL, { deliveryId: id, attempt: 1 }, AT);

    expect(timeouts.blockedUntil(URL, AT)).to.equal(AT + FIFTEEN_MINUTES);
  });

  it('Given five timeouts spread over a little more than five minutes, when asked, then the URL is not blocked', () => {
    const timeouts = timeoutsWith();
    const times = [AT, AT + 60_000, AT + 120_000, AT + 180_000, AT + 5 * 60_000 + 1];
    times.forEach((at, i) => timeouts.note(URL, { deliveryId: `d${i}`, attempt: 1 }, at));

    expect(timeouts.blockedUntil(URL, times[4])).to.equal(null);
  });

  it('Given a URL blocked by five timeouts, when fifteen minutes have passed since the last, then it is no longer blocked', () => {
    const timeouts = timeoutsWith();
    for (const id of ['d1', 'd2', 'd3', 'd4', 'd5']) timeouts.note(URL, { deliveryId: id, attempt: 1 }, AT);

    expect(timeouts.blockedUntil(URL, AT + FIFTEEN_MINUTES - 1)).to.equal(AT + FIFTEEN_MINUTES);
    expect(timeouts.blockedUntil(URL, AT + FIFTEEN_MINUTES)).to.equal(null);
  });
});
