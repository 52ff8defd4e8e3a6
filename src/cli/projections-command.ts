/**
 * `projections rebuild [name...]` replays projections from position zero into fresh tables and
 * swaps them in while status lookups keep answering; `projections verify [name...]` replays them
 * into scratch tables and diffs those against the live ones, row by row (exit 1 on a difference).
 */
import { allProjections } from '../../projections';
import { RebuildError, rebuildProjections, verifyProjections, type ProjectionDifference } from '../../projections/rebuild';
import { print, UsageError, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';
import { startProgress } from './progress';

const REBUILD = 'npm run gateway -- projections rebuild [name...] [--json]';
const VERIFY = 'npm run gateway -- projections verify [name...] [--json]';
const NAMES = `  name    one of ${allProjections().map((p) => p.name).join(', ')} (default: all)`;

export const projectionsHelp: CommandHelp = {
  name: 'projections',
  summary: 'replay read models into fresh tables and swap them in, or diff them against the events',
  usage: [
    `usage: ${REBUILD}`,
    `       ${VERIFY}`,
    '',
    '  rebuild  replay from the first event into scratch tables, then swap them in (server may run)',
    '  verify   replay into scratch tables up to the live checkpoints and diff them row by row',
    NAMES,
    '  --json   print JSON',
  ].join('\n'),
  subcommands: {
    rebuild: [`usage: ${REBUILD}`, '', 'Replays from the first event into scratch tables, then swaps them in.', '', NAMES, '  --json   print JSON'].join('\n'),
    verify: [`usage: ${VERIFY}`, '', 'Diffs the read models against a replay; exit 1 on a difference.', '', NAMES, '  --json   print JSON'].join('\n'),
  },
};

const MAX_REPORTED_DIFFERENCES = 10_000;

export async function projectionsCommand(p: Parsed): Promise<number> {
  const sub = p.positional[1];
  const names = p.positional.slice(2);
  const json = p.flags.get('json') === true;
  const known = allProjections().map((projection) => projection.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new UsageError(`Unknown projection ${unknown.join(', ')}; known: ${known.join(', ')}`);
  try {
    switch (sub) {
      case 'rebuild':
        await rebuild(names, json);
        return 0;
      case 'verify':
        return await verify(names, json);
      default:
        throw usageError(projectionsHelp);
    }
  } catch (error) {
    if (error instanceof RebuildError) throw new UsageError(error.message);
    throw error;
  }
}

async function rebuild(names: string[], json: boolean): Promise<void> {
  const result = await withGateway(async (g) => {
    // Positions run with the events on SQLite and PostgreSQL: the head tells how far there is to go.
    const head = await g.store.headPosition();
    const progress = startProgress({ label: 'Replaying', unit: 'events', json });
    try {
      return await rebuildProjections({
        store: g.store,
        db: g.readDb,
        names,
        onProgress: (replayed, position) => progress.update(replayed, head ? Number(position) / Number(head) : null),
      });
    } finally {
      progress.finish();
    }
  }, { project: false });
  const seconds = result.totalMs / 1000;
  const perSecond = seconds > 0 ? Math.round(result.events / seconds) : 0;
  const out = {
    projections: result.projections,
    position: result.position === null ? null : result.position.toString(),
    events: result.events,
    seconds: Math.round(seconds * 1000) / 1000,
    events_per_second: perSecond,
    replay_ms: Math.round(result.replayMs),
    swap_ms: Math.round(result.swapMs),
  };
  print(out, json, () =>
    `Rebuilt ${result.projections.join(', ')} from ${result.events} events in ${seconds.toFixed(1)} s ` +
    `(${perSecond} events/s; swap ${Math.round(result.swapMs)} ms); checkpoints at ${out.position ?? 'the start'}.`,
  );
}

async function verify(names: string[], json: boolean): Promise<number> {
  const differences = await withGateway((g) =>
    verifyProjections({ store: g.store, db: g.readDb, names, maxDifferences: MAX_REPORTED_DIFFERENCES }),
    { project: false },
  );
  const truncated = differences.length >= MAX_REPORTED_DIFFERENCES;
  print({ ok: differences.length === 0, truncated, differences }, json, () =>
    differences.length === 0
      ? 'OK'
      : [
          ...differences.map(describe),
          `${differences.length}${truncated ? '+' : ''} difference${differences.length === 1 ? '' : 's'} between the live read models and a replay of the events.`,
        ].join('\n'),
  );
  return differences.length === 0 ? 0 : 1;
}

function describe(d: ProjectionDifference): string {
  const key = Object.entries(d.key)
    .map(([column, value]) => `${column}=${value ?? 'null'}`)
    .join(',');
  switch (d.kind) {
    case 'missing':
      return `${d.table} ${key}: missing from the live table (the events produce it)`;
    case 'extra':
      return `${d.table} ${key}: in the live table, but the events do not produce it`;
    case 'changed':
      return `${d.table} ${key}: ${d.column} live ${JSON.stringify(d.live)}, rebuilt ${JSON.stringify(d.rebuilt)}`;
    default: {
      const unreachable: never = d;
      return unreachable;
    }
  }
}
