/**
 * Every read model the gateway serves from, listed once. Migrating, dropping, projecting, rebuilding
 * and verifying go over this list, and `ReadModelDatabase` is composed from its modules' tables.
 * A new projection is a folder `projections/<name>/` whose `module.ts` is added here.
 */
import { callbackDeliveriesProjection } from './callback-deliveries/module';
import { ledgerProjection } from './ledger/module';
import { merchantsProjection } from './merchants/module';
import { paymentsProjection } from './payments/module';
import type { ProjectionModule } from './projection-module';
import { schedulesProjection } from './schedules/module';
import { transactionsProjection } from './transactions/module';

/** The modules in the order a batch is applied to them (and their tables are created). */
export const projectionModules = () =>
  [
    paymentsProjection(),
    transactionsProjection(),
    merchantsProjection(),
    callbackDeliveriesProjection(),
    ledgerProjection(),
    schedulesProjection(),
  ] as const;

export type ProjectionModules = ReturnType<typeof projectionModules>;

/** The same list, for code that treats every projection alike. */
export function allProjections(): ProjectionModule[] {
  return [...projectionModules()];
}

/** Every projection's name: what a reader of every read model (the dashboard, an operator's check) waits for. */
export function allProjectionNames(): string[] {
  return allProjections().map((projection) => projection.name);
}
