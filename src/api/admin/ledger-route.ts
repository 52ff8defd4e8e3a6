/**
 * `GET /admin/ledger/balances?merchant_id=&currency=&as_of=`: the ledger's balance per merchant,
 * currency and account, from postings dated at or before `as_of` (default: all of them).
 */
import type Router from '@koa/router';
import type { LedgerReadModel } from '../../application/ports/ledger-read-model';
import { balanceView, parseAsOf } from '../../domain/ledger/balance-report';
import { isCurrency } from '../../domain/money';
import { type FieldError, errors } from '../errors';

export interface LedgerAdminDeps {
  ledger: LedgerReadModel;
  /** Waits until the read models include what was appended so far. */
  catchUp(): Promise<unknown>;
}

export function registerLedgerAdminRoutes(router: Router, deps: LedgerAdminDeps): void {
  router.get('/ledger/balances', async (ctx) => {
    const q = ctx.query;
    const fieldErrors: FieldError[] = [];
    const single = (name: string): string | undefined => {
      const value = q[name];
      if (value === undefined || value === '') return undefined;
      if (typeof value !== 'string') {
        fieldErrors.push(errors.field(name, 'must be given once'));
        return undefined;
      }
      return value;
    };
    const merchantId = single('merchant_id');
    if (merchantId !== undefined && merchantId.length > 64) fieldErrors.push(errors.field('merchant_id', 'is too long'));
    const currency = single('currency');
    if (currency !== undefined && !isCurrency(currency)) fieldErrors.push(errors.field('currency', 'must be an ISO 4217 code such as EUR'));
    const asOfText = single('as_of');
    const asOf = asOfText === undefined ? undefined : parseAsOf(asOfText);
    if (asOf === null) fieldErrors.push(errors.field('as_of', 'must be an ISO-8601 date-time with a zone, e.g. 2024-05-01T23:59:59Z'));
    if (fieldErrors.length) throw errors.invalid(fieldErrors);

    await deps.catchUp();
    const balances = await deps.ledger.balances({ merchantId, currency, asOf: asOf ?? undefined });
    ctx.body = { result: 'SUCCESS', as_of: asOf?.toISOString() ?? null, balances: balances.map(balanceView) };
  });
}
