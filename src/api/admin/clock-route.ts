/**
 * The sandbox test clock over the admin API:
 *   GET  /admin/clock                  the gateway's now and how far it runs ahead of real time
 *   POST /admin/clock/advance {"by":"30d"}  moves it forward, the scheduler catching up in order
 *   POST /admin/clock/reset            puts it back on real time
 * Production answers 403: its clock is real time only.
 */
import type Router from '@koa/router';
import type { TestClockControl } from '../../application/clock/test-clock-control';
import type { SandboxClock } from '../../application/clock/sandbox-clock';
import { MAX_ADVANCE_MS, parseClockDuration } from '../../domain/clock/sandbox-clock-events';
import { ApiError, errors } from '../errors';

export interface ClockAdminDeps {
  control: TestClockControl;
  clock: SandboxClock;
}

const unavailable = () => new ApiError(403, 100000, 'The test clock exists in the sandbox only.');

export function registerClockAdminRoutes(router: Router, deps: ClockAdminDeps): void {
  router.get('/clock', async (ctx) => {
    if (!deps.control.available) throw unavailable();
    await deps.control.sync();
    ctx.body = { result: 'SUCCESS', now: deps.clock.now().toISOString(), offset_ms: deps.clock.offsetMs };
  });
  router.post('/clock/advance', async (ctx) => {
    if (!deps.control.available) throw unavailable();
    const body = (ctx.request as { body?: unknown }).body as Record<string, unknown> | undefined;
    const by = body && typeof body === 'object' ? body.by : undefined;
    const ms = typeof by === 'string' ? parseClockDuration(by) : null;
    if (ms === null) {
      throw errors.invalid([
        errors.field('by', `Give a duration such as 30d, 12h, 90m, 45s or 2w, at most ${MAX_ADVANCE_MS / 86_400_000} days.`),
      ]);
    }
    const moved = await deps.control.advance(ms);
    ctx.body = {
      result: 'SUCCESS',
      from: moved.from,
      now: moved.to,
      offset_ms: moved.offsetMs,
      stops: moved.stops,
      payments_created: moved.charged,
      dates_skipped: moved.skipped,
      chains_ended: moved.ended,
    };
  });
  router.post('/clock/reset', async (ctx) => {
    if (!deps.control.available) throw unavailable();
    const reset = await deps.control.reset();
    ctx.body = { result: 'SUCCESS', from: reset.from, now: reset.to, offset_ms: deps.clock.offsetMs, previous_offset_ms: reset.previousOffsetMs };
  });
}
