/**
 * Payments: a search (order id, trans id, merchant, status, method, channel, dates) and one
 * payment's page: its state, its whole event timeline as stored with each event's hash-chain link
 * checked, its callbacks and their attempts (with redelivery), and its ledger postings.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { PaymentSearchFilter } from '../../../application/ports/payment-search';
import type { StoredEvent } from '../../../application/ports/event-store';
import { eventChainHash } from '../../../domain/audit/chain-hash';
import { isUuid } from '../../../domain/ids';
import { brandOf } from '../../../domain/payment/state';
import type { DashboardDeps } from '../deps';
import { isDay, kindText, methodText, money, nextDay, queryOf, queryText } from '../format';
import { html, notFoundPage, type Guard } from '../guard';
import { badge, code, copyable, csrfInput, details, esc, input, layout, link, select, table, time } from '../html';
import type { DashboardSession } from '../session';

export const PAYMENT_STATUSES = ['SETTLED', 'PENDING', 'DECLINED', '3DS', 'REDIRECT', 'REFUND', 'REVERSAL', 'VOID', 'PREPARE'];
const CHANNELS = ['s2s_card', 's2s_apm', 'checkout'];

interface SearchForm {
  order_id?: string;
  trans_id?: string;
  merchant?: string;
  status?: string;
  method?: string;
  channel?: string;
  from?: string;
  to?: string;
}

export function registerPaymentPages(router: Router, guard: Guard, deps: DashboardDeps): void {
  guard.page(router, '/dashboard/payments', (ctx, session) => searchPage(ctx, session, deps));
  guard.page(router, '/dashboard/payments/:id', (ctx, session) => paymentPage(ctx, session, deps));
}

async function searchPage(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const form: SearchForm = {};
  for (const name of ['order_id', 'trans_id', 'merchant', 'status', 'method', 'channel', 'from', 'to'] as const) form[name] = queryText(ctx, name);
  const before = queryText(ctx, 'before');
  const problems: Partial<Record<keyof SearchForm, string>> = {};
  if (form.trans_id && !isUuid(form.trans_id)) problems.trans_id = 'A trans id is a UUID.';
  if (form.merchant && !isUuid(form.merchant)) problems.merchant = 'Choose a merchant from the list.';
  if (form.status && !PAYMENT_STATUSES.includes(form.status)) problems.status = 'Choose a status from the list.';
  if (form.channel && !CHANNELS.includes(form.channel)) problems.channel = 'Choose a channel from the list.';
  if (form.from && !isDay(form.from)) problems.from = 'A date such as 2026-11-24.';
  if (form.to && !isDay(form.to)) problems.to = 'A date such as 2026-11-24.';
  if (form.method && form.method.length > 40) problems.method = 'At most 40 characters.';

  const merchants = await deps.merchants.list();
  const names = new Map(merchants.map((m) => [m.merchantId, m.name]));
  let results = '';
  if (Object.keys(problems).length === 0) {
    const filter: PaymentSearchFilter = {
      paymentId: form.trans_id?.toLowerCase(),
      orderId: form.order_id,
      merchantId: form.merchant?.toLowerCase(),
      statuses: form.status ? [form.status] : undefined,
      method: form.method,
      channel: form.channel,
      from: form.from ? `${form.from}T00:00:00.000Z` : undefined,
      to: form.to ? `${nextDay(form.to)}T00:00:00.000Z` : undefined,
      before,
      limit: 50,
    };
    await deps.catchUp();
    const page = await deps.payments.searchPayments(filter);
    const rows = page.payments.map((p) => [
      time(p.initiatedAt),
      copyable(p.paymentId, 'trans id', `/dashboard/payments/${p.paymentId}`),
      esc(p.orderId),
      esc(names.get(p.merchantId) ?? p.merchantId),
      `${esc(kindText(p.kind))}<br><span class="muted">${esc(p.channel)}</span>`,
      esc(methodText(p)),
      esc(money(p.amount, p.currency)),
      badge(p.status),
    ]);
    results = `${table({
      caption: before ? 'Payments (older page)' : 'Payments, newest first',
      head: ['Initiated', 'Trans id', 'Order id', 'Merchant', 'Kind · channel', 'Method', 'Amount', 'Status'],
      rows,
      empty: 'No payment matches.',
      numeric: [6],
    })}
<div class="pager">${before ? `<a href="/dashboard/payments${queryOf({ ...form })}">Newest</a>` : ''}${
      page.next ? `<a href="/dashboard/payments${queryOf({ ...form, before: page.next })}" rel="next">Older payments</a>` : ''
    }</div>`;
  }
  const merchantOptions: Array<[string, string]> = [['', 'Any merchant'], ...merchants.map((m): [string, string] => [m.merchantId, m.name])];
  html(
    ctx,
    layout({
      title: 'Payments',
      section: 'payments',
      environment: deps.environment,
      session,
      main: `<form method="get" action="/dashboard/payments" class="filters card" role="search" aria-label="Search payments">
${input({ label: 'Order id', name: 'order_id', value: form.order_id, type: 'search' })}
${input({ label: 'Trans id', name: 'trans_id', value: form.trans_id, type: 'search', error: problems.trans_id, attrs: 'spellcheck="false"' })}
${select({ label: 'Merchant', name: 'merchant', value: form.merchant ?? '', options: merchantOptions, error: problems.merchant })}
${select({ label: 'Status', name: 'status', value: form.status ?? '', options: [['', 'Any status'], ...PAYMENT_STATUSES.map((s): [string, string] => [s, s])], error: problems.status })}
${input({ label: 'Method', name: 'method', value: form.method, hint: 'Card brand (VISA), method (sb-redirect) or payout method (sb-momo)', error: problems.method })}
${select({ label: 'Channel', name: 'channel', value: form.channel ?? '', options: [['', 'Any channel'], ['s2s_card', 'S2S card (POST /post)'], ['s2s_apm', 'S2S APM and payouts (POST /post)'], ['checkout', 'Checkout']], error: problems.channel })}
${input({ label: 'From (UTC day)', name: 'from', type: 'date', value: form.from, error: problems.from })}
${input({ label: 'To (UTC day, included)', name: 'to', type: 'date', value: form.to, error: problems.to })}
<div class="actions"><button type="submit">Search</button><a class="button secondary" href="/dashboard/payments">Clear</a></div>
</form>
${results}`,
    }),
    Object.keys(problems).length ? 400 : 200,
  );
}

async function paymentPage(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const id = String(ctx.params.id ?? '');
  if (!isUuid(id)) return notFoundPage(ctx, session, deps.environment, 'A payment id is a UUID.');
  const paymentId = id.toLowerCase();
  const [history, stored] = await Promise.all([deps.history(paymentId), deps.storedEvents(paymentId)]);
  if (!history || stored.length === 0) return notFoundPage(ctx, session, deps.environment, `No payment ${paymentId}.`);
  await deps.catchUp();
  const [record, deliveries, postings] = await Promise.all([
    deps.payments.paymentById(paymentId),
    deps.callbacks.list({ paymentId, limit: 100 }),
    deps.ledger.postingsOfPayment(paymentId),
  ]);
  const deliveryDetails = await Promise.all(deliveries.map((d) => deps.callbacks.byId(d.delivery_id)));
  const merchant = history.state ? await deps.merchants.byId(history.state.merchantId) : undefined;
  const state = history.state;
  const currency = state?.currency ?? record?.currency ?? '';
  const flash = queryText(ctx, 'done') === 'redelivered' ? { kind: 'ok' as const, text: 'Redelivery requested; the attempt is listed below.' } : null;

  const summary = details([
    ['Trans id', copyable(paymentId, 'trans id')],
    ['Order id', esc(state?.orderId ?? record?.orderId ?? '')],
    ['Merchant', merchant ? link(`/dashboard/merchants/${merchant.merchantId}`, merchant.name) : code(state?.merchantId ?? '')],
    ['Status', `${badge(state?.status ?? record?.status ?? '')} <span class="muted">(${esc(state?.phase ?? record?.phase ?? '')})</span>`],
    ['Channel', esc(state?.channel ?? record?.channel ?? '')],
    ['Kind', esc(kindText(state?.kind ?? record?.kind ?? ''))],
    ['Amount', esc(state ? money(state.amount, currency) : '')],
    [
      'Held · settled · refunded',
      esc(record ? [money(record.heldAmount, currency), money(record.settledAmount, currency), money(record.refundedAmount, currency)].join(' · ') : 'not projected yet'),
    ],
    ['Method', esc(state ? methodText({ method: brandOf(state), cardBrand: state.card?.brand ?? '', cardMask: state.card?.mask ?? '' }) : record ? methodText(record) : '')],
    ['Descriptor', esc(record?.descriptor ?? '')],
    ...(record?.declineReason ? ([['Decline reason', esc(record.declineReason)]] as Array<[string, string]>) : []),
    ['Initiated', time(state?.initiatedAt ?? record?.initiatedAt)],
    ['Stream', `${code(history.stream_id)} <span class="muted">version ${history.version}</span>`],
  ]);

  const chainId = (state as { recurring?: { schedule?: unknown; initPaymentId?: string } } | null)?.recurring;
  const chainLink = chainId?.schedule ? `<p>${link(`/dashboard/chains/${paymentId}`, 'This payment started a schedule: see its chain')}</p>` : '';

  html(
    ctx,
    layout({
      title: `Payment ${paymentId}`,
      section: 'payments',
      environment: deps.environment,
      session,
      flash,
      main: `<section class="card" aria-labelledby="h-summary"><h2 id="h-summary">Summary</h2>${summary}${chainLink}</section>
<section aria-labelledby="h-timeline"><h2 id="h-timeline">Timeline</h2>
<p class="muted">Every event of the payment's stream as stored, oldest first. Each carries a chain hash over its content and the previous event's hash; the link is checked here as <code>audit verify</code> checks it.</p>
${timeline(stored)}</section>
<section aria-labelledby="h-callbacks"><h2 id="h-callbacks">Callbacks</h2>
${callbacksOf(deliveryDetails.filter((d): d is NonNullable<typeof d> => d !== undefined), session, `/dashboard/payments/${paymentId}`)}</section>
<section aria-labelledby="h-ledger"><h2 id="h-ledger">Ledger postings</h2>
${table({
  caption: 'Ledger postings, in order',
  head: ['When', 'Event', 'Account', 'Amount', 'Operation'],
  rows: postings.map((p) => [time(p.occurredAt), esc(p.eventType), esc(p.account), esc(money(p.amount, p.currency)), p.operationId ? code(p.operationId) : '–']),
  empty: 'No money has moved for this payment.',
  numeric: [3],
})}</section>`,
    }),
  );
}

/** The events as stored, each with its chain link recomputed. */
function timeline(events: StoredEvent[]): string {
  let previous = '';
  const items = events.map((e) => {
    const recomputed = eventChainHash({
      prevHash: previous || null,
      streamId: e.streamId,
      version: e.version,
      type: e.type,
      schemaVersion: e.schemaVersion,
      data: e.data,
      metadata: e.metadata,
    });
    const linked = e.chainHash !== '' && recomputed === e.chainHash;
    const link = e.chainHash === ''
      ? '<span class="badge badge-neutral">no chain hash</span>'
      : linked
        ? `<span class="badge badge-good">chain ok</span> links to ${e.version === 0n ? 'the start of the stream' : `version ${e.version - 1n}`}`
        : '<span class="badge badge-bad">broken</span> the hash does not match the event and its predecessor';
    previous = e.chainHash;
    const requestId = typeof e.metadata.correlationId === 'string' ? e.metadata.correlationId : null;
    return `<li><strong>${esc(e.type)}</strong> <span class="muted">version ${e.version} · position ${e.position} · schema ${e.schemaVersion}</span><br>
${time(e.recordedAt)}${requestId ? ` · request ${code(requestId)}` : ''}
<div class="chain-link">${link}<br>chain hash ${code(e.chainHash || '–')}</div>
<details><summary>Data</summary><pre>${esc(JSON.stringify(e.data, null, 2))}</pre></details></li>`;
  });
  return `<ol class="timeline">${items.join('\n')}</ol>`;
}

