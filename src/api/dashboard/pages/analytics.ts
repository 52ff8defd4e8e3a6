/**
 * Analytics: the ledger's analyst views (docs/ledger.md) as charts (daily volume per currency,
 * approval rate per day, refund rate per merchant), ledger balances as of a moment, and the
 * recurring chains with a page per chain showing its timeline (application/schedules/chain-report.ts).
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { parseAsOf } from '../../../domain/ledger/balance-report';
import { isCurrency } from '../../../domain/money';
import { isUuid } from '../../../domain/ids';
import { barChart, lineChart, rowChart } from '../charts';
import type { DashboardDeps } from '../deps';
import { daysBetween, isDay, major, money, percent, queryText } from '../format';
import { html, notFoundPage, type Guard } from '../guard';
import { badge, code, copyable, details, esc, input, layout, link, select, table, time } from '../html';
import type { DashboardSession } from '../session';

const DEFAULT_DAYS = 30;

export function registerAnalyticsPages(router: Router, guard: Guard, deps: DashboardDeps): void {
  guard.page(router, '/dashboard/analytics', (ctx, session) => analyticsPage(ctx, session, deps));
  guard.page(router, '/dashboard/chains/:id', (ctx, session) => chainPage(ctx, session, deps));
}

async function analyticsPage(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const today = deps.businessNow().toISOString().slice(0, 10);
  const problems: Record<string, string> = {};
  const merchantText = queryText(ctx, 'merchant');
  const currencyText = queryText(ctx, 'currency')?.toUpperCase();
  const fromText = queryText(ctx, 'from');
  const toText = queryText(ctx, 'to');
  const asOfText = queryText(ctx, 'as_of');
  if (merchantText && !isUuid(merchantText)) problems.merchant = 'Choose a merchant from the list.';
  if (currencyText && !isCurrency(currencyText)) problems.currency = 'An ISO 4217 code such as EUR.';
  if (fromText && !isDay(fromText)) problems.from = 'A date such as 2026-11-01.';
  if (toText && !isDay(toText)) problems.to = 'A date such as 2026-11-30.';
  const asOf = asOfText ? parseAsOf(asOfText) : null;
  if (asOfText && !asOf) problems.as_of = 'A date-time with a zone, such as 2026-11-30T23:59:59Z.';
  const to = toText && isDay(toText) ? toText : today;
  const from = fromText && isDay(fromText) ? fromText : new Date(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  if (from > to) problems.from = 'The first day must not be after the last.';

  const merchants = await deps.merchants.list();
  const names = new Map(merchants.map((m) => [m.merchantId, m.name]));
  const filter = { merchantId: merchantText && isUuid(merchantText) ? merchantText.toLowerCase() : undefined, currency: currencyText && isCurrency(currencyText) ? currencyText : undefined };
  let body = '';
  if (Object.keys(problems).length === 0) {
    await deps.catchUp();
    const [volume, approvals, refunds, balances, chains] = await Promise.all([
      deps.ledger.dailyVolume({ ...filter, fromDay: from, toDay: to }),
      deps.ledger.dailyApprovalRates({ ...filter, fromDay: from, toDay: to }),
      deps.ledger.refundRates(filter),
      deps.ledger.balances({ ...filter, asOf: asOf ?? undefined }),
      deps.chains.listChains({ merchantId: filter.merchantId, limit: 50 }),
    ]);
    const days = daysBetween(from, to);
    const currencies = [...new Set([...volume.map((v) => v.currency), ...approvals.map((a) => a.currency)])].sort();

    // A currency with payouts or top-ups but no sale in these days has nothing to chart.
    const volumeCharts = currencies
      .filter((c) => volume.some((v) => v.currency === c && v.settledCount > 0))
      .map((currency, i) => {
        const perDay = new Map<string, number>();
        for (const v of volume.filter((x) => x.currency === currency)) perDay.set(v.day, (perDay.get(v.day) ?? 0) + v.settledAmount);
        const total = [...perDay.values()].reduce((a, b) => a + b, 0);
        return barChart({
          title: `Settled per day, ${currency}`,
          description: `Sales settled and captures succeeded each UTC day from ${from} to ${to}, in ${currency}: ${money(total, currency)} in all.`,
          labels: days,
          values: days.map((d) => major(perDay.get(d) ?? 0, currency)),
          format: (n) => `${n.toLocaleString('en', { maximumFractionDigits: 3 })}`,
          colour: i,
        });
      });

    const approvalSeries = currencies
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
          values: days.map((d) => {
            const s = perDay.get(d);
            return s && s.approved + s.declined > 0 ? s.approved / (s.approved + s.declined) : null;
          }),
        };
      });

    const refundRows = refunds
      .filter((r) => r.settledAmount > 0)
      .map((r) => ({ label: `${names.get(r.merchantId) ?? r.merchantId.slice(0, 8)} · ${r.currency}`, value: r.refundedAmount / r.settledAmount }));

    body = `<section aria-labelledby="h-volume"><h2 id="h-volume">Daily volume</h2>
${volumeCharts.length ? volumeCharts.join('\n') : '<p class="empty">Nothing settled in these days.</p>'}</section>
<section aria-labelledby="h-approval"><h2 id="h-approval">Approval rate</h2>
${approvalSeries.length
  ? lineChart({
      title: 'Approved share of decided payments, per day',
      description: `Approved divided by approved plus declined, each UTC day from ${from} to ${to}, one line per currency; a gap where nothing was decided.`,
      labels: days,
      series: approvalSeries,
      max: 1,
      format: percent,
    })
  : '<p class="empty">No payment was decided in these days.</p>'}</section>
<section aria-labelledby="h-refund"><h2 id="h-refund">Refund rate</h2>
${refundRows.length
  ? rowChart({
      title: 'Refunded share of settled money, all time',
      description: 'Refunded amount divided by settled amount, per merchant and currency.',
      rows: refundRows,
      max: Math.max(0.05, ...refundRows.map((r) => r.value)),
      format: percent,
    })
  : '<p class="empty">Nothing settled yet.</p>'}</section>
<section aria-labelledby="h-balances"><h2 id="h-balances">Ledger balances${asOf ? ` as of ${esc(asOf.toISOString())}` : ''}</h2>
${table({
  caption: asOf ? `Balances from postings at or before ${asOf.toISOString()}` : 'Balances from every posting',
  head: ['Merchant', 'Currency', 'Account', 'Balance'],
  rows: balances.map((b) => [esc(names.get(b.merchantId) ?? b.merchantId), esc(b.currency), esc(b.account), esc(money(b.balance, b.currency))]),
  empty: 'No postings yet.',
  numeric: [3],
})}</section>
<section aria-labelledby="h-chains"><h2 id="h-chains">Recurring chains</h2>
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
  html(
    ctx,
    layout({
      title: 'Analytics',
      section: 'analytics',
      environment: deps.environment,
      session,
      main: `<form method="get" action="/dashboard/analytics" class="filters card" aria-label="Choose what to chart">
${select({ label: 'Merchant', name: 'merchant', value: filter.merchantId ?? '', options: [['', 'Every merchant'], ...merchants.map((m): [string, string] => [m.merchantId, m.name])], error: problems.merchant })}
${input({ label: 'Currency', name: 'currency', value: currencyText, hint: 'Empty: every currency', error: problems.currency, attrs: 'maxlength="3" autocapitalize="characters"' })}
${input({ label: 'From (UTC day)', name: 'from', type: 'date', value: from, error: problems.from })}
${input({ label: 'To (UTC day, included)', name: 'to', type: 'date', value: to, error: problems.to })}
${input({ label: 'Balances as of', name: 'as_of', value: asOfText, hint: 'ISO date-time with a zone; empty: now', error: problems.as_of })}
<div class="actions"><button type="submit">Show</button></div>
</form>
${body}`,
    }),
    Object.keys(problems).length ? 400 : 200,
  );
}

async function chainPage(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const id = String(ctx.params.id ?? '');
  if (!isUuid(id)) return notFoundPage(ctx, session, deps.environment, 'A chain id is the UUID of the payment that started it.');
  const report = await deps.chainReport(id.toLowerCase());
  if (!report) return notFoundPage(ctx, session, deps.environment, `No scheduled chain ${id}.`);
  const merchant = await deps.merchants.byId(report.merchant_id);
  const s = report.schedule;
  html(
    ctx,
    layout({
      title: `Chain ${report.chain_id}`,
      section: 'analytics',
      environment: deps.environment,
      session,
      main: `<section class="card" aria-labelledby="h-chain"><h2 id="h-chain">Schedule</h2>${details([
        ['Chain (first payment)', link(`/dashboard/payments/${report.init_payment_id}`, report.init_payment_id)],
        ['Merchant', merchant ? link(`/dashboard/merchants/${merchant.merchantId}`, merchant.name) : code(report.merchant_id)],
        ['Schedule', `${esc(s.name)} · every ${s.interval_length} ${esc(s.interval_unit)} · ${s.payments_count} payments · ${badge(s.status)}`],
        ['Amount', esc(`${report.amount} ${report.currency}`)],
        ['First due date', esc(report.first_recurring_date)],
        ['Ended', report.ended ? `${esc(report.ended.reason)} ${time(report.ended.at)}` : 'no'],
      ])}</section>
<section aria-labelledby="h-dates"><h2 id="h-dates">Due dates</h2>
<ol class="timeline">${report.payments
        .map(
          (p) => `<li><strong>${esc(p.due_date)}</strong> #${p.sequence} ${badge(p.outcome)}${
            p.payment_id ? ` ${copyable(p.payment_id, 'trans id', `/dashboard/payments/${p.payment_id}`)} ${p.status ? badge(p.status) : ''}` : ''
          }${p.reason ? ` <span class="muted">${esc(p.reason)}</span>` : ''}${p.at ? ` · ${time(p.at)}` : ''}</li>`,
        )
        .join('\n')}</ol></section>`,
    }),
  );
}
