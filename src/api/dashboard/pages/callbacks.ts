/**
 * Callbacks: the URLs that fail (and which of them are held back after repeated timeouts), the
 * deliveries that failed or wait for a retry, one delivery with its exact body and attempts, and
 * redelivery: the same application code as `POST /admin/callbacks/:id/redeliver`.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { blockedUntil } from '../../../domain/callback-delivery/url-block';
import { DomainError } from '../../../domain/errors';
import { isUuid } from '../../../domain/ids';
import type { DashboardDeps } from '../deps';
import { dashboardPath, formOf, formText, queryOf, queryText } from '../format';
import { html, notFoundPage, seeOther, type Guard } from '../guard';
import { badge, code, copyable, details, esc, layout, select, table, time } from '../html';
import type { DashboardSession } from '../session';
import { callbacksOf, redeliverForm } from './payments';

export function registerCallbackPages(router: Router, guard: Guard, deps: DashboardDeps): void {
  guard.page(router, '/dashboard/callbacks', (ctx, session) => overview(ctx, session, deps));
  guard.page(router, '/dashboard/callbacks/:id', (ctx, session) => deliveryPage(ctx, session, deps));
  guard.action(router, '/dashboard/callbacks/:id/redeliver', (ctx, session) => redeliver(ctx, session, deps));
}

async function overview(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const show = queryText(ctx, 'show') === 'all' ? 'all' : 'failing';
  const merchant = queryText(ctx, 'merchant');
  const merchantId = merchant && isUuid(merchant) ? merchant.toLowerCase() : undefined;
  await deps.catchUp();
  const [failing, deliveries, merchants] = await Promise.all([
    deps.callbacks.failingUrls(50),
    deps.callbacks.list({ failed: show === 'failing', merchantId, limit: 100 }),
    deps.merchants.list(),
  ]);
  const names = new Map(merchants.map((m) => [m.merchantId, m.name]));
  const now = deps.businessNow().getTime();
  const { windowMs, blockMs } = deps.callbackBlockPolicy;
  const since = new Date(now - windowMs - blockMs).toISOString();
  const blocked = await Promise.all(
    failing.map(async (f) => {
      const times = (await deps.callbacks.timeoutsSince(f.url, since)).map((t) => Date.parse(t.finished_at));
      return blockedUntil(times, now, deps.callbackBlockPolicy);
    }),
  );
  const heldHere = deps.health.blockedUrls();
  const flash = queryText(ctx, 'done') === 'redelivered' ? { kind: 'ok' as const, text: 'Redelivery requested.' } : null;

  const failingTable = table({
    caption: 'Notification URLs with failing callbacks',
    head: ['URL', 'Merchants', 'Failed for good', 'Retrying', 'Last answer', 'Last failure', 'Held back'],
    rows: failing.map((f, i) => [
      esc(f.url),
      f.merchantIds.map((id) => esc(names.get(id) ?? id)).join(', '),
      String(f.failed),
      String(f.retrying),
      esc(f.lastStatusCode === null ? (f.lastError ?? '–') : `HTTP ${f.lastStatusCode}`),
      time(f.lastFailureAt),
      blocked[i] === null ? 'no' : `${badge('blocked')} until ${time(new Date(blocked[i]!).toISOString())}`,
    ]),
    empty: 'No notification URL is failing.',
    numeric: [2, 3],
  });
  const deliveryTable = table({
    caption: show === 'failing' ? 'Deliveries that failed or wait for a retry, newest first' : 'Deliveries, newest first',
    head: ['Scheduled', 'Delivery', 'Payment', 'Merchant', 'Event', 'Status', 'Attempts', 'Last answer', 'Next attempt', ''],
    rows: deliveries.map((d) => [
      time(d.scheduled_at),
      `<a href="/dashboard/callbacks/${esc(d.delivery_id)}">${code(d.delivery_id.slice(0, 8))}</a>`,
      copyable(d.payment_id, 'trans id', `/dashboard/payments/${d.payment_id}`),
      esc(names.get(d.merchant_id) ?? d.merchant_id),
      esc(d.source_event_type),
      badge(d.status),
      String(d.attempts),
      esc(d.last_status_code === null ? (d.last_error ?? '–') : `HTTP ${d.last_status_code}`),
      time(d.next_attempt_at),
      redeliverForm(d.delivery_id, session, `/dashboard/callbacks${queryOf({ show, merchant: merchantId })}`),
    ]),
    empty: show === 'failing' ? 'No delivery is failing.' : 'No delivery yet.',
    numeric: [6],
  });
  html(
    ctx,
    layout({
      title: 'Callbacks',
      section: 'callbacks',
      environment: deps.environment,
      session,
      flash,
      main: `<section aria-labelledby="h-urls"><h2 id="h-urls">Failing notification URLs</h2>
<p class="muted">A URL is held back for ${Math.round(deps.callbackBlockPolicy.blockMs / 60_000)} min after ${deps.callbackBlockPolicy.timeouts} timeouts within ${Math.round(deps.callbackBlockPolicy.windowMs / 60_000)} min; its callbacks wait, none is lost.</p>
${failingTable}
${heldHere.length ? `<p>Held back by this process's notifier now: ${heldHere.map((b) => `${esc(b.url)} until ${time(b.until)}`).join('; ')}</p>` : ''}
</section>
<section aria-labelledby="h-deliveries"><h2 id="h-deliveries">Deliveries</h2>
<form method="get" action="/dashboard/callbacks" class="filters card" aria-label="Filter deliveries">
${select({ label: 'Show', name: 'show', value: show, options: [['failing', 'Failing or retrying'], ['all', 'All']] })}
${select({ label: 'Merchant', name: 'merchant', value: merchantId ?? '', options: [['', 'Any merchant'], ...merchants.map((m): [string, string] => [m.merchantId, m.name])] })}
<div class="actions"><button type="submit">Show</button></div>
</form>
${deliveryTable}</section>`,
    }),
  );
}

async function deliveryPage(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const id = String(ctx.params.id ?? '');
  if (!isUuid(id)) return notFoundPage(ctx, session, deps.environment, 'A delivery id is a UUID.');
  await deps.catchUp();
  const found = await deps.callbacks.byId(id.toLowerCase());
  if (!found) return notFoundPage(ctx, session, deps.environment, `No callback delivery ${id}.`);
  const d = found.delivery;
  const done = queryText(ctx, 'done');
  const flash = done === 'redelivered' ? { kind: 'ok' as const, text: 'Redelivery requested; the attempt is listed below.' } : done === 'busy' ? { kind: 'error' as const, text: 'An attempt of this callback is in progress; try again when it has finished.' } : null;
  html(
    ctx,
    layout({
      title: `Callback ${d.delivery_id.slice(0, 8)}…`,
      section: 'callbacks',
      environment: deps.environment,
      session,
      flash,
      main: `${details([
        ['Payment', `<a href="/dashboard/payments/${esc(d.payment_id)}">${code(d.payment_id)}</a>`],
        ['Scheduled', time(d.scheduled_at)],
        ['Delivered', time(d.delivered_at)],
      ])}
${callbacksOf([found], session, `/dashboard/callbacks/${d.delivery_id}`)}
<section aria-labelledby="h-body"><h2 id="h-body">Body sent</h2><pre>${esc(found.body)}</pre></section>`,
    }),
  );
}

async function redeliver(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const id = String(ctx.params.id ?? '');
  if (!isUuid(id)) return notFoundPage(ctx, session, deps.environment, 'A delivery id is a UUID.');
  const deliveryId = id.toLowerCase();
  const back = dashboardPath(formText(formOf(ctx), 'back'), `/dashboard/callbacks/${deliveryId}`);
  const separator = back.includes('?') ? '&' : '?';
  try {
    const state = await deps.redeliver(deliveryId, `dashboard ${ctx.ip}`);
    if (!state.exists) return notFoundPage(ctx, session, deps.environment, `No callback delivery ${deliveryId}.`);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'callback_not_found') return notFoundPage(ctx, session, deps.environment, `No callback delivery ${deliveryId}.`);
    if (error instanceof DomainError && error.code === 'callback_in_flight') return seeOther(ctx, `/dashboard/callbacks/${deliveryId}?done=busy`);
    throw error;
  }
  seeOther(ctx, `${back}${separator}done=redelivered`);
}
