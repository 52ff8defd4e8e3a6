/**
 * What the CLI and the admin API share about ledger balances: how an "as of" instant is read, and
 * how a balance is shown (minor units for machines, the currency's decimal text for people).
 */
import { formatMinor } from '../money';

/**
 * An ISO-8601 date-time with a zone (`2024-05-01T23:59:59Z`, `...+02:00`). A bare date is refused:
 * whether it means the start or the end of that day is exactly what an analyst should not guess.
 */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

export function parseAsOf(text: string): Date | null {
  if (!INSTANT.test(text)) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}

export interface BalanceLine {
  merchantId: string;
  currency: string;
  account: string;
  balance: number;
}

export interface BalanceView {
  merchant_id: string;
  currency: string;
  account: string;
  /** Signed minor units. */
  balance: number;
  /** The same as a decimal string in the currency's exponent, e.g. `-12.50`, `1500` (JPY). */
  balance_text: string;
}

export function balanceView(line: BalanceLine): BalanceView {
  return {
    merchant_id: line.merchantId,
    currency: line.currency,
    account: line.account,
    balance: line.balance,
    balance_text: formatMinor(line.balance, line.currency),
  };
}
