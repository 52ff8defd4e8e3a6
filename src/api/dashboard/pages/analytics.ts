/**
 * Analytics: the ledger's analyst views (docs/ledger.md) as charts (daily volume per currency,
 * approval rate per day, refund rate per merchant), ledger balances as of a moment, and the
 * recurring chains with a page per chain showing its timeline (application/schedules/chain-report.ts).
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { MerchantRecord } from '../../../application/ports/merchant-lookup';
import { isUuid } from '../../../domain/ids';
import type { DashboardDeps } from '../deps';
import { daysBetween } from '../format';
import { html, notFoundPage, type Guard } from '../guard';
import { badge, code, copyable, details, esc, input, layout, link, select, time } from '../html';
import type { DashboardSession } from '../session';
import { analyticsQuery, type AnalyticsQuery } from './analytics-query';
import { approvalSection, balancesSection, chainsSection, refundSection, volumeSection, type Names } from './analytics-sections';

export function registerAnalyticsPages(router: Router, guard: Guard, deps: DashboardDeps): void {
  guard.page(router, '/dashboard/analytics', (ctx, session) => analyticsPage(ctx, session, deps));
  guard.page(router, '/dashboard/chains/:id', (ctx, session) => chainPage(ctx, session, deps));
}

/** Every section of the page, read as of now (the read models caught up first). */
async function analyticsSections(query: AnalyticsQuery, names: Names, deps: DashboardDeps): Promise<string> {
  const { filter, from, to, asOf } = query;
  await deps.catchUp();
  const [volume, approvals, refunds, balances, chains] = await Promise.all([
    deps.ledger.dailyVolume({ ...filter, fromDay: from, toDay: to }),
    deps.ledger.dailyApprovalRates({ ...filter, fromDay: from, toDay: to }),
    deps.ledger.refundRates(filter),
    deps.ledger.balances({ ...filter, asOf: asOf ?? undefined }),
    deps.chains.listChains({ merchantId: filter.merchantId, limit: 50 }),
  ]);
  const days = { from, to, all: daysBetween(from, to) };
  const currencies = [...new Set([...volume.map((v) => v.currency), ...approvals.map((a) => a.currency)])].sort();
  return [
    volumeSection(volume, currencies, days),
    approvalSection(approvals, currencies, days),
    refundSection(refunds, names),
    balancesSection(balances, names, asOf),
    chainsSection(chains, names),
  ].join('\n');
}

/** The form choosing what to chart, showing each field as typed with its problem. */
function filterForm(query: AnalyticsQuery, merchants: MerchantRecord[]): string {
  const { filter, currencyText, from, to, asOfText, problems } = query;
  return `<form method="get" action="/dashboard/analytics" class="filters card" aria-label="Choose what to chart">
${select({ label: 'Merchant', name: 'merchant', value: filter.merchantId ?? '', options: [['', 'Every merchant'], ...merchants.map((m): [string, string] => [m.merchantId, m.name])], error: problems.merchant })}
${input({ label: 'Currency', name: 'currency', value: currencyText, hint: 'Empty: every currency', error: problems.currency, attrs: 'maxlength="3" autocapitalize="characters"' })}
${input({ label: 'From (UTC day)', name: 'from', type: 'date', value: from, error: problems.from })}
${input({ label: 'To (UTC day, included)', name: 'to', type: 'date', value: to, error: problems.to })}
${input({ label: 'Balances as of', name: 'as_of', value: asOfText, hint: 'ISO date-time with a zone; empty: now', error: problems.as_of })}
<div class="actions"><button type="submit">Show</button></div>
</form>`;
}

async function analyticsPage(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const query = analyticsQuery(ctx, deps.businessNow().toISOString().slice(0, 10));
  const merchants = await deps.merchants.list();
  const names = new Map(merchants.map((m) => [m.merchantId, m.name]));
  const valid = Object.keys(query.problems).length === 0;
  const body = valid ? await analyticsSections(query, names, deps) : '';
  html(
    ctx,
    layout({
      title: 'Analytics',
      section: 'analytics',
      environment: deps.environment,
      session,
      main: `${filterForm(query, merchants)}
${body}`,
    }),
    valid ? 200 : 400,
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
