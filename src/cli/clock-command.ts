/**
 * `clock show|advance|reset`: the sandbox test clock. `advance 30d` moves the gateway's notion of
 * now forward and runs the scheduler through every due date on the way, in order; `reset` puts it
 * back on real time. It works whether or not a server is running (a running one follows the new
 * time within a second). Production refuses.
 */
import { SandboxClock } from '../application/clock/sandbox-clock';
import { TestClockControl } from '../application/clock/test-clock-control';
import type { Gateway } from '../composition';
import { DomainError } from '../domain/errors';
import { MAX_ADVANCE_MS, formatClockOffset, parseClockDuration } from '../domain/clock/sandbox-clock-events';
import { print, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';

const SHOW = 'npm run gateway -- clock show [--json]';
const ADVANCE = 'npm run gateway -- clock advance <duration> [--json]';
const RESET = 'npm run gateway -- clock reset [--json]';
const DURATION = `  <duration>  30d, 12h, 90m, 45s, 2w or a combination such as 1d12h; at most ${MAX_ADVANCE_MS / 86_400_000} days`;
const JSON_FLAG = '  --json      print the result as JSON';

export const clockHelp: CommandHelp = {
  name: 'clock',
  summary: 'sandbox test clock: show it, move it forward (automatic payments made on the way), reset it',
  usage: [
    `usage: ${SHOW}`,
    `       ${ADVANCE}`,
    `       ${RESET}`,
    '',
    'The sandbox test clock. advance moves the gateway\'s now forward, stopping at every date a',
    'scheduled chain falls due so each automatic payment is made on its own date; reset puts the',
    'clock back on real time. Works with or without a running server. Refused in production.',
    '',
    DURATION,
    JSON_FLAG,
  ].join('\n'),
  subcommands: {
    show: [`usage: ${SHOW}`, '', 'The gateway\'s now and how far it runs ahead of real time.', '', JSON_FLAG].join('\n'),
    advance: [
      `usage: ${ADVANCE}`,
      '',
      'Moves the gateway\'s now forward; the scheduler makes every automatic payment due on the way,',
      'each on its own due date, in order.',
      '',
      DURATION,
      JSON_FLAG,
    ].join('\n'),
    reset: [
      `usage: ${RESET}`,
      '',
      'Puts the clock back on real time. Payments made at moved dates keep their dates; a chain pays',
      'its next date when real time reaches it, and no due date is ever charged twice.',
      '',
      JSON_FLAG,
    ].join('\n'),
  },
};

export async function clockCommand(p: Parsed): Promise<number> {
  const json = p.flags.get('json') === true;
  const sub = p.positional[1];
  if (sub !== 'show' && sub !== 'advance' && sub !== 'reset') throw usageError(clockHelp);
  let ms: number | null = null;
  if (sub === 'advance') {
    ms = parseClockDuration(p.positional[2] ?? '');
    if (ms === null) throw usageError(clockHelp, `Not a duration: "${p.positional[2] ?? ''}"`, 'advance');
  }
  try {
    return await withGateway(async (g) => {
      if (!g.testClock.available) {
        process.stderr.write('The test clock exists in the sandbox only; this gateway runs in production.\n');
        return 1;
      }
      if (sub === 'show') {
        await g.testClock.sync();
        const now = g.clock.now();
        const shown = { now: now.toISOString(), offset_ms: now.getTime() - Date.now() };
        print(shown, json, () => `Gateway time: ${shown.now} (${formatClockOffset(shown.offset_ms)} ahead of real time)`);
        return 0;
      }
      if (sub === 'reset') {
        const reset = await g.testClock.reset();
        const shown = { from: reset.from, now: reset.to, offset_ms: 0, previous_offset_ms: reset.previousOffsetMs };
        print(shown, json, () =>
          `Gateway time reset to real time (${reset.to}); it was ${formatClockOffset(reset.previousOffsetMs)} ahead.`,
        );
        return 0;
      }
      const moved = await cliTestClock(g).advance(ms!);
      print(moved, json, () =>
        [
          `Gateway time moved ${formatClockOffset(Date.parse(moved.to) - Date.parse(moved.from))} forward, from ${moved.from} to ${moved.to}.`,
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
