/**
 * `POST /post`: the S2S CARD form API. Checks run in a fixed order so merchants get the most useful
 * refusal: action allowlist, key environment, merchant, IP allowlist, field validation, hash, then
 * business rules and existence (validation always before existence, spec Errors rule 2).
 */
import { payerPresent, storesCard } from '../../domain/payment/policy';
import { merchantConnectors } from '../../domain/merchant/connectors';
import type Router from '@koa/router';
import type Koa from 'koa';
import { parseExpiry, validatePan } from '../../domain/card';
import { DomainError } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import { isCalendarDate } from '../../domain/schedule/due-dates';
import { keyEnvironment } from '../../domain/merchant/keys';
import { ipAllowed } from '../../domain/merchant/ip-allowlist';
import { isCurrency, parseAmount } from '../../domain/money';
import type { PayerSnapshot } from '../../domain/payment/events';
import type { ExistingPayment } from '../../domain/payment/state';
import {
  constantTimeEqualHex,
  orderIdHash,
  saleCardHash,
  saleTokenHash,
  transIdHash,
} from '../../domain/signatures';
import type { MerchantAccount, MerchantService } from '../../application/merchant-service';
import {
  CardTokenNotFoundError,
  DuplicatePaymentError,
  type PaymentService,
  type SaleCard,
  type ScheduleRequest,
} from '../../application/payments';
import type { Clock } from '../../application/ports/clock';
import type { Environment } from '../../domain/merchant/events';
import { throwApiError } from '../domain-errors';
import { ApiError, errors, type FieldError } from '../errors';
import { normalizeForm, type FormBody } from '../form';
import { compileValidator, type Validator } from '../validation';
import type Ajv from 'ajv';
import type { NotificationUrlCheck } from '../../application/callbacks/notification-url-check';
import { byOrderSchema, byTransIdSchema, captureSchema, creditVoidSchema, saleSchema } from './schemas';
import { saleResponse, statusResponse, transDate, viewOf, type PaymentView } from './responses';
import type { ScheduleService } from '../../application/schedules/schedule-service';
import { recurringActions } from './recurring-actions';
import { scheduleActions } from './schedule-actions';
import { admitOrRefuse, countingHashFailures, merchantSubject, type AuthThrottle } from '../auth-throttle';

/** What status lookups need from the read side. */
export interface PaymentQueries {
  paymentView(paymentId: string): Promise<(PaymentView & { merchantId: string }) | undefined>;
  latestPaymentViewByOrder(merchantId: string, orderId: string): Promise<PaymentView | undefined>;
  /** Read-your-writes: waits until the read models include everything appended so far. */
  catchUpToHead(timeoutMs?: number): Promise<boolean>;
}

export interface S2sDeps {
  merchants: MerchantService;
  payments: PaymentService;
  schedules: ScheduleService;
  queries: PaymentQueries;
  clock: Clock;
  environment: Environment;
  ajv: Ajv;
  /** Refuses notification URLs callbacks could never reach. */
  notificationUrls: Pick<NotificationUrlCheck, 'problem'>;
  /** Limits failed authentications (wrong hash, unknown client_key) per merchant and address. */
  throttle?: AuthThrottle;
}

export interface ActionContext {
  form: FormBody;
  merchant: MerchantAccount;
  requestId: string;
  ip: string;
}

/** One `/post` action: its field validation (compiled once) and its handler. */
export interface S2sAction {
  validate: Validator;
  handle(c: ActionContext): Promise<Record<string, unknown>>;
}

const FORM_BODIES_ONLY = 'The request body must be application/x-www-form-urlencoded or multipart/form-data.';

