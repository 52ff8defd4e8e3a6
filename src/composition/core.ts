/**
 * What every bounded context of the gateway is wired from: its configuration, log, business clock
 * and metrics, the event store (events in their current shape), the read models and the vault key.
 */
import type { Kysely } from 'kysely';
import type { ReadModelDatabase } from '../../projections/database-schema';
import type { ReadModels } from '../../projections/read-models';
import type { GatewayMetrics } from '../adapters/metrics/gateway-metrics';
import type { Clock } from '../application/ports/clock';
import type { EventStore } from '../application/ports/event-store';
import type { Logger } from '../application/ports/logger';
import type { GatewayConfig } from '../config';
import type { BuildOptions } from './gateway';

export interface Core {
  config: GatewayConfig;
  options: BuildOptions;
  logger: Logger;
  /** Business time: the sandbox's movable clock in the sandbox, real time in production. */
  clock: Clock;
  metrics: GatewayMetrics;
  store: EventStore;
  readDb: Kysely<ReadModelDatabase>;
  readModels: ReadModels;
  key: Buffer;
}