type DeliveryDetail = NonNullable<Awaited<ReturnType<DashboardDeps['callbacks']['byId']>>>;

/** A payment's (or any) deliveries with their attempts and a redeliver button each. */
export function callbacksOf(deliveries: DeliveryDetail[], session: DashboardSession, back: string): string {
  if (deliveries.length === 0) return '<p class="empty">No callback for this payment (no notification URL, or nothing to report yet).</p>';
  return deliveries
    .map(({ delivery: d, attempts }) => {
      const attemptRows = attempts.map((a) => [
        String(a.attempt),
        time(a.started_at),
        a.status_code === null ? '–' : String(a.status_code),
        a.latency_ms === null ? '–' : `${a.latency_ms} ms`,
        badge(a.outcome),
        esc(a.error ?? (a.timed_out ? 'timed out' : '')),
      ]);
      return `<div class="card">
<h3><a href="/dashboard/callbacks/${esc(d.delivery_id)}">${esc(d.source_event_type)} callback</a> ${badge(d.status)}</h3>
${details([
  ['Delivery id', code(d.delivery_id)],
  ['URL', esc(d.url)],
  ['Attempts', String(d.attempts)],
  ['Next attempt', time(d.next_attempt_at)],
  ['Last answer', esc(d.last_status_code === null ? (d.last_error ?? '–') : `HTTP ${d.last_status_code}`)],
])}
${table({ caption: 'Attempts', head: ['#', 'Started', 'Status', 'Latency', 'Outcome', 'Error'], rows: attemptRows, empty: 'No attempt yet.' })}
${redeliverForm(d.delivery_id, session, back)}
</div>`;
    })
    .join('\n');
}

export function redeliverForm(deliveryId: string, session: DashboardSession, back: string): string {
  return `<form method="post" action="/dashboard/callbacks/${esc(deliveryId)}/redeliver" class="actions">${csrfInput(session)}
<input type="hidden" name="back" value="${esc(back)}"><button type="submit" class="secondary">Redeliver this callback</button></form>`;
}