export function registerS2sRoutes(router: Router, deps: S2sDeps): void {
  const action = (schema: object, handle: S2sAction['handle']): S2sAction => ({ validate: compileValidator(deps.ajv, schema), handle });
  // The allowlist: exhaustive and case-sensitive, anything else is 404 (spec, S2S section).
  const actions: Record<string, S2sAction> = {
    SALE: action(saleSchema, (c) => sale(deps, c)),
    GET_TRANS_STATUS: action(byTransIdSchema, (c) => transStatus(deps, c)),
    GET_TRANS_STATUS_BY_ORDER: action(byOrderSchema, (c) => transStatusByOrder(deps, c)),
    CAPTURE: action(captureSchema, (c) => capture(deps, c)),
    VOID: action(byTransIdSchema, (c) => voidPayment(deps, c)),
    CREDITVOID: action(creditVoidSchema, (c) => creditVoid(deps, c)),
    ...recurringActions(deps),
    ...scheduleActions(deps),
  };

  router.post('/post', async (ctx: Koa.Context) => {
    // decisions.md §1: form bodies only. JSON would bring types and nesting no S2S field has.
    const type = ctx.request.type.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') {
      throw errors.invalid([errors.field('body', FORM_BODIES_ONLY)]);
    }
    const form = normalizeForm((ctx.request as { body?: unknown }).body);
    const name = form.action;
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(actions, name)) {
      throw errors.routeNotSupported();
    }
    const chosen = actions[name];
    const clientKey = form.client_key;
    if (Array.isArray(clientKey)) throw errors.invalid([errors.field('client_key', 'This value should be of type string.')]);
    if (typeof clientKey !== 'string' || clientKey.length === 0) {
      throw errors.invalid([errors.field('client_key', 'This value should not be blank.')]);
    }
    const keyEnv = keyEnvironment(clientKey);
    if (keyEnv !== null && keyEnv !== deps.environment) throw errors.otherEnvironmentKey();
    const merchant = await deps.merchants.byClientKey(clientKey);
    const subject = merchant ? merchantSubject(merchant) : null;
    // Before anything about the merchant is answered: a locked client learns nothing more.
    admitOrRefuse(ctx, deps.throttle, subject);
    if (!merchant || !subject) {
      deps.throttle?.failed(ctx.ip, null);
      throw errors.invalid([errors.field('client_key', 'Merchant not found.')]);
    }
    if (!ipAllowed(merchant.ipAllowlist, ctx.request.ip)) throw errors.ipNotAllowed();
    const fieldErrors = chosen.validate(form);
    if (fieldErrors.length) throw errors.invalid(fieldErrors);
    // Every action checks its hash before anything else it answers; this is where a wrong one is counted.
    ctx.body = await countingHashFailures(ctx, deps.throttle, subject, () =>
      chosen.handle({ form, merchant, requestId: ctx.state.requestId, ip: ctx.request.ip }),
    );
  });
}

