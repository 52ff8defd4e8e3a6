/**
 * What an export's manifest states about its rows besides their bytes: how many there are and, for
 * the ledger, the balance of every account of every merchant and currency. `export verify` decodes
 * each file and recomputes both, so the signed figures are shown to be what the file holds.
 */

/** One account's balance: the sum of its postings' signed amounts, minor units, decimal. */
export interface ExportedBalance {
  merchant_id: string;
  currency: string;
  account: string;
  balance: string;
}

export type ExportRow = Readonly<Record<string, unknown>>;

/** An amount as a file or read model holds it (number, bigint or decimal text) as a bigint; null when it is none. */
function amountOf(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?(0|[1-9][0-9]*)$/.test(value)) return BigInt(value);
  return null;
}

/**
 * The balances of the ledger postings given, sorted by merchant, currency and account. Throws on a
 * posting whose amount is not an integer: there is no balance to state then.
 */
export function ledgerBalances(postings: Iterable<ExportRow>): ExportedBalance[] {
  const sums = new Map<string, { merchant_id: string; currency: string; account: string; sum: bigint }>();
  for (const posting of postings) {
    const amount = amountOf(posting.amount);
    if (amount === null) throw new RangeError(`a posting's amount is not an integer: ${String(posting.amount)}`);
    const merchant_id = String(posting.merchant_id);
    const currency = String(posting.currency);
    const account = String(posting.account);
    // JSON of the three names: no separator character can make two different triples collide.
    const key = JSON.stringify([merchant_id, currency, account]);
    const entry = sums.get(key) ?? { merchant_id, currency, account, sum: 0n };
    entry.sum += amount;
    sums.set(key, entry);
  }
  const byName = (a: ExportedBalance, b: ExportedBalance) =>
    compare(a.merchant_id, b.merchant_id) || compare(a.currency, b.currency) || compare(a.account, b.account);
  return [...sums.values()].map(({ sum, ...names }) => ({ ...names, balance: sum.toString() })).sort(byName);
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The first balance that differs between what a file recomputes to and what the manifest states, as a sentence; null when they agree. */
export function balancesProblem(file: string, recomputed: readonly ExportedBalance[], stated: readonly ExportedBalance[]): string | null {
  const label = (b: ExportedBalance) => `merchant ${b.merchant_id} ${b.currency} ${b.account}`;
  const statedByLabel = new Map(stated.map((b) => [label(b), b.balance]));
  for (const b of recomputed) {
    const expected = statedByLabel.get(label(b));
    if (expected === undefined) return `${file} holds postings of ${label(b)}, an account the manifest has no balance for`;
    if (expected !== b.balance) return `${file} recomputes the balance of ${label(b)} to ${b.balance}, the manifest says ${expected}`;
    statedByLabel.delete(label(b));
  }
  const [missing] = statedByLabel.keys();
  return missing === undefined ? null : `${file} holds no postings of ${missing}, which the manifest gives a balance`;
}
