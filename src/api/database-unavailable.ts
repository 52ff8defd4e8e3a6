/**
 * Errors that mean "the database cannot be reached right now", as opposed to a bug: a PostgreSQL
 * connection that was refused, dropped or terminated (server restart, failover, an operator's
 * pg_terminate_backend), a statement cancelled by its timeout, or SQLite still locked after its busy
 * timeout. The request did nothing it cannot repeat safely (appends are all-or-nothing and order ids
 * are reserved with the payment), so the client is told to try again: 503 with Retry-After.
 */

/**
 * SQLSTATE codes: class 08 (connection exception) is matched as a class; 57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now, 57014 query_canceled (statement timeout),
 * 53300 too_many_connections.
 */
const SQLSTATES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '57014', '53300']);

/** Socket errors of a database connection (Node's errno codes). */
const SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** What pg and its pool say when a connection ends or cannot be had (they carry no code). */
const MESSAGES: readonly RegExp[] = [
  /^Connection terminated/,
  /is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Connection ended unexpectedly/,
  // SQLITE_BUSY as it arrives from the SQLite writer thread, which passes the message on, not the code.
  /^database is locked$/,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') {
      if (SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || SOCKET_CODES.has(code)) return true;
      // SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT, ...): still locked after busy_timeout.
      if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
    }
    if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = cause;
  }
  return false;
}
