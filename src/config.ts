/**
 * Configuration from the environment, read once. Defaults give the embedded deployment: SQLite
 * files under ./data, HTTP on 127.0.0.1:8080, sandbox.
 */
import path from 'node:path';
import type { Environment } from './domain/merchant/events';
import type { LogLevel } from './adapters/logging/json-logger';

export type EventStoreKind = 'sqlite' | 'postgres' | 'eventstoredb';

export interface GatewayConfig {
  host: string;
  port: number;
  publicBaseUrl: string;
  dataDir: string;
  eventStore: EventStoreKind;
  databaseUrl: string | null;
  esdbUrl: string | null;
  environment: Environment;
  vaultKeyHex: string | null;
  logLevel: LogLevel;
  trustProxy: boolean;
  /** Minutes a payer may take on the ACS or redirect page before the payment is declined. */
  payerActionTimeoutMinutes: number;
  sandboxDescriptor: string;
  sandboxLatencyMs: number;
  /** Bearer token of the `/admin` API; null derives one from the vault key. */
  adminToken: string | null;
}

export class ConfigError extends Error {}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

function integer(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new ConfigError(`${name} must be an integer in ${min}..${max} (got "${value}")`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const host = env.HOST || '127.0.0.1';
  const port = integer('PORT', env.PORT || '8080', 0, 65535);
  const eventStore = oneOf('EVENT_STORE', env.EVENT_STORE || 'sqlite', ['sqlite', 'postgres', 'eventstoredb'] as const);
  const databaseUrl = env.DATABASE_URL || null;
  const esdbUrl = env.ESDB_URL || null;
  if (eventStore === 'postgres' && !databaseUrl) throw new ConfigError('EVENT_STORE=postgres needs DATABASE_URL');
  if (eventStore === 'eventstoredb' && !esdbUrl) throw new ConfigError('EVENT_STORE=eventstoredb needs ESDB_URL');
  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    host,
    port,
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://${displayHost}:${port}`).replace(/\/+$/, ''),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    eventStore,
    databaseUrl,
    esdbUrl,
    environment: oneOf('GATEWAY_ENV', env.GATEWAY_ENV || 'sandbox', ['sandbox', 'production'] as const),
    vaultKeyHex: env.VAULT_KEY || null,
    logLevel: oneOf('GATEWAY_LOG_LEVEL', env.GATEWAY_LOG_LEVEL || 'info', ['silent', 'error', 'warn', 'info'] as const),
    trustProxy: env.TRUST_PROXY === 'true',
    payerActionTimeoutMinutes: integer('PAYER_ACTION_TIMEOUT_MINUTES', env.PAYER_ACTION_TIMEOUT_MINUTES || '15', 1, 1440),
    sandboxDescriptor: (env.SANDBOX_DESCRIPTOR || 'SANDBOX*GATEWAY').slice(0, 20),
    sandboxLatencyMs: integer('SANDBOX_LATENCY_MS', env.SANDBOX_LATENCY_MS || '0', 0, 60000),
    adminToken: adminTokenFrom(env.ADMIN_TOKEN),
  };
}

function adminTokenFrom(value: string | undefined): string | null {
  if (!value) return null;
  if (value.length < 24 || /\s/.test(value)) throw new ConfigError('ADMIN_TOKEN must be at least 24 characters without spaces');
  return value;
}
