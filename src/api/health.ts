/**
 * `GET /health` for operators and load balancers: the event store answers, and how far each read
 * model is behind it (in events). 503 when the event store cannot be reached. In the sandbox it also
 * says where the test clock stands, so a moved clock is never a surprise.
 */
import type Router from '@koa/router';
import type { EventStore } from '../application/ports/event-store';

export interface HealthDeps {
  store: EventStore;
  readModels: { checkpoints(): Promise<Record<string, bigint>> };
  /** The sandbox's movable clock; absent in production. */
  sandboxClock?: { now(): Date; offsetMs: number } | null;
}

export function registerHealthRoute(router: Router, deps: HealthDeps): void {
  const clock = () =>
    deps.sandboxClock
      ? { sandbox_clock: { offset_seconds: Math.floor(deps.sandboxClock.offsetMs / 1000), now: deps.sandboxClock.now().toISOString() } }
      : {};
  router.get('/health', async (ctx) => {
    let head: bigint | null;
    try {
      head = await deps.store.headPosition();
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', event_store: 'unreachable' };
      return;
    }
    const lag: Record<string, number> = {};
    try {
      for (const [name, position] of Object.entries(await deps.readModels.checkpoints())) {
        lag[name] = head === null ? 0 : Number(head - position);
      }
    } catch {
      // Read models unreachable: payments still work, lookups will wait; report it, stay up.
      ctx.body = { status: 'degraded', event_store_head: head?.toString() ?? null, read_models: 'unreachable', ...clock() };
      return;
    }
    ctx.body = { status: 'ok', event_store_head: head?.toString() ?? null, projection_lag: lag, ...clock() };
  });
}
