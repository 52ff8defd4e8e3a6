/**
 * Configuration from the environment, read once. Defaults give the embedded deployment: SQLite
 * files under ./data, HTTP on 127.0.0.1:8080, sandbox.
 */
import path from 'node:path';
import type { Environment } from './domain/merchant/events';
import type { LogLevel } from './adapters/logging/json-logger';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule } from './domain/callback-delivery/retry-schedule';
import { DEFAULT_URL_BLOCK_POLICY, type UrlBlockPolicy } from './domain/callback-delivery/url-block';
import { DEFAULT_AUTH_THROTTLE, type AuthThrottleSettings } from './domain/auth-throttle/throttle-settings';

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
  /** Seconds between audit checkpoints of the event log (sooner after 1,000 events); 0 records none. */
  auditCheckpointIntervalSeconds: number;
  /** AUDIT_SIGNING_KEY: the checkpoints' Ed25519 private key (PKCS#8 PEM, or it base64); null keeps one in DATA_DIR. */
  auditSigningKey: string | null;
  /** AUDIT_CHECKPOINT_FILE: each signed checkpoint is appended here as a JSON line; null appends nowhere. */
  auditCheckpointFile: string | null;
  /** How often the scheduler looks for due automatic payments. */
  schedulerIntervalMs: number;
  /**
   * How long the projector gathers live events into one read-model transaction under load; null:
   * the default of where it runs (projectorGatherMsOf).
   */
  projectorGatherMs: number | null;
  callbacks: {
    timeoutMs: number;
    retryScheduleMs: number[];
    blockPolicy: UrlBlockPolicy;
    pollMs: number;
    maxInFlight: number;
    /** Whether callbacks may go to loopback and private networks (sandbox: yes; production: no). */
    allowNonPublicAddresses: boolean;
  };
  /** Bearer token of the `/admin` API; null derives one from the vault key. */
  adminToken: string | null;
  /** The connectors this deployment has (CONNECTORS), by name; merchants route to some of them. */
  connectors: ConnectorName[];
  /** Limits on failed authentication (docs/api-notes.md, Rate limits on failed authentication). */
  authFailures: AuthThrottleSettings;
  /** Apple Pay's merchant validation (docs/wallets.md#apple-pay-merchant-validation). */
  appleMerchantValidation: AppleMerchantValidationSettings;
  /** Where `/metrics` is served (docs/operations.md, Metrics). */
  metrics: {
    /** METRICS_TOKEN: the bearer token scrapers present; null: the admin token on the API's port. */
    token: string | null;
    /** METRICS_PORT: a listener of its own for /metrics (every role); null: on the API's port. */
    port: number | null;
    /** METRICS_HOST: the address that listener binds; default HOST. */
    host: string;
  };
}

export class ConfigError extends Error {}

/** The connectors this release ships. */
export const CONNECTOR_NAMES = ['sandbox', 'sandbox-b', 'sandbox-apm', 'sandbox-wallet'] as const;
export type ConnectorName = (typeof CONNECTOR_NAMES)[number];

function connectorsFrom(value: string | undefined): ConnectorName[] {
  if (value === undefined || value.trim() === '') return [...CONNECTOR_NAMES];
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  if (names.length === 0) throw new ConfigError('CONNECTORS must name at least one connector');
  for (const name of names) oneOf('CONNECTORS', name, CONNECTOR_NAMES);
  if (new Set(names).size !== names.length) throw new ConfigError('CONNECTORS names a connector twice');
  return names as ConnectorName[];
}

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

