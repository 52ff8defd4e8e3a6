/**
 * What auditors fetch, without credentials: the public key that signs audit checkpoints and the
 * newest signed checkpoint. Both are public by design (a public key, and a root hash that reveals
 * nothing of the events under it), and both are checked by their signature, not by who served them:
 * an auditor pins the key once, from `npm run gateway -- audit key` or a first fetch, and polls the
 * checkpoint to keep (docs/audit.md).
 */
import type Router from '@koa/router';
import type { SignedCheckpoint } from '../../domain/audit/signed-checkpoint';

export interface AuditRouteDeps {
  /** The public key, PEM (SPKI). */
  publicKeyPem: string;
  keyId: string;
  latest(): Promise<SignedCheckpoint | null>;
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
}
