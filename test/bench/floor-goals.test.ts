import { expect } from 'chai';
import { floorGoals } from './floor-goals';

const latency = (p50: number, p99: number) => ({ p50, p99 });

describe('bench: the goals against the group-commit floor', function () {
  it('Given the gateway at 0.6 of the floor\'s SALE/s with twice its p99, when the goals are judged, then both saturation goals are met at their bounds', function () {
    const goals = floorGoals({
      saturation: { gateway: { requestsPerSec: 600, latencyMs: latency(5, 40) }, floor: { requestsPerSec: 1000, latencyMs: latency(3, 20) } },
      openLoop300: null,
      replay: null,
    });
    expect(goals.slice(0, 2).map((g) => [g.ratio, g.verdict])).to.deep.equal([
      [0.6, 'MET'],
      [2, 'MET'],
    ]);
    expect(goals.slice(2).map((g) => g.verdict)).to.deep.equal(['SKIPPED', 'SKIPPED', 'SKIPPED', 'SKIPPED']);
  });

  it('Given an open loop and a rebuild beyond their bounds, when the goals are judged, then each is missed with its ratio', function () {
    const goals = floorGoals({
      saturation: { gateway: { requestsPerSec: 100, latencyMs: latency(5, 41) }, floor: { requestsPerSec: 1000, latencyMs: latency(3, 20) } },
      openLoop300: { gateway: latency(3.1, 8.2), floor: latency(2, 4) },
      replay: { eventsPerSecond: 12_000, floorEventsPerSecond: 80_000 },
    });
    expect(goals.map((g) => [g.ratio, g.verdict])).to.deep.equal([
      [0.1, 'MISSED'],
      [2.05, 'MISSED'],
      [1.55, 'MISSED'],
      [2.05, 'MISSED'],
      [0.15, 'MISSED'],
      [12_000, 'MISSED'],
    ]);
  });

  it('Given a rebuild at 100,000 events/s and half the replay floor, when the goals are judged, then both rebuild goals are met and the rest are skipped', function () {
    const goals = floorGoals({ saturation: null, openLoop300: null, replay: { eventsPerSecond: 100_000, floorEventsPerSecond: 200_000 } });
    expect(goals.map((g) => g.verdict)).to.deep.equal(['SKIPPED', 'SKIPPED', 'SKIPPED', 'SKIPPED', 'MET', 'MET']);
    expect(goals.slice(4).map((g) => g.ratio)).to.deep.equal([0.5, 100_000]);
  });
});
