/**
 * `GET /.well-known/apple-developer-merchantid-domain-association`: Apple Pay's domain verification.
 * The file of the merchant that registered the domain the request came to (its Host), as
 * `text/plain` with 200; for any other host, or a merchant without a file, the spec's 404.
 */
import type Router from '@koa/router';
import { errors } from '../errors';

export const DOMAIN_ASSOCIATION_PATH = '/.well-known/apple-developer-merchantid-domain-association';

export interface DomainAssociationDeps {
  /** The association file of the merchant whose wallet domain `host` is; null when none. */
  domainAssociationFor(host: string): Promise<string | null>;
}

export function registerWalletDomainAssociationRoute(router: Router, deps: DomainAssociationDeps): void {
  router.get(DOMAIN_ASSOCIATION_PATH, async (ctx) => {
    const file = await deps.domainAssociationFor(ctx.hostname);
    if (file === null) throw errors.routeNotSupported();
    ctx.status = 200;
    ctx.type = 'text/plain';
    ctx.body = file;
  });
}
