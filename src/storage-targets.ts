/**
 * Where a configuration's event store and read models live. Kept apart from the composition root,
 * so the projector's thread and the CLI's audit can open them without loading the whole gateway
 * (its HTTP stack and every adapter).
 */
import path from 'node:path';
import type { EventStoreConfig } from './adapters/event-store/create-event-store';
import type { GatewayConfig } from './config';

/** Which database holds the read models: the embedded SQLite unless PostgreSQL is configured. */
export function readModelTarget(config: GatewayConfig) {
  if (config.eventStore === 'sqlite' || !config.databaseUrl) {
    return { kind: 'sqlite' as const, file: path.join(config.dataDir, 'read-models.db') };
  }
  return { kind: 'postgres' as const, url: config.databaseUrl };
}

/** Which event store the configuration names. */
export function eventStoreTarget(config: GatewayConfig): EventStoreConfig {
  return {
    kind: config.eventStore,
    sqliteFile: path.join(config.dataDir, 'events.db'),
    databaseUrl: config.databaseUrl ?? undefined,
    esdbUrl: config.esdbUrl ?? undefined,
  };
}
