/** The ledger's balances, for the admin API and the CLI. */
import type { LedgerAccount } from '../../domain/ledger/accounts';

export interface LedgerBalance {
  merchantId: string;
  currency: string;
  account: LedgerAccount;
  /** Signed minor units. */
  balance: number;
}

export interface BalanceFilter {
  merchantId?: string;
  currency?: string;
  /** Inclusive: postings whose business time is at or before it. Absent: everything. */
  asOf?: Date;
}

export interface LedgerReadModel {
  /** Balance of every account with postings, ordered by merchant, currency and account. */
  balances(filter?: BalanceFilter): Promise<LedgerBalance[]>;
}
