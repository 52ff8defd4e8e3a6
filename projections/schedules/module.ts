import type { ProjectionModule } from '../projection-module';
import { dropSchedules, migrateSchedules } from './migrations';
import { applyToSchedules } from './projection';
import type { ScheduleTables } from './tables';

export const SCHEDULES_PROJECTION = 'schedules';

export function schedulesProjection(): ProjectionModule<ScheduleTables> {
  return {
    name: SCHEDULES_PROJECTION,
    tables: ['schedules', 'scheduled_chains'],
    migrate: migrateSchedules,
    drop: dropSchedules,
    apply: applyToSchedules,
  };
}
