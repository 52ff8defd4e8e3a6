/** The sections of the analytics page: charts of the ledger's analyst views, its balances and the recurring chains. */
import { barChart, lineChart, rowChart } from '../charts';
import type { DashboardDeps } from '../deps';
import { major, money, percent } from '../format';
import { badge, copyable, esc, table, time } from '../html';

type Ledger = DashboardDeps['ledger'];
type VolumeRow = Awaited<ReturnType<Ledger['dailyVolume']>>[number];
type ApprovalRow = Awaited<ReturnType<Ledger['dailyApprovalRates']>>[number];
type RefundRow = Awaited<ReturnType<Ledger['refundRates']>>[number];
type BalanceRow = Awaited<ReturnType<Ledger['balances']>>[number];
type ChainRow = Awaited<ReturnType<DashboardDeps['chains']['listChains']>>[number];

/** The UTC days charted, first to last. */
export interface Days {
  from: string;
  to: string;
  all: string[];
}

/** Merchants' names by id; an unknown id is shown as itself. */
export type Names = ReadonlyMap<string, string>;

export function volumeSection(volume: VolumeRow[], currencies: string[], days: Days): string {
  // A currency with payouts or top-ups but no sale in these days has nothing to chart.
  const charts = currencies
    .filter((c) => volume.some((v) => v.currency === c && v.settledCount > 0))
    .map((currency, i) => {
      const perDay = new Map<string, number>();
      for (const v of volume.filter((x) => x.currency === currency)) perDay.set(v.day, (perDay.get(v.day) ?? 0) + v.settledAmount);
      const total = [...perDay.values()].reduce((a, b) => a + b, 0);
      return barChart({
        title: `Settled per day, ${currency}`,
        description: `Sales settled and captures succeeded each UTC day from ${days.from} to ${days.to}, in ${currency}: ${money(total, currency)} in all.`,
        labels: days.all,
        values: days.all.map((d) => major(perDay.get(d) ?? 0, currency)),
        format: (n) => `${n.toLocaleString('en', { maximumFractionDigits: 3 })}`,
        colour: i,
      });
    });
  return `<section aria-labelledby="h-volume"><h2 id="h-volume">Daily volume</h2>
${charts.length ? charts.join('\n') : '<p class="empty">Nothing settled in these days.</p>'}</section>`;
}

/** One line per currency: the approved share of each day's decided payments, a gap where none was decided. */
function approvalSeries(approvals: ApprovalRow[], currencies: string[], days: Days) {
  return currencies
    .filter((c) => approvals.some((a) => a.currency === c))
    .map((currency) => {
      const perDay = new Map<string, { approved: number; declined: number }>();
      for (const a of approvals.filter((x) => x.currency === currency)) {
        const sum = perDay.get(a.day) ?? { approved: 0, declined: 0 };
        sum.approved += a.approvedCount;
        sum.declined += a.declinedCount;
        perDay.set(a.day, sum);
      }
      return {
        name: currency,
        values: days.all.map((d) => {
          const s = perDay.get(d);
          return s && s.approved + s.declined > 0 ? s.approved / (s.approved + s.declined) : null;
        }),
      };
    });
}

export function approvalSection(approvals: ApprovalRow[], currencies: string[], days: Days): string {
  const series = approvalSeries(approvals, currencies, days);
  return `<section aria-labelledby="h-approval"><h2 id="h-approval">Approval rate</h2>
${series.length
  ? lineChart({
      title: 'Approved share of decided payments, per day',
      description: `Approved divided by approved plus declined, each UTC day from ${days.from} to ${days.to}, one line per currency; a gap where nothing was decided.`,
      labels: days.all,
      series,
      max: 1,
      format: percent,
    })
  : '<p class="empty">No payment was decided in these days.</p>'}</section>`;
}

export function refundSection(refunds: RefundRow[], names: Names): string {
  const rows = refunds
    .filter((r) => r.settledAmount > 0)
    .map((r) => ({ label: `${names.get(r.merchantId) ?? r.merchantId.slice(0, 8)} · ${r.currency}`, value: r.refundedAmount / r.settledAmount }));
  return `<section aria-labelledby="h-refund"><h2 id="h-refund">Refund rate</h2>
${rows.length
  ? rowChart({
      title: 'Refunded share of settled money, all time',
      description: 'Refunded amount divided by settled amount, per merchant and currency.',
      rows,
      max: Math.max(0.05, ...rows.map((r) => r.value)),
      format: percent,
    })
  : '<p class="empty">Nothing settled yet.</p>'}</section>`;
}

export function balancesSection(balances: BalanceRow[], names: Names, asOf: Date | null): string {
  return `<section aria-labelledby="h-balances"><h2 id="h-balances">Ledger balances${asOf ? ` as of ${esc(asOf.toISOString())}` : ''}</h2>
${table({
  caption: asOf ? `Balances from postings at or before ${asOf.toISOString()}` : 'Balances from every posting',
  head: ['Merchant', 'Currency', 'Account', 'Balance'],
  rows: balances.map((b) => [esc(names.get(b.merchantId) ?? b.merchantId), esc(b.currency), esc(b.account), esc(money(b.balance, b.currency))]),
  empty: 'No postings yet.',
  numeric: [3],
})}</section>`;
}

export function chainsSection(chains: ChainRow[], names: Names): string {
  return `<section aria-labelledby="h-chains"><h2 id="h-chains">Recurring chains</h2>
${table({
  caption: 'Chains of scheduled payments, newest first',
  head: ['Started', 'Chain', 'Merchant', 'Status', 'Next due', 'Payments made', 'Skipped'],
  rows: chains.map((c) => [
    time(c.startedAt),
    copyable(c.chainId, 'chain', `/dashboard/chains/${c.chainId}`),
    esc(names.get(c.merchantId) ?? c.merchantId),
    `${badge(c.status)}${c.endReason ? ` <span class="muted">${esc(c.endReason)}</span>` : ''}`,
    esc(c.nextDueDate ?? '–'),
    String(c.paymentsStarted),
    String(c.paymentsSkipped),
  ]),
  empty: 'No chain with a schedule yet.',
  numeric: [5, 6],
})}</section>`;
}
