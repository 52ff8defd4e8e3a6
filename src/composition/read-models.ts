/** The read models: the database they live in, the projector that keeps them, and the operators' reports. */
import type { Kysely } from 'kysely';
import { allProjections } from '../../projections';
import { CallbackQueries } from '../../projections/callback-deliveries/queries';
import { createReadModelDb, createReportDb, migrateReadModels } from '../../projections/database';
import { scoped, type ReadModelDatabase } from '../../projections/database-schema';
import { LedgerReportQueries } from '../../projections/ledger/queries';
import { PaymentQueries } from '../../projections/payments/queries';
import { Projector } from '../../projections/projector';
import { READ_YOUR_WRITES, ReadModels } from '../../projections/read-models';
import type { EventStore } from '../application/ports/event-store';
import type { Logger } from '../application/ports/logger';
import type { GatewayConfig } from '../config';
import { readModelTarget } from '../storage-targets';
import type { BuildOptions } from './gateway';

export interface ReadSide {
  readDb: Kysely<ReadModelDatabase>;
  /** See Gateway.reportDb. */
  reportDb: Kysely<ReadModelDatabase>;
  projector: Projector | null;
  readModels: ReadModels;
  callbackOverview: CallbackQueries;
  ledgerReports: LedgerReportQueries;
  paymentSearch: PaymentQueries;
}

export async function wireReadModels(config: GatewayConfig, options: BuildOptions, store: EventStore, logger: Logger): Promise<ReadSide> {
  const readDb = createReadModelDb(readModelTarget(config), (error) =>
    logger.warn('read models lost a database connection, it reconnects', { error: error.message }),
  );
  await migrateReadModels(readDb);
  const projector = options.withProjector
    ? new Projector({
        store,
        db: readDb,
        projections: allProjections(),
        gatherMs: options.projectorGatherMs ?? 0,
        onError: (error) => logger.error('projector failed, it will resubscribe', { error: String(error) }),
        readersWaitFor: READ_YOUR_WRITES,
      })
    : null;
  // Without a projector here, read-your-writes polls the checkpoints the projector commits.
  const readModels = new ReadModels({ db: readDb, store, projector: projector ?? undefined, pollIntervalMs: 5 });
  // Operators' reads beyond the ports the payment APIs use: the dashboard, the admin ledger route
  // and the metrics' gauges. They aggregate or search whole tables; on SQLite they run on a thread
  // of their own (report-connection.ts).
  const reportDb = createReportDb(readModelTarget(config)) ?? readDb;
  return {
    readDb,
    reportDb,
    projector,
    readModels,
    callbackOverview: new CallbackQueries(scoped(reportDb)),
    ledgerReports: new LedgerReportQueries(scoped(reportDb)),
    paymentSearch: new PaymentQueries(scoped(reportDb)),
  };
}
