import { merchantsProjection } from './merchants-projection';
import { paymentsProjection } from './payments-projection';
import type { Projection } from './projector';
import { transactionsProjection } from './transactions-projection';
import { callbackDeliveriesProjection } from './callback-deliveries-projection';
import { ledgerProjection } from './ledger-projection';
import { schedulesProjection } from './schedules-projection';

/** The read models the gateway serves from, in the order a batch is applied to them. */
export function allProjections(): Projection[] {
  return [paymentsProjection(), transactionsProjection(), merchantsProjection(), callbackDeliveriesProjection(), ledgerProjection(), schedulesProjection()];
}

export * from './schema';
export { createReadModelDb, migrateReadModels, dropReadModels, type ReadModelDbConfig } from './database';
export { paymentsProjection, PAYMENTS_PROJECTION } from './payments-projection';
export { transactionsProjection, TRANSACTIONS_PROJECTION } from './transactions-projection';
export { merchantsProjection, MERCHANTS_PROJECTION } from './merchants-projection';
export { callbackDeliveriesProjection, CALLBACK_DELIVERIES_PROJECTION } from './callback-deliveries-projection';
export { ledgerProjection, LEDGER_PROJECTION } from './ledger-projection';
export { schedulesProjection, SCHEDULES_PROJECTION, DUE_NOW } from './schedules-projection';
export type { ScheduledChainsTable, SchedulesTable } from './schedules-schema';
export { Projector, CheckpointConflictError, type Projection, type ProjectorOptions } from './projector';
export {
  ReadModels,
  type ReadModelsOptions,
  type PaymentRow,
  type OperationRow,
  type MerchantRow,
} from './read-models';
export { CallbackQueries, type DeliveryRow, type AttemptRow, type ListDeliveriesFilter } from './callback-queries';
export { workerCheckpoint } from './worker-checkpoint';
