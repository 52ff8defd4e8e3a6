import type { ProjectionModule } from '../projection-module';
import { dropPayments, migratePayments } from './migrations';
import { applyToPayments } from './projection';
import type { PaymentsTables } from './tables';

export const PAYMENTS_PROJECTION = 'payments';

export function paymentsProjection(): ProjectionModule<PaymentsTables> {
  return {
    name: PAYMENTS_PROJECTION,
    tables: ['payments'],
    migrate: migratePayments,
    drop: dropPayments,
    apply: applyToPayments,
  };
}
