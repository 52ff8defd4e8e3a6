import type { ProjectionModule } from '../projection-module';
import { dropTransactions, migrateTransactions } from './migrations';
import { applyToTransactions } from './projection';
import type { TransactionsTables } from './tables';

export const TRANSACTIONS_PROJECTION = 'transactions';

export function transactionsProjection(): ProjectionModule<TransactionsTables> {
  return {
    name: TRANSACTIONS_PROJECTION,
    tables: ['transactions'],
    migrate: migrateTransactions,
    drop: dropTransactions,
    apply: applyToTransactions,
  };
}
