import type { ProjectionModule } from '../projection-module';
import { dropMerchants, migrateMerchants } from './migrations';
import { applyToMerchants } from './projection';
import type { MerchantsTables } from './tables';

export const MERCHANTS_PROJECTION = 'merchants';

export function merchantsProjection(): ProjectionModule<MerchantsTables> {
  return {
    name: MERCHANTS_PROJECTION,
    tables: ['merchants'],
    migrate: migrateMerchants,
    drop: dropMerchants,
    apply: applyToMerchants,
  };
}