function str(form: FormBody, name: string): string | undefined {
  const v = form[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

function requireHash(form: FormBody, expected: string): void {
  if (!constantTimeEqualHex(String(form.hash).toLowerCase(), expected)) throw errors.hash();
}

async function sale(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const now = deps.clock.now();
  const fieldErrors: FieldError[] = [];
  // Optional for everyone else; this merchant's Protocol Mapping marks them Required.
  for (const field of merchant.protocolMapping.requiredFields) {
    if (!str(form, field)) fieldErrors.push(errors.field(field, 'This value should not be blank.'));
  }
  const currency = form.order_currency as string;
  if (!isCurrency(currency)) fieldErrors.push(errors.field('order_currency', 'This value is not a valid currency.'));
  const amountText = form.order_amount as string;
  const amount = isCurrency(currency) ? parseAmount(amountText, currency) : null;
  if (amount && !amount.ok) fieldErrors.push(errors.field('order_amount', amount.reason));

  const cardNumber = str(form, 'card_number');
  const cardToken = str(form, 'card_token');
  let card: SaleCard | null = null;
  if (cardNumber && cardToken) {
    fieldErrors.push(errors.field('card_token', 'Send either card_number or card_token, not both.'));
  } else if (cardNumber) {
    const pan = validatePan(cardNumber);
    if (!pan.ok) fieldErrors.push(errors.field('card_number', 'This value is not a valid card number.'));
    for (const f of ['card_exp_month', 'card_exp_year', 'card_cvv2']) {
      if (!str(form, f)) fieldErrors.push(errors.field(f, 'This value should not be blank.'));
    }
    const month = str(form, 'card_exp_month');
    const year = str(form, 'card_exp_year');
    if (month && year) {
      const expiry = parseExpiry(month, year, now);
      if (!expiry.ok) fieldErrors.push(errors.field('card_exp_year', expiry.reason));
      else if (pan.ok) {
        card = {
          kind: 'number',
          number: cardNumber,
          expMonth: expiry.expMonth,
          expYear: expiry.expYear,
          cvv: str(form, 'card_cvv2'),
          holder: [str(form, 'payer_first_name'), str(form, 'payer_last_name')].filter(Boolean).join(' ') || undefined,
        };
      }
    }
  } else if (cardToken) {
    card = { kind: 'token', token: cardToken };
  } else {
    fieldErrors.push(errors.field('card_number', 'This value should not be blank.'));
  }
  const recurringInit = form.recurring_init === 'Y';
  const today = now.toISOString().slice(0, 10);
  const scheduleFields = scheduleFieldsOf(form, { currency, amount, recurringInit, today }, fieldErrors);
  if (fieldErrors.length || !card || !amount || !amount.ok) throw errors.invalid(fieldErrors);
  // The spec words a non-UUID schedule_id as an error of its own; it is still validation, so before the hash.
  if (scheduleFields && !isUuid(scheduleFields.scheduleId)) throw new ApiError(400, 100000, 'This is not a valid UUID.');

  const kind = form.auth === 'Y' ? 'authorization' : 'sale';

  const payerEmail = str(form, 'payer_email');
  const expectedHash =
    card.kind === 'number'
      ? saleCardHash({ payerEmail, password: merchant.password, cardNumber: card.number })
      : saleTokenHash({ payerEmail, password: merchant.password, cardToken: card.token });
  requireHash(form, expectedHash);

  const notificationUrl = str(form, 'notification_url');
  if (notificationUrl !== undefined) {
    const problem = await deps.notificationUrls.problem(notificationUrl);
    if (problem) throw errors.invalid([errors.field('notification_url', problem)]);
  }
  const schedule = scheduleFields ? await scheduleRequestOf(deps, merchant, scheduleFields) : undefined;

  const payer: PayerSnapshot = {};
  const payerFields: [keyof PayerSnapshot, string][] = [
    ['firstName', 'payer_first_name'],
    ['lastName', 'payer_last_name'],
    ['email', 'payer_email'],
    ['phone', 'payer_phone'],
    ['address', 'payer_address'],
    ['country', 'payer_country'],
    ['state', 'payer_state'],
    ['city', 'payer_city'],
    ['zip', 'payer_zip'],
    ['ip', 'payer_ip'],
    ['birthDate', 'payer_birth_date'],
    ['address2', 'payer_address2'],
    ['houseNumber', 'payer_house_number'],
    ['phoneCountryCode', 'payer_phone_country_code'],
    ['district', 'payer_district'],
  ];
  for (const [key, field] of payerFields) {
    const v = str(form, field);
    if (v !== undefined) payer[key] = v;
  }
  try {
    const result = await deps.payments.sale({
      merchantId: merchant.merchantId,
      kind,
      orderId: form.order_id as string,
      orderDescription: form.order_description as string,
      currency,
      amount: amount.minor,
      amountText,
      card,
      payer,
      termUrl3ds: str(form, 'term_url_3ds') ?? null,
      notificationUrl: notificationUrl ?? null,
      customData: (form.custom_data as Record<string, unknown>) ?? null,
      parameters: (form.parameters as Record<string, unknown>) ?? null,
      recurringInit,
      storeCard: storesCard({ cardSource: card.kind === 'number' ? 'card_number' : 'card_token', kind, reqToken: form.req_token === 'Y', recurringInit }),
      correlationId: requestId,
      ...(schedule ? { schedule } : {}),
      cardOnFileSupport: merchant.cardOnFileSupport === true,
      connectors: merchantConnectors(merchant),
      merchantPaymentMode: merchant.paymentMode,
      ...(payerPresent({ cardSource: card.kind === 'number' ? 'card_number' : 'card_token', payerPresentSent: str(form, 'payer_present') }) ? {} : { payerPresent: false }),
    });
    return saleResponse(viewOf(result.payment));
  } catch (error) {
    if (error instanceof DuplicatePaymentError) throw errors.duplicate();
    if (error instanceof CardTokenNotFoundError) throw errors.cardTokenNotFound();
    // A payment none of the merchant's connectors can take: 204005.
    throwApiError(error);
  }
}

/** A SALE's schedule fields, checked for shape and against each other; the schedule is looked up after the hash. */
interface ScheduleFields {
  scheduleId: string;
  startDate?: string;
  amount?: { minor: number; text: string };
}

/**
 * Collects the schedule fields' errors into `fieldErrors`; null when no schedule_id was sent.
 * `sale`: the SALE's currency and parsed amount (null when not parseable), to read
 * payment_schedule_amount in the same currency and to demand it when the SALE itself is zero.
 */
function scheduleFieldsOf(
  form: FormBody,
  sale: { currency: string; amount: ReturnType<typeof parseAmount> | null; recurringInit: boolean; today: string },
  fieldErrors: FieldError[],
): ScheduleFields | null {
  const scheduleId = str(form, 'schedule_id');
  const startDate = str(form, 'schedule_start_date');
  const amountText = str(form, 'payment_schedule_amount');
  if (!scheduleId) {
    if (startDate !== undefined || amountText !== undefined) fieldErrors.push(errors.field('schedule_id', 'This value should not be blank.'));
    return null;
  }
  if (!sale.recurringInit) fieldErrors.push(errors.field('recurring_init', 'This value should be Y when schedule_id is sent.'));
  if (startDate !== undefined) {
    if (!isCalendarDate(startDate)) fieldErrors.push(errors.field('schedule_start_date', 'This value is not a valid date (YYYY-MM-DD).'));
    // The first automatic charge must come after the payment that starts the chain.
    else if (startDate <= sale.today) fieldErrors.push(errors.field('schedule_start_date', 'This value should be a date after today.'));
  }
  let amount: ScheduleFields['amount'];
  if (amountText !== undefined) {
    if (isCurrency(sale.currency)) {
      const parsed = parseAmount(amountText, sale.currency);
      if (!parsed.ok) fieldErrors.push(errors.field('payment_schedule_amount', parsed.reason));
      else if (parsed.minor === 0) fieldErrors.push(errors.field('payment_schedule_amount', 'This value should be greater than 0.'));
      else amount = { minor: parsed.minor, text: amountText };
    }
  } else if (sale.amount?.ok && sale.amount.minor === 0) {
    // A zero card check cannot be the amount of every automatic payment.
    fieldErrors.push(errors.field('payment_schedule_amount', 'This value should not be blank.'));
  }
  return { scheduleId, ...(startDate !== undefined ? { startDate } : {}), ...(amount ? { amount } : {}) };
}

/** The merchant's live schedule the chain will follow, or `Schedule not found`. */
async function scheduleRequestOf(deps: S2sDeps, merchant: MerchantAccount, fields: ScheduleFields): Promise<ScheduleRequest> {
  try {
    const found = await deps.schedules.info(merchant.merchantId, fields.scheduleId);
    return { ...fields, rule: found.rule };
  } catch (error) {
    throwApiError(error);
  }
}

async function transStatus(deps: S2sDeps, { form, merchant }: ActionContext) {
  const transId = form.trans_id as string;
  requireHash(form, transIdHash(transId, merchant.password));
  const caughtUp = await deps.queries.catchUpToHead();
  const view = await deps.queries.paymentView(transId);
  if (view && view.merchantId === merchant.merchantId) return statusResponse('GET_TRANS_STATUS', view, merchant.protocolMapping);
  // Read models behind (projector stopped or slow): the stream itself still knows the payment.
  const payment = caughtUp ? null : await currentPayment(deps, merchant, transId);
  if (!payment) throw errors.transactionNotFound();
  return statusResponse('GET_TRANS_STATUS', viewOf(payment), merchant.protocolMapping);
}

async function transStatusByOrder(deps: S2sDeps, { form, merchant }: ActionContext) {
  const orderId = form.order_id as string;
  requireHash(form, orderIdHash(orderId, merchant.password));
  await deps.queries.catchUpToHead();
  const view = await deps.queries.latestPaymentViewByOrder(merchant.merchantId, orderId);
  if (!view) throw errors.orderNotFound();
  return statusResponse('GET_TRANS_STATUS_BY_ORDER', view, merchant.protocolMapping);
}

function optionalAmount(form: FormBody, name: string, currency: string): { minor: number; text: string } | null {
  const text = str(form, name);
  if (text === undefined) return null;
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) throw errors.invalid([errors.field(name, parsed.reason)]);
  return { minor: parsed.minor, text };
}

/** Existence is checked on the stream itself (the source of truth), never on a lagging read model. */
async function currentPayment(deps: S2sDeps, merchant: MerchantAccount, transId: string): Promise<ExistingPayment | null> {
  try {
    const p = await deps.payments.current(transId);
    return p.merchantId === merchant.merchantId ? p : null;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'payment_not_found') return null;
    throw error;
  }
}

