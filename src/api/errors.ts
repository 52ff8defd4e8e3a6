/**
 * Errors in the spec's shape: `result: ERROR`, `error_code`, `error_message`, optional `errors`.
 * Every refusal the API makes is one of these; anything else that escapes a handler is a bug,
 * logged with its request id and answered with a generic 500 that leaks nothing.
 */
import type Koa from 'koa';
import type { Logger } from '../application/ports/logger';
import { isDatabaseUnavailable } from './database-unavailable';

export interface FieldError {
  error_code: number;
  error_message: string;
}

export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number | string,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  body(): Record<string, unknown> {
    const body: Record<string, unknown> = { result: 'ERROR', error_code: this.code, error_message: this.message };
    if (this.errors?.length) body.errors = this.errors;
    return body;
  }
}

export const INVALID_REQUEST = 'Request data is invalid.';
export const TOO_MANY_AUTH_FAILURES = 'Too many failed authentication attempts. Try again later.';

export const errors = {
  routeNotSupported: () => new ApiError(404, 0, 'Route or parameters is not supported'),
  invalid: (fieldErrors: FieldError[]) => new ApiError(400, 100000, INVALID_REQUEST, fieldErrors),
  field: (field: string, message: string) => ({ error_code: 100000, error_message: `${field}: ${message}` }),
  hash: () => new ApiError(400, 100000, 'Hash is not valid'),
  duplicate: () => new ApiError(400, 100000, 'order_id: Duplicate payment.'),
  refundNotAllowed: () => new ApiError(400, 100000, 'Refund is not allowed'),
  paymentNotFound: () => new ApiError(400, 100000, 'Payment not found.'),
  ipNotAllowed: () => new ApiError(400, 100000, 'Request from this ip is not allowed.'),
  zeroAmount: () => new ApiError(400, 100000, 'amount: This value should be greater than 0.'),
  voidNotAllowed: () => new ApiError(400, 100000, 'Void is not allowed.'),
  orderNotFound: () => new ApiError(400, 101000, 'Order does not exist.'),
  transactionNotFound: () => new ApiError(400, 101000, 'Transaction does not exist.'),
  actionNotSupported: () => new ApiError(400, 204005, 'Payment action not supported'),
  cardTokenNotFound: () => new ApiError(400, 205005, 'Card token is invalid or not found.'),
  captureNotPending: () =>
    new ApiError(400, 208003, 'Not acceptable to request the capture for payment not in pending status'),
  otherEnvironmentKey: () => new ApiError(400, 220002, 'Use merchant test key.'),
  // Routing refusals share the 404's error_code 0; the HTTP status and the Allow header tell them apart.
  methodNotAllowed: () => new ApiError(405, 0, 'Method not allowed'),
  adminTokenInvalid: () => new ApiError(401, 401, 'Admin token is missing or not valid.'),
  // Sent with Retry-After; the same words whichever counter locked, so a guesser learns nothing.
  tooManyAuthFailures: () => new ApiError(429, 429, TOO_MANY_AUTH_FAILURES),
};

export const SERVICE_UNAVAILABLE = 'Service temporarily unavailable, try again.';

export function errorMiddleware(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof ApiError) {
        ctx.status = error.httpStatus;
        ctx.body = error.body();
        return;
      }
      const status = (error as { status?: number; statusCode?: number }).status ?? (error as { statusCode?: number }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        // Body parser refusals (malformed, too large, wrong type) are the client's to fix.
        ctx.status = status === 413 ? 413 : 400;
        ctx.body = new ApiError(ctx.status, 100000, INVALID_REQUEST).body();
        return;
      }
      if (isDatabaseUnavailable(error)) {
        // A database blip (restart, failover, dropped connection) is not a bug: the pools reconnect
        // by themselves, and the client is told to try again shortly.
        logger.warn('database unavailable, answered 503', {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          error: error instanceof Error ? error.message : String(error),
        });
        ctx.status = 503;
        ctx.set('Retry-After', '1');
        ctx.body = new ApiError(503, 503, SERVICE_UNAVAILABLE).body();
        return;
      }
      logger.error('unhandled error', {
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      ctx.status = 500;
      ctx.body = { result: 'ERROR', error_code: 500, error_message: 'Internal error' };
    }
  };
}
