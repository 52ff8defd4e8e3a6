/**
 * `audit verify [--json]`: walks the whole event log of the configured store (EVENT_STORE,
 * DATABASE_URL, ESDB_URL, DATA_DIR as everywhere else) and reports the first broken link; exits 1
 * when there is one.
 * `audit checkpoint [--json]`: records a checkpoint now if the log moved since the last one (the
 * server does this every AUDIT_CHECKPOINT_INTERVAL_SECONDS).
 *
 * Both open the store as written, without a gateway: no read models, no vault key needed.
 */
import { CheckpointRecorder } from '../application/audit/checkpoint-recorder';
import { type AuditReport, describeBroken, verifyEventLog } from '../application/audit/verifier';
import { systemClock } from '../application/ports/clock';
import type { EventStore } from '../application/ports/event-store';
import { loadConfig, type GatewayConfig } from '../config';
import { print, requireGatewayData, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';
import { startProgress } from './progress';

export const auditHelp: CommandHelp = {
  name: 'audit',
  summary: "check the event log's hash chains and checkpoints, or record a checkpoint now",
  usage: [
    'usage: npm run gateway -- audit verify [--json]',
    '       npm run gateway -- audit checkpoint [--json]',
    '',
    '  verify      walk the whole event log; print the first broken link and exit 1, or OK and the',
    '              newest checkpoint\'s digest (keep it where the database\'s writers cannot reach)',
    '  checkpoint  record an audit checkpoint now if the log moved since the last one',
    '  --json      print the report as JSON',
  ].join('\n'),
};

export async function auditCommand(p: Parsed): Promise<number> {
  const json = p.flags.get('json') === true;
  switch (p.positional[1]) {
    case 'verify': {
      const config = loadConfig();
      const progress = startProgress({ label: 'Verifying', unit: 'events', json });
      const report = await withRawStore(config, (store) =>
        verifyEventLog(store, {
          // Only EventStoreDB keeps events from before chains existed: it never rewrites history.
          allowUnchainedHistory: config.eventStore === 'eventstoredb',
          // The share of the log read (positions are byte offsets on EventStoreDB: a share all the same).
          onPage: ({ events, position, head }) => progress.update(events, Number(position) / Number(head)),
        }),
      ).finally(() => progress.finish());
      print(toJson(report), json, () => describe(report));
      return report.ok ? 0 : 1;
    }
    case 'checkpoint': {
      const recorded = await withRawStore(loadConfig(), (store) =>
        new CheckpointRecorder({ store, clock: systemClock }).recordIfMoved(),
      );
      print(recorded ?? { recorded: false }, json, () =>
        recorded
          ? `Checkpoint recorded: ${recorded.eventCount} events up to position ${recorded.upToPosition}, digest ${recorded.digest}`
          : 'Nothing to record: no event since the last checkpoint.',
      );
      return 0;
    }
    default:
      throw usageError(auditHelp);
  }
}

async function withRawStore<T>(config: GatewayConfig, fn: (store: EventStore) => Promise<T>): Promise<T> {
  requireGatewayData(config);
  // Loaded here, not with the CLI: every other command starts without the event-store drivers.
  const [{ createEventStore }, { eventStoreTarget }] = await Promise.all([
    import('../adapters/event-store/create-event-store'),
    import('../storage-targets'),
  ]);
  const store = await createEventStore(eventStoreTarget(config));
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function describe(report: AuditReport): string {
  if (report.broken) return `${describeBroken(report.broken)}\n(${report.events} events verified before it)`;
  const lines = [`OK: ${report.events} events in ${report.streams} streams, ${report.checkpoints} checkpoints verified`];
  if (report.unchainedEvents > 0) {
    lines.push(`${report.unchainedEvents} of them were written before the store kept chains and carry no hash`);
  }
  if (report.latestCheckpoint) {
    const c = report.latestCheckpoint;
    lines.push(`Latest checkpoint: up to position ${c.upToPosition}, digest ${c.digest}`);
  }
  const latest = report.latestCheckpoint;
  if (report.headPosition !== null && (!latest || report.headPosition > latest.position)) {
    const from = latest ? `after position ${latest.upToPosition}` : 'in the log';
    lines.push(`Events ${from} are protected by their stream chains only, until a checkpoint covers them`);
  }
  return lines.join('\n');
}

/** Bigints as decimal strings: JSON has no bigint. */
function toJson(report: AuditReport): unknown {
  return JSON.parse(JSON.stringify(report, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
}
