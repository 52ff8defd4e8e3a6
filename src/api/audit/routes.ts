/**
 * What auditors fetch, without credentials: the public key that signs audit checkpoints, the newest
 * signed checkpoint and every one before it, a page at a time. All are public by design (a public
 * key, and root hashes that reveal nothing of the events under them), and all are checked by their
 * signature, not by who served them: an auditor pins the key once, from `npm run gateway -- audit
 * key` or a first fetch, and polls the checkpoints to keep (docs/audit.md).
 */
import type Router from '@koa/router';
import type { SignedCheckpoint } from '../../domain/audit/signed-checkpoint';
import { errors } from '../errors';

const DEFAULT_PAGE = 100;

export interface AuditRouteDeps {
  /** The public key, PEM (SPKI). */
  publicKeyPem: string;
  keyId: string;
  latest(): Promise<SignedCheckpoint | null>;
  /** Signed checkpoints whose position is after `after` (from the first when null), oldest first. */
  history(after: bigint | null, limit: number): Promise<{ checkpoints: SignedCheckpoint[]; hasMore: boolean; nextAfter: string | null }>;
}

export function registerAuditRoutes(router: Router, deps: AuditRouteDeps): void {
  router.get('/audit/key', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('X-Key-Id', deps.keyId);
    ctx.type = 'application/x-pem-file';
    ctx.body = deps.publicKeyPem;
  });
  router.get('/audit/checkpoints/latest', async (ctx) => {
    const latest = await deps.latest();
    ctx.set('Cache-Control', 'no-store');
    if (!latest) {
      ctx.status = 404;
      ctx.body = { result: 'ERROR', error_code: 'no_checkpoint', error_message: 'No signed audit checkpoint has been recorded yet' };
      return;
    }
    ctx.body = latest;
  });
  router.get('/audit/checkpoints', async (ctx) => {
    const q = ctx.query as Record<string, string | string[] | undefined>;
    const fieldErrors = [];
    // Positions are 64-bit: at most 19 digits.
    if (q.after !== undefined && !(typeof q.after === 'string' && /^(?:0|[1-9]\d{0,18})$/.test(q.after))) fieldErrors.push(errors.field('after', 'must be a position: a decimal integer'));
    if (q.limit !== undefined && !(typeof q.limit === 'string' && /^(?:[1-9]\d{0,2}|1000)$/.test(q.limit))) fieldErrors.push(errors.field('limit', 'must be an integer in 1..1000'));
    if (fieldErrors.length) throw errors.invalid(fieldErrors);
    const page = await deps.history(typeof q.after === 'string' ? BigInt(q.after) : null, typeof q.limit === 'string' ? Number(q.limit) : DEFAULT_PAGE);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { checkpoints: page.checkpoints, has_more: page.hasMore, next_after: page.nextAfter };
  });
}
