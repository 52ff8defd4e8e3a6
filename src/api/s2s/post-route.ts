/**
 * `POST /post`: the S2S CARD form API. Checks run in a fixed order so merchants get the most useful
 * refusal: action allowlist, key environment, merchant, IP allowlist, field validation, hash (in
 * each action), then business rules and existence (validation always before existence, spec Errors
 * rule 2). The actions themselves are in `actions/`, listed in `actions/index.ts`.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { WrongExpectedVersionError } from '../../application/ports/event-store';
import type { MerchantAccount } from '../../application/merchant-service';
import { merchantStreamId } from '../../domain/merchant/events';
import { ipAllowed } from '../../domain/merchant/ip-allowlist';
import { keyEnvironment } from '../../domain/merchant/keys';
import { admitOrRefuse, countingHashFailures, merchantSubject } from '../auth-throttle';
import { ApiError, errors } from '../errors';
import { normalizeForm, repeatedNames, SENT_MORE_THAN_ONCE } from '../form';
import { s2sActions } from './actions';
import { isS2sActionName } from './actions/names';
import type { S2sDeps } from './s2s-action';

export type { ActionContext, PaymentQueries, S2sAction, S2sDeps } from './s2s-action';

const FORM_BODIES_ONLY = 'The request body must be application/x-www-form-urlencoded or multipart/form-data.';

export function registerS2sRoutes(router: Router, deps: S2sDeps): void {
  const actions = s2sActions(deps);

  router.post('/post', async (ctx: Koa.Context) => {
    // docs/reference/README.md#addresses-and-transport: form bodies only. JSON would bring types and nesting no S2S field has.
    const type = ctx.request.type.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') {
      throw errors.invalid([errors.field('body', FORM_BODIES_ONLY)]);
    }
    const form = normalizeForm((ctx.request as { body?: unknown }).body);
    const name = form.action;
    if (!isS2sActionName(name)) throw errors.routeNotSupported();
    const chosen = actions[name];
    const clientKey = form.client_key;
    if (Array.isArray(clientKey)) throw errors.invalid([errors.field('client_key', SENT_MORE_THAN_ONCE)]);
    if (typeof clientKey !== 'string' || clientKey.length === 0) {
      throw errors.invalid([errors.field('client_key', 'This value should not be blank.')]);
    }
    const keyEnv = keyEnvironment(clientKey);
    if (keyEnv !== null && keyEnv !== deps.environment) throw errors.otherEnvironmentKey();
    // A merchant's settings must hold for the very next request (MerchantService.current). A SALE
    // writes anyway, so it skips confirming cached ones first: its first write carries their
    // version as a check (SaleRequest.merchantSettingsAt), and what it answers without that write
    // is confirmed after the fact below.
    const verify = name !== 'SALE';
    const merchant = await deps.merchants.byClientKey(clientKey, { verify });
    const subject = merchant ? merchantSubject(merchant) : null;
    // Before anything about the merchant is answered: a locked client learns nothing more.
    admitOrRefuse(ctx, deps.throttle, subject);
    if (!merchant || !subject) {
      deps.throttle?.failed(ctx.ip, null, ctx.state.requestId);
      throw errors.invalid([errors.field('client_key', 'Merchant not found.')]);
    }
    const serve = (merchant: MerchantAccount) => {
      if (!ipAllowed(merchant.ipAllowlist, ctx.request.ip)) throw errors.ipNotAllowed();
      // A name sent twice is said as such, in place of what its schema would say of the list.
      const repeated = repeatedNames(form);
      const fieldErrors = [
        ...repeated.map((field) => errors.field(field, SENT_MORE_THAN_ONCE)),
        ...chosen.validate(form).filter((e) => !repeated.some((field) => e.error_message.startsWith(`${field}: `) || e.error_message.startsWith(`${field}[`))),
      ];
      if (fieldErrors.length) throw errors.invalid(fieldErrors);
      return chosen.handle({ form, merchant, requestId: ctx.state.requestId, ip: ctx.request.ip });
    };
    // Every action checks its hash before anything else it answers; this is where a wrong one is counted.
    ctx.body = await countingHashFailures(ctx, deps.throttle, subject, async () => {
      if (verify) return serve(merchant);
      try {
        return await serve(merchant);
      } catch (error) {
        // The settings' check refused the write, or a refusal (decided before any write, or by a
        // write refused after the check) came from settings that have changed since: the request
        // is served again under the current ones. Anything else stands as it is.
        if (!(await decidedUnderStaleSettings(deps, merchant, error))) throw error;
        const current = await deps.merchants.byClientKey(clientKey);
        if (!current) throw error;
        return serve(current);
      }
    });
  });
}

async function decidedUnderStaleSettings(deps: S2sDeps, merchant: MerchantAccount, error: unknown): Promise<boolean> {
  if (error instanceof WrongExpectedVersionError) return error.streamId === merchantStreamId(merchant.merchantId);
  return error instanceof ApiError && !(await deps.merchants.isCurrent(merchant));
}