/** VAULT_KEY: 32 bytes in hex; unset (or empty), the key is DATA_DIR/vault.key. */
function vaultKey(value: string | undefined): string | null {
  if (!value) return null;
  if (!/^[0-9a-fA-F]{64}$/.test(value.trim())) {
    throw new ConfigError(
      `VAULT_KEY must be 64 hexadecimal characters, 32 bytes (got ${value.trim().length} characters): set the key every process of the deployment shares, or unset it to use DATA_DIR/vault.key`,
    );
  }
  return value;
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
    vaultKeyHex: vaultKey(env.VAULT_KEY),
    logLevel: oneOf('GATEWAY_LOG_LEVEL', env.GATEWAY_LOG_LEVEL || 'info', ['silent', 'error', 'warn', 'info'] as const),
    trustProxy: env.TRUST_PROXY === 'true',
    payerActionTimeoutMinutes: integer('PAYER_ACTION_TIMEOUT_MINUTES', env.PAYER_ACTION_TIMEOUT_MINUTES || '15', 1, 1440),
    sandboxDescriptor: (env.SANDBOX_DESCRIPTOR || 'SANDBOX*GATEWAY').slice(0, 20),
    sandboxLatencyMs: integer('SANDBOX_LATENCY_MS', env.SANDBOX_LATENCY_MS || '0', 0, 60000),
    auditCheckpointIntervalSeconds: integer('AUDIT_CHECKPOINT_INTERVAL_SECONDS', env.AUDIT_CHECKPOINT_INTERVAL_SECONDS || '10', 0, 86400),
    auditSigningKey: env.AUDIT_SIGNING_KEY?.trim() || null,
    auditCheckpointFile: env.AUDIT_CHECKPOINT_FILE ? path.resolve(env.AUDIT_CHECKPOINT_FILE) : null,
    schedulerIntervalMs: integer('SCHEDULER_INTERVAL_MS', env.SCHEDULER_INTERVAL_MS || '1000', 50, 3_600_000),
    projectorGatherMs: env.PROJECTOR_GATHER_MS ? integer('PROJECTOR_GATHER_MS', env.PROJECTOR_GATHER_MS, 0, 60_000) : null,
    adminToken: adminTokenFrom(env.ADMIN_TOKEN),
    connectors: connectorsFrom(env.CONNECTORS),
    callbacks: callbackSettings(env),
    authFailures: authFailureSettings(env),
    appleMerchantValidation: appleMerchantValidationSettings(env),
    metrics: {
      token: secretToken('METRICS_TOKEN', env.METRICS_TOKEN),
      port: env.METRICS_PORT ? integer('METRICS_PORT', env.METRICS_PORT, 0, 65535) : null,
      host: env.METRICS_HOST || host,
    },
  };
}

export interface AppleMerchantValidationSettings {
  /** WALLET_APPLE_VALIDATION_URL: Apple's Payment Session endpoint (https). */
  url: string;
  /** WALLET_APPLE_VALIDATION_CA_FILE: the only certificate authorities to trust for it (a test's own); sandbox only. */
  caFile: string | null;
  /** A stand-in on the machine itself (or a private network) is reached in the sandbox only. */
  allowNonPublicAddresses: boolean;
}

export const APPLE_PAYMENT_SESSION_URL = 'https://apple-pay-gateway.apple.com/paymentservices/paymentSession';

function appleMerchantValidationSettings(env: NodeJS.ProcessEnv): AppleMerchantValidationSettings {
  const production = (env.GATEWAY_ENV || 'sandbox') === 'production';
  const url = env.WALLET_APPLE_VALIDATION_URL || APPLE_PAYMENT_SESSION_URL;
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // Refused below.
  }
  if (parsed?.protocol !== 'https:') throw new ConfigError(`WALLET_APPLE_VALIDATION_URL must be an https URL (got "${url}")`);
  const caFile = env.WALLET_APPLE_VALIDATION_CA_FILE ? path.resolve(env.WALLET_APPLE_VALIDATION_CA_FILE) : null;
  // Production presents merchant certificates to Apple alone, checked against the system's authorities.
  if (production && caFile) throw new ConfigError('WALLET_APPLE_VALIDATION_CA_FILE is for testing outside production only');
  return { url, caFile, allowNonPublicAddresses: !production };
}

/** A failure limit: a positive count, or 0 / `off` for none. */
function failureLimit(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (value === 'off') return 0;
  return integer(name, value, 0, 1_000_000);
}

function authFailureSettings(env: NodeJS.ProcessEnv): AuthThrottleSettings {
  const window = env.AUTH_FAILURE_WINDOW;
  return {
    subjectIpLimit: failureLimit('AUTH_FAILURE_LIMIT', env.AUTH_FAILURE_LIMIT, DEFAULT_AUTH_THROTTLE.subjectIpLimit),
    ipLimit: failureLimit('AUTH_FAILURE_IP_LIMIT', env.AUTH_FAILURE_IP_LIMIT, DEFAULT_AUTH_THROTTLE.ipLimit),
    subjectLimit: failureLimit('AUTH_FAILURE_KEY_LIMIT', env.AUTH_FAILURE_KEY_LIMIT, DEFAULT_AUTH_THROTTLE.subjectLimit),
    // A bare number is seconds, like the Retry-After the window ends up in.
    windowMs: window && /^\d+$/.test(window)
      ? integer('AUTH_FAILURE_WINDOW', window, 1, 86_400) * 1000
      : duration('AUTH_FAILURE_WINDOW', window, DEFAULT_AUTH_THROTTLE.windowMs),
    maxTracked: integer('AUTH_FAILURE_TRACKED', env.AUTH_FAILURE_TRACKED || String(DEFAULT_AUTH_THROTTLE.maxTracked), 100, 10_000_000),
  };
}

