import type { ProjectionModule } from '../projection-module';
import { dropCallbackDeliveries, migrateCallbackDeliveries } from './migrations';
import { applyToCallbackDeliveries } from './projection';
import type { CallbackDeliveriesTables } from './tables';

export const CALLBACK_DELIVERIES_PROJECTION = 'callback_deliveries';

export function callbackDeliveriesProjection(): ProjectionModule<CallbackDeliveriesTables> {
  return {
    name: CALLBACK_DELIVERIES_PROJECTION,
    tables: ['callback_deliveries', 'callback_attempts'],
    migrate: migrateCallbackDeliveries,
    drop: dropCallbackDeliveries,
    apply: applyToCallbackDeliveries,
  };
}
