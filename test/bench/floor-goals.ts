/**
 * The goals set against the group-commit floor (group-commit-floor-server.ts and, for the replay,
 * reading every event and writing one row per event): each one a ratio of figures measured in the
 * same run, so a busy machine slows both sides alike and the verdict still holds.
 */

export interface FloorGoal {
  name: string;
  /** The gateway's figure over the floor's. */
  ratio: number | null;
  comparator: '>=' | '<=';
  target: number;
  /** The two figures the ratio came from, as printed. */
  detail: string;
  verdict: 'MET' | 'MISSED' | 'SKIPPED';
}

interface Latency {
  p50: number;
  p99: number;
}

export interface FloorGoalInputs {
  /** Saturation at 64 connections; null when the run left it out. */
  saturation: { gateway: { requestsPerSec: number; latencyMs: Latency }; floor: { requestsPerSec: number; latencyMs: Latency } } | null;
  /** Open loop at 300/s; null when the run left it out. */
  openLoop300: { gateway: Latency; floor: Latency } | null;
  /** Full rebuild and the replay floor, events/s; null when the run left it out. */
  replay: { eventsPerSecond: number; floorEventsPerSecond: number } | null;
}

/** The least a full rebuild must reach on a quiet machine, whatever the floor. */
export const REBUILD_EVENTS_PER_SECOND_GOAL = 100_000;

export function floorGoals(input: FloorGoalInputs): FloorGoal[] {
  const { saturation: s, openLoop300: o, replay: r } = input;
  return [
    s ? goal('saturation, 64 connections: SALE/s, gateway / floor', s.gateway.requestsPerSec, s.floor.requestsPerSec, '>=', 0.6, 'SALE/s') : skipped('saturation, 64 connections: SALE/s, gateway / floor', '>=', 0.6),
    s ? goal('saturation, 64 connections: p99, gateway / floor', s.gateway.latencyMs.p99, s.floor.latencyMs.p99, '<=', 2, 'ms') : skipped('saturation, 64 connections: p99, gateway / floor', '<=', 2),
    o ? goal('open loop 300/s: p50, gateway / floor', o.gateway.p50, o.floor.p50, '<=', 1.5, 'ms') : skipped('open loop 300/s: p50, gateway / floor', '<=', 1.5),
    o ? goal('open loop 300/s: p99, gateway / floor', o.gateway.p99, o.floor.p99, '<=', 2, 'ms') : skipped('open loop 300/s: p99, gateway / floor', '<=', 2),
    r ? goal('full rebuild: events/s, gateway / replay floor', r.eventsPerSecond, r.floorEventsPerSecond, '>=', 0.5, 'events/s') : skipped('full rebuild: events/s, gateway / replay floor', '>=', 0.5),
    r ? atLeast('full rebuild: events/s (on a quiet machine)', r.eventsPerSecond, REBUILD_EVENTS_PER_SECOND_GOAL, 'events/s') : skipped('full rebuild: events/s (on a quiet machine)', '>=', REBUILD_EVENTS_PER_SECOND_GOAL),
  ];
}

function goal(name: string, gateway: number, floor: number, comparator: '>=' | '<=', target: number, unit: string): FloorGoal {
  const ratio = floor > 0 ? Math.round((gateway / floor) * 1000) / 1000 : null;
  const met = ratio !== null && (comparator === '>=' ? ratio >= target : ratio <= target);
  return { name, ratio, comparator, target, detail: `gateway ${fmt(gateway)} ${unit}, floor ${fmt(floor)} ${unit}`, verdict: met ? 'MET' : 'MISSED' };
}

/** A figure against a bound of its own, not a ratio: the ratio column shows the figure. */
function atLeast(name: string, measured: number, target: number, unit: string): FloorGoal {
  return { name, ratio: measured, comparator: '>=', target, detail: `gateway ${fmt(measured)} ${unit}`, verdict: measured >= target ? 'MET' : 'MISSED' };
}

function skipped(name: string, comparator: '>=' | '<=', target: number): FloorGoal {
  return { name, ratio: null, comparator, target, detail: 'not measured in this run', verdict: 'SKIPPED' };
}

function fmt(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** One line per goal: the ratio, the target, MET or MISSED, and the figures beside it. */
export function formatFloorGoals(goals: FloorGoal[]): string[] {
  const width = Math.max(...goals.map((g) => g.name.length));
  return goals.map(
    (g) => `  ${g.name.padEnd(width)}   ${(g.ratio === null ? '-' : Number.isInteger(g.ratio) ? fmt(g.ratio) : g.ratio.toFixed(3)).padStart(7)}   ${g.comparator} ${String(g.target).padEnd(3)}   ${g.verdict.padEnd(7)}   ${g.detail}`,
  );
}
