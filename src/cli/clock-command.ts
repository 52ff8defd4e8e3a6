/**
 * `clock show|advance <duration> [--json]`: the sandbox test clock. `advance 30d` moves the
 * gateway's notion of now forward and runs the scheduler through every due date on the way, in
 * order (it works whether or not a server is running; a running one follows the new time within
 * a second). Production refuses.
 */
import { DomainError } from '../domain/errors';
import { MAX_ADVANCE_MS, parseClockDuration } from '../domain/clock/sandbox-clock-events';
import { SandboxClock } from '../application/clock/sandbox-clock';
import { TestClockControl } from '../application/clock/test-clock-control';
import type { Gateway } from '../composition';
import { UsageError, print, withGateway, type Parsed } from './args';

const USAGE = 'usage: clock show | clock advance <duration: 30d, 12h, 90m, 45s, 2w, 1d12h> [--json]';

export async function clockCommand(p: Parsed): Promise<number> {
  const json = p.flags.get('json') === true;
  const sub = p.positional[1];
  if (sub !== 'show' && sub !== 'advance') throw new UsageError(USAGE);
  let ms: number | null = null;
  if (sub === 'advance') {
    ms = parseClockDuration(p.positional[2] ?? '');
    if (ms === null) throw new UsageError(`${USAGE}\n(at most ${MAX_ADVANCE_MS / 86_400_000} days in one move)`);
  }
  try {
    return await withGateway(async (g) => {
      if (!g.testClock.available) {
        process.stderr.write('The test clock exists in the sandbox only; this gateway runs in production.\n');
        return 1;
      }
      if (ms === null) {
        await g.testClock.sync();
        const now = g.clock.now();
        const shown = { now: now.toISOString(), offset_ms: now.getTime() - Date.now() };
        print(shown, json, () => `Gateway time: ${shown.now} (${formatOffset(shown.offset_ms)} ahead of real time)`);
        return 0;
      }
      const moved = await cliTestClock(g).advance(ms);
      print(moved, json, () =>
        [
          `Gateway time moved ${formatOffset(Date.parse(moved.to) - Date.parse(moved.from))} forward, from ${moved.from} to ${moved.to}.`,
          `Stopped at ${moved.stops} due date(s): ${moved.charged} scheduled payment(s) made, ${moved.skipped} date(s) skipped, ${moved.ended} chain(s) ended.`,
        ].join('\n'),
      );
      return 0;
    });
  } catch (error) {
    if (error instanceof DomainError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/**
 * The test clock as the CLI drives it. No process projects for the CLI while it runs (a server may
 * or may not be there), so at each stop it brings the read models up to date itself before asking
 * for the next due date; waiting for a projector instead would wait out a timeout per date and then
 * read dates the charges just made have already moved on from. Next to a running server both project
 * the same events, and the projector's checkpoints let whichever comes second skip them.
 */
function cliTestClock(g: Gateway): TestClockControl {
  if (!(g.clock instanceof SandboxClock)) return g.testClock;
  const projector = g.projector;
  if (!projector) throw new Error('the clock command needs a gateway that projects');
  return new TestClockControl({
    store: g.store,
    clock: g.clock,
    environment: g.config.environment,
    logger: g.logger,
    scheduler: g.scheduler,
    async earliestDueDateAfter(date) {
      await projector.catchUp();
      return g.readModels.earliestDueDateAfter(date);
    },
  });
}

function formatOffset(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  const hours = Math.floor((ms % 86_400_000) / 3_600_000);
  const minutes = Math.round((ms % 3_600_000) / 60_000);
  return `${days}d ${hours}h ${minutes}m`;
}