function adminTokenFrom(value: string | undefined): string | null {
  return secretToken('ADMIN_TOKEN', value);
}

function secretToken(name: string, value: string | undefined): string | null {
  if (!value) return null;
  if (value.length < 24 || /\s/.test(value)) throw new ConfigError(`${name} must be at least 24 characters without spaces`);
  return value;
}

function duration(name: string, value: string | undefined, fallbackMs: number): number {
  if (value === undefined || value === '') return fallbackMs;
  const parsed = parseRetrySchedule(value);
  if (!parsed || parsed.length !== 1) throw new ConfigError(`${name} must be a duration such as 500ms, 10s, 5m or 1h (got "${value}")`);
  return parsed[0];
}

function callbackSettings(env: NodeJS.ProcessEnv): GatewayConfig['callbacks'] {
  let retryScheduleMs = [...DEFAULT_RETRY_SCHEDULE_MS];
  if (env.CALLBACK_RETRY_SCHEDULE !== undefined && env.CALLBACK_RETRY_SCHEDULE !== '') {
    const parsed = env.CALLBACK_RETRY_SCHEDULE === 'none' ? [] : parseRetrySchedule(env.CALLBACK_RETRY_SCHEDULE);
    if (!parsed) {
      throw new ConfigError(`CALLBACK_RETRY_SCHEDULE must be a comma-separated list of durations such as 1m,5m,1h, or none (got "${env.CALLBACK_RETRY_SCHEDULE}")`);
    }
    retryScheduleMs = parsed;
  }
  const production = (env.GATEWAY_ENV || 'sandbox') === 'production';
  const allowPrivate = env.CALLBACK_ALLOW_PRIVATE_NETWORKS;
  if (allowPrivate !== undefined && allowPrivate !== '' && allowPrivate !== 'true' && allowPrivate !== 'false') {
    throw new ConfigError('CALLBACK_ALLOW_PRIVATE_NETWORKS must be true or false');
  }
  return {
    timeoutMs: duration('CALLBACK_TIMEOUT', env.CALLBACK_TIMEOUT, 10_000),
    retryScheduleMs,
    blockPolicy: {
      timeouts: integer('CALLBACK_BLOCK_AFTER_TIMEOUTS', env.CALLBACK_BLOCK_AFTER_TIMEOUTS || String(DEFAULT_URL_BLOCK_POLICY.timeouts), 1, 1000),
      windowMs: duration('CALLBACK_BLOCK_WINDOW', env.CALLBACK_BLOCK_WINDOW, DEFAULT_URL_BLOCK_POLICY.windowMs),
      blockMs: duration('CALLBACK_BLOCK_FOR', env.CALLBACK_BLOCK_FOR, DEFAULT_URL_BLOCK_POLICY.blockMs),
    },
    pollMs: integer('NOTIFIER_POLL_MS', env.NOTIFIER_POLL_MS || '1000', 10, 600_000),
    maxInFlight: integer('CALLBACK_MAX_IN_FLIGHT', env.CALLBACK_MAX_IN_FLIGHT || '256', 1, 10_000),
    allowNonPublicAddresses: allowPrivate ? allowPrivate === 'true' : !production,
  };
}

/**
 * The projector's gathering, unless PROJECTOR_GATHER_MS sets it. On its thread in the gateway's own
 * process, a reader waiting for the read models to reach a position ends the gathering, so the
 * merchants' and operators' reads that wait for their writes never wait for it: 100 ms, which under
 * load makes each read-model transaction carry five times the events and costs the projector about
 * a third less CPU per SALE (measured with `npm run bench`). In a process of its own (the `projector`
 * role) readers wait the gathering out: 20 ms.
 */
export function projectorGatherMsOf(config: Pick<GatewayConfig, 'projectorGatherMs'>, where: 'thread' | 'process'): number {
  return config.projectorGatherMs ?? (where === 'thread' ? 100 : 20);
}