async function capture(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const transId = form.trans_id as string;
  requireHash(form, transIdHash(transId, merchant.password));
  const payment = await currentPayment(deps, merchant, transId);
  if (!payment) throw errors.transactionNotFound();
  const amount = optionalAmount(form, 'amount', payment.currency);
  try {
    const { payment: after, outcome, amountText } = await deps.payments.capture(merchant.merchantId, transId, amount, requestId);
    const details = {
      order_id: after.orderId,
      trans_id: after.paymentId,
      trans_date: transDate(deps.clock.now().toISOString()),
      amount: amountText,
      currency: after.currency,
    };
    if (outcome.outcome === 'success') {
      return { action: 'CAPTURE', result: 'SUCCESS', status: 'SETTLED', ...details, descriptor: after.descriptor ?? '' };
    }
    if (outcome.outcome === 'declined') {
      return { action: 'CAPTURE', result: 'DECLINED', status: after.status, ...details, decline_reason: outcome.reason };
    }
    return { action: 'CAPTURE', result: 'ACCEPTED', status: after.status, ...details };
  } catch (error) {
    throwApiError(error, { payment_not_found: errors.transactionNotFound });
  }
}

async function voidPayment(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const transId = form.trans_id as string;
  requireHash(form, transIdHash(transId, merchant.password));
  try {
    const { payment: after, outcome } = await deps.payments.void(merchant.merchantId, transId, requestId);
    const details = { order_id: after.orderId, trans_id: after.paymentId, trans_date: transDate(deps.clock.now().toISOString()) };
    if (outcome.outcome === 'success') return { action: 'VOID', result: 'SUCCESS', status: 'VOID', ...details };
    if (outcome.outcome === 'declined') {
      return { action: 'VOID', result: 'DECLINED', status: after.status, ...details, decline_reason: outcome.reason };
    }
    return { action: 'VOID', result: 'ACCEPTED', status: after.status, ...details };
  } catch (error) {
    throwApiError(error);
  }
}

async function creditVoid(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const transId = form.trans_id as string;
  requireHash(form, transIdHash(transId, merchant.password));
  const payment = await currentPayment(deps, merchant, transId);
  if (!payment) throw errors.paymentNotFound();
  const amount = optionalAmount(form, 'amount', payment.currency)!;
  try {
    const { payment: after } = await deps.payments.creditVoid(
      merchant.merchantId,
      transId,
      amount,
      merchant.refundsEnabled,
      requestId,
    );
    // CREDITVOID only acknowledges; its outcome is reported by callback and status lookup.
    return { action: 'CREDITVOID', result: 'ACCEPTED', trans_id: after.paymentId, order_id: after.orderId };
  } catch (error) {
    throwApiError(error);
  }
}

