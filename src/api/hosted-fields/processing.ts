/**
 * `POST /api/v1/processing/{purchase,debit}/card`: the merchant's server pays with the card the
 * payer typed into the hosted fields. It authenticates with the session token (`Token` header),
 * never with card data: the card reached the gateway directly from its own iframes.
 */
import type Koa from 'koa';
import { HostedFieldsError, type CheckoutService } from '../../application/checkout/checkout-service';
import type { ExistingPayment, PaymentPhase } from '../../domain/payment/state';
import { INVALID_SESSION_TOKEN, declineReasonText, hostedFieldsRefusalText } from '../checkout-page/messages';
import type { BrowserAttributes } from '../../domain/payment/events';
import type { SessionAddress } from '../../domain/checkout/session-events';
import { errors, type FieldError } from '../errors';
import { browserAttributesFrom, type BrowserFormField } from '../html/browser-info';
import type { Validator } from '../validation';
import { admitOrRefuse, type AuthSubject, type AuthThrottle } from '../auth-throttle';

type Json = Record<string, unknown>;

const MAX_TOKEN_LENGTH = 200;

/** Session tokens are counted per address: a forged token names no one to count it against. */
export const SESSION_TOKEN_SUBJECT: AuthSubject = { kind: 'session-token' };

const BROWSER_INFO_FIELDS: Readonly<Record<BrowserFormField, string>> = {
  browser_color_depth: 'color_depth',
  browser_screen_height: 'screen_height',
  browser_screen_width: 'screen_width',
  browser_java_enabled: 'java_enabled',
  browser_javascript_enabled: 'java_script_enabled',
  browser_language: 'language',
  browser_timezone_offset: 'time_zone_offset',
  browser_platform: 'platform',
};

const INTEGER_RANGES: Readonly<Record<string, [number, number]>> = {
  color_depth: [1, 64],
  screen_height: [1, 100_000],
  screen_width: [1, 100_000],
  time_zone_offset: [-840, 720],
};

/** Numeric strings out of range (the schema bounds numbers only). */
function rangeErrors(info: Json | undefined): FieldError[] {
  if (!info) return [];
  const out: FieldError[] = [];
  for (const [key, [min, max]] of Object.entries(INTEGER_RANGES)) {
    const value = info[key];
    if (typeof value === 'string' && /^-?\d+$/.test(value) && (Number(value) < min || Number(value) > max)) {
      out.push(errors.field(`browser_info[${key}]`, `This value should be between ${min} and ${max}.`));
    }
  }
  return out;
}

/**
 * The payer's browser as the merchant forwarded it. `accept_header` falls back to the Accept header
 * of this request: the merchant's server usually passes the payer's on, and some acquirers refuse
 * an empty one (spec, Errors rule 3).
 */
export function browserOf(info: Json | undefined, requestAccept: string): BrowserAttributes | undefined {
  const given = (key: string): string | undefined => {
    const value = info?.[key];
    return value === undefined || value === null ? undefined : String(value);
  };
  const accept = given('accept_header')?.trim() || requestAccept;
  return browserAttributesFrom({ userAgent: given('user_agent'), accept }, (name) => given(BROWSER_INFO_FIELDS[name]));
}

function billingOf(address: Json | undefined): SessionAddress | undefined {
  if (!address) return undefined;
  const pick = (key: string): string | undefined => {
    const value = address[key];
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  };
  const billing: SessionAddress = {
    country: pick('country')?.toUpperCase(),
    state: pick('state'),
    city: pick('city'),
    address: pick('address'),
    zip: pick('zip'),
    phone: pick('phone'),
    district: pick('district'),
    houseNumber: pick('house_number'),
  };
  const present = Object.entries(billing).filter(([, v]) => v !== undefined);
  return present.length ? (Object.fromEntries(present) as SessionAddress) : undefined;
}

export type ProcessingAnswer = {
  result: 'success' | 'decline' | 'redirect' | 'waiting' | 'undefined';
  redirect_url?: string;
  redirect_params?: Record<string, string>;
  decline_message?: string;
  public_id?: string;
};

/** The processing response, from where the attempt's payment stands. */
export function processingAnswerOf(p: ExistingPayment): ProcessingAnswer {
  const base = { public_id: p.paymentId };
  const phase: PaymentPhase = p.phase;
  switch (phase) {
    case 'settled':
    case 'authorized':
    case 'refunded':
    case 'voided':
    case 'reversed':
      return { result: 'success', ...base };
    case 'declined':
      return { result: 'decline', decline_message: declineReasonText(p.declineReason), ...base };
    case 'awaiting_3ds':
      return { result: 'redirect', redirect_url: p.payerAction!.url, redirect_params: { ...p.payerAction!.params }, ...base };
    case 'awaiting_redirect':
      // No parameters: the payer's browser follows the URL by GET.
      return { result: 'redirect', redirect_url: p.payerAction!.url, ...base };
    case 'initiated':
    case 'outcome_unknown':
    case 'awaiting_provider':
      return { result: 'waiting', ...base };
    default: {
      const unreachable: never = phase;
      return unreachable;
    }
  }
}

export function processingHandler(
  operation: 'purchase' | 'debit',
  deps: { checkout: CheckoutService; validate: Validator; throttle?: AuthThrottle },
): Koa.Middleware {
  return async (ctx) => {
    const token = ctx.get('Token').trim();
    const body = ((ctx.request as { body?: unknown }).body ?? {}) as Json;
    // Every shape problem at once, before the token is looked at (spec, Errors rule 2).
    const problems: FieldError[] = [];
    if (!token) problems.push(errors.field('Token', 'This value should not be blank.'));
    else if (token.length > MAX_TOKEN_LENGTH) problems.push(errors.field('Token', INVALID_SESSION_TOKEN));
    problems.push(...deps.validate(body));
    if (typeof body.name === 'string' && body.name.length > 0 && !body.name.trim()) {
      problems.push(errors.field('name', 'This value should not be blank.'));
    }
    problems.push(...rangeErrors(body.browser_info as Json | undefined));
    if (problems.length) throw errors.invalid(problems);
    admitOrRefuse(ctx, deps.throttle, SESSION_TOKEN_SUBJECT);

    try {
      const payment = await deps.checkout.processHostedFields(
        token,
        operation,
        {
          name: (body.name as string).trim(),
          email: body.email as string | undefined,
          birthDay: body.birth_day as string | undefined,
          billing: billingOf(body.billing_address as Json | undefined),
          browser: browserOf(body.browser_info as Json | undefined, ctx.get('Accept')),
          callerIp: ctx.request.ip,
        },
        ctx.state.requestId,
      );
      ctx.body = payment ? processingAnswerOf(payment) : { result: 'undefined' };
      deps.throttle?.succeeded(ctx.ip, SESSION_TOKEN_SUBJECT);
    } catch (error) {
      if (!(error instanceof HostedFieldsError)) throw error;
      if (error.refusal.problem === 'invalid_token') deps.throttle?.failed(ctx.ip, SESSION_TOKEN_SUBJECT, ctx.state.requestId);
      const { field, message } = hostedFieldsRefusalText(error.refusal);
      throw errors.invalid([errors.field(field, message)]);
    }
  };
}
