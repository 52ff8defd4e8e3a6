/**
 * Health: the event store's head, each projection's lag, the callback backlog and blocked URLs,
 * chains due, the newest audit checkpoint, and `audit verify` on demand: a background job in this
 * process whose progress the page follows (dashboard.js polls the JSON beside it) and whose
 * report it shows when done.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { describeBroken } from '../../../application/audit/verifier';
import type { VerifyJobProgress } from '../../../application/audit/verify-job';
import type { DashboardDeps } from '../deps';
import { queryText } from '../format';
import { html, seeOther, type Guard } from '../guard';
import { badge, code, csrfInput, details, esc, layout, table, time } from '../html';
import type { DashboardSession } from '../session';

export const AUDIT_STATUS_PATH = '/dashboard/health/audit.json';

export function registerHealthPages(router: Router, guard: Guard, deps: DashboardDeps): void {
  guard.page(router, '/dashboard/health', (ctx, session) => healthPage(ctx, session, deps));
  guard.action(router, '/dashboard/health/audit', (ctx) => {
    const started = deps.audit.start();
    seeOther(ctx, `/dashboard/health?done=${started ? 'audit-started' : 'audit-running'}#audit`);
  });
  guard.json(router, AUDIT_STATUS_PATH, (ctx) => {
    ctx.body = jsonOf(deps.audit.status());
  });
}

/** The job's progress as JSON (bigints as text). */
function jsonOf(progress: VerifyJobProgress): unknown {
  return JSON.parse(JSON.stringify(progress, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
}

async function settle<T>(read: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

async function healthPage(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const now = deps.businessNow();
  const [head, checkpoints, backlog, due, checkpoint] = await Promise.all([
    settle(() => deps.health.head()),
    settle(() => deps.health.checkpoints()),
    settle(() => deps.callbacks.backlog(now.toISOString())),
    settle(() => deps.chains.countChainsDue(now.toISOString().slice(0, 10))),
    settle(() => deps.health.lastAuditCheckpoint()),
  ]);
  const unreachable = (r: { ok: false; error: string }) => `${badge('unavailable')} <span class="muted">${esc(r.error)}</span>`;
  const headValue = head.ok ? head.value : null;
  const lagRows =
    head.ok && checkpoints.ok
      ? Object.entries(checkpoints.value)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, position]) => {
            const lag = headValue === null ? 0n : headValue - position;
            return [esc(name), esc(position.toString()), esc(lag.toString()), badge(lag <= 0n ? 'ok' : 'behind')];
          })
      : [];
  const blocked = deps.health.blockedUrls();
  const done = queryText(ctx, 'done');
  const running = deps.audit.status().state === 'running';
  const flash = running && done === 'audit-started' ? { kind: 'ok' as const, text: 'audit verify started.' } : running && done === 'audit-running' ? { kind: 'ok' as const, text: 'audit verify is already running.' } : null;

  html(
    ctx,
    layout({
      title: 'Health',
      section: 'health',
      environment: deps.environment,
      session,
      flash,
      main: `<div class="grid-2">
<section class="card" aria-labelledby="h-store"><h2 id="h-store">Event store</h2>${details([
        ['Head position', head.ok ? `<span class="stat">${esc(headValue?.toString() ?? 'empty')}</span>` : unreachable(head)],
        ['Callback backlog', backlog.ok ? esc(`${backlog.value.pending} pending (${backlog.value.due} due now), ${backlog.value.inFlight} in flight`) : unreachable(backlog)],
        ['Blocked URLs (this process)', blocked.length ? blocked.map((b) => `${esc(b.url)} until ${time(b.until)}`).join('<br>') : 'none'],
        ['Chains due', due.ok ? esc(String(due.value)) : unreachable(due)],
      ])}</section>
<section class="card" aria-labelledby="h-checkpoint"><h2 id="h-checkpoint">Last audit checkpoint</h2>${
        !checkpoint.ok
          ? unreachable(checkpoint)
          : checkpoint.value
            ? details([
                ['Recorded', time(checkpoint.value.recordedAt)],
                ['Covers up to position', esc(checkpoint.value.upToPosition)],
                ['Events in its range', esc(String(checkpoint.value.eventCount))],
                ['Digest', code(checkpoint.value.digest)],
              ])
            : '<p class="empty">No checkpoint yet (the projecting process records one every AUDIT_CHECKPOINT_INTERVAL_SECONDS when the log moved).</p>'
      }</section>
</div>
<section aria-labelledby="h-lag"><h2 id="h-lag">Read models</h2>
${checkpoints.ok ? table({ caption: 'Projection checkpoints and lag behind the event store', head: ['Projection', 'Checkpoint', 'Lag (positions)', ''], rows: lagRows, empty: 'No projection has applied anything yet.', numeric: [1, 2] }) : `<p>${unreachable(checkpoints)}</p>`}
</section>
<section aria-labelledby="h-audit" id="audit"><h2 id="h-audit">Audit verify</h2>
<p class="muted">Walks the whole event log as stored and checks every stream's hash chain and every audit checkpoint, as <code>npm run gateway -- audit verify</code> does. It runs in the background in this process, a page of events at a time.</p>
${auditBox(deps.audit.status(), session)}
</section>`,
    }),
  );
}

function auditBox(p: VerifyJobProgress, session: DashboardSession): string {
  const start = `<form method="post" action="/dashboard/health/audit" class="actions">${csrfInput(session)}<button type="submit">${p.state === 'idle' ? 'Run audit verify' : 'Run audit verify again'}</button></form>`;
  if (p.state === 'running') {
    return `<div class="card" data-audit-status="${AUDIT_STATUS_PATH}" data-state="running" aria-live="polite">
<p>${badge('running')} since ${time(p.startedAt)}</p>
<progress max="${esc(p.head ?? '1')}" value="${esc(p.position ?? '0')}" aria-label="Events checked"></progress>
<p data-progress-text>${esc(`${p.events} events checked${p.rate ? `, ${p.rate} events/s` : ''}${p.etaSeconds !== null ? `, about ${p.etaSeconds} s left` : ''}`)}</p>
<p><a href="/dashboard/health#audit">Refresh</a></p></div>`;
  }
  if (p.state === 'done' && p.report) {
    const r = p.report;
    const outcome = r.ok
      ? `<p data-audit-result="ok">${badge('ok')} <strong>OK: ${r.events} events in ${r.streams} streams, ${r.checkpoints} checkpoints verified</strong></p>`
      : `<p data-audit-result="broken">${badge('broken')} <strong>${esc(describeBroken(r.broken!))}</strong> (${r.events} events verified before it)</p>`;
    return `<div class="card" data-audit-status="${AUDIT_STATUS_PATH}" data-state="done">${outcome}${details([
      ['Started', time(p.startedAt)],
      ['Finished', time(p.finishedAt)],
      ['Newest checkpoint digest', r.latestCheckpoint ? code(r.latestCheckpoint.digest) : 'none yet'],
    ])}<p class="muted">Keep the digest where the database's writers cannot reach: a log that no longer reproduces it was rewritten.</p>${start}</div>`;
  }
  if (p.state === 'failed') {
    return `<div class="card" data-audit-status="${AUDIT_STATUS_PATH}" data-state="failed"><p role="alert">${badge('failed')} ${esc(p.error ?? '')}</p>${start}</div>`;
  }
  return `<div class="card" data-audit-status="${AUDIT_STATUS_PATH}" data-state="idle"><p>Not run from this process yet.</p>${start}</div>`;
}
