import type { ProjectionModule } from '../projection-module';
import { dropLedger, migrateLedger } from './migrations';
import { applyToLedger } from './projection';
import type { LedgerTables } from './tables';

export const LEDGER_PROJECTION = 'ledger';

export function ledgerProjection(): ProjectionModule<LedgerTables> {
  return {
    name: LEDGER_PROJECTION,
    tables: ['ledger_postings', 'ledger_payments', 'ledger_daily_totals', 'ledger_daily_decisions'],
    migrate: migrateLedger,
    drop: dropLedger,
    apply: applyToLedger,
  };
}
