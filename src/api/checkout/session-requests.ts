/**
 * Requests that open a Checkout session: `/api/v1/session` (the hosted page), `/api/v1/session/token`
 * (hosted payment fields) and `/api/v1/payment/card/credit` (a payout to a stored card, whose
 * payer only confirms the expiry on the hosted page).
 */
import type { NotificationUrlCheck } from '../../application/callbacks/notification-url-check';
import type { CheckoutService, CreatedSession, NewSession } from '../../application/checkout/checkout-service';
import { CardTokenNotFoundError, DuplicatePaymentError } from '../../application/payments';
import type { Clock } from '../../application/ports/clock';
import type { ScheduleService } from '../../application/schedules/schedule-service';
import { anchorChain } from '../../domain/schedule/due-dates';
import { checkoutHash } from '../../domain/signatures';
import { throwApiError } from '../domain-errors';
import { errors, type FieldError } from '../errors';
import type { CheckoutRequest } from './merchant-request';
import { requireHash } from '../require-hash';
import { DEFAULT_SESSION_EXPIRY_MINUTES, checkOrderMoney, checkSessionFields, newSessionOf, scheduleEcho, type ChooseMethods } from './session-fields';
import type { MerchantAccount } from '../../application/merchant-service';
import { CARD_METHOD, sessionMethods } from '../../domain/checkout/session-methods';
import type { CheckoutOperation } from '../../domain/payment/events';

export interface SessionDeps {
  checkout: CheckoutService;
  notificationUrls: Pick<NotificationUrlCheck, 'problem'>;
  clock: Clock;
  schedules: Pick<ScheduleService, 'info'>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

async function refuseUnreachable(deps: SessionDeps, url: string | null): Promise<void> {
  if (url === null) return;
  const problem = await deps.notificationUrls.problem(url);
  // Spec Errors rule 4: an invalid or unreachable notification_url is HTTP 400.
  if (problem) throw errors.invalid([errors.field('notification_url', problem)]);
}

async function open(deps: SessionDeps, session: NewSession, requestId: string): Promise<CreatedSession> {
  let created: CreatedSession;
  try {
    created = await deps.checkout.createSession(session, requestId);
  } catch (error) {
    if (error instanceof DuplicatePaymentError) throw errors.duplicate();
    if (error instanceof CardTokenNotFoundError) throw errors.cardTokenNotFound();
    // A schedule_id the merchant does not have: `Schedule not found`.
    throwApiError(error);
  }
  // A repeat within the window gets the original session, but never one of the other kind.
  if (created.replayed && created.session.hostedFields !== session.hostedFields) throw errors.duplicate();
  return created;
}

/**
 * The methods a session offers: the ones it names, else everything the merchant can be paid with
 * for it (session-methods.ts decides, and words what is refused). A card the merchant names is let
 * through even where none of its connectors could take it: that answers 204005 when the session is
 * created, as it always has.
 */
function methodChooser(deps: SessionDeps, body: Json, merchant: MerchantAccount, hostedFields: boolean): ChooseMethods {
  return (amount) => {
    const operation = body.operation as CheckoutOperation;
    const available = deps.checkout.availableMethods(merchant, {
      operation,
      auth: operation === 'purchase' && body.auth === true,
      recurringInit: body.recurring_init === true,
      order: { currency: String(body.order?.currency ?? ''), amount: amount ?? 1 },
    });
    const requested = body.methods as string[] | undefined;
    const withCard = requested?.includes(CARD_METHOD) && !available.some((m) => m.method === CARD_METHOD) ? [{ method: CARD_METHOD, description: null }, ...available] : available;
    const address = (body.billing_address ?? {}) as Json;
    const choice = sessionMethods({
      requested,
      operation,
      hostedFields,
      available: withCard,
      parameters: (body.parameters as Record<string, unknown> | undefined) ?? null,
      payer: { phone: address.phone, country: typeof address.country === 'string' ? address.country.toUpperCase() : undefined },
    });
    return { methods: choice.methods, problems: choice.problems.map((p) => errors.field(p.field, p.message)) };
  };
}

/** `/api/v1/session` (`hostedFields` false) and `/api/v1/session/token` (true), schema already passed. */
export async function createSession(deps: SessionDeps, { body, merchant, requestId }: CheckoutRequest, hostedFields: boolean) {
  const { order, methods } = checkSessionFields(body, deps.clock.now().toISOString().slice(0, 10), methodChooser(deps, body as Json, merchant, hostedFields));
  requireHash(body.hash, checkoutHash([order.number, order.amountText, order.currency, order.description], merchant.password));
  const session = newSessionOf(body, merchant.merchantId, order, methods, hostedFields);
  await refuseUnreachable(deps, session.notificationUrl);
  const created = await open(deps, session, requestId);
  const schedule = { ...scheduleEcho(created.session.schedule), ...(await firstRecurringDate(deps, created)) };
  return hostedFields ? { token: created.token, ...schedule } : { redirect_url: created.redirectUrl, redirect_method: 'GET', ...schedule };
}

/** The nested order shape belongs to `/session`; this endpoint takes flat fields only. */
export function nestedOrderErrors(body: Json): FieldError[] {
  const message = 'Use the flat fields order_id, order_amount, order_currency and order_description.';
  return Object.keys(body)
    .filter((name) => name === 'order' || name.startsWith('order.') || name.startsWith('order['))
    .map((name) => errors.field(name, message));
}

/** `/api/v1/payment/card/credit`, schema already passed. */
export async function createCardCredit(deps: SessionDeps, { body, merchant, requestId }: CheckoutRequest) {
  const b = body as Json;
  const problems: FieldError[] = [];
  const minor = checkOrderMoney(b.order_currency, b.order_amount, { currency: 'order_currency', amount: 'order_amount' }, problems);
  if (problems.length || minor === null) throw errors.invalid(problems);
  requireHash(b.hash, checkoutHash([b.order_id, b.order_amount, b.order_currency, b.order_description], merchant.password));
  const payee = { firstName: b.payee_first_name, lastName: b.payee_last_name, name: b.name };
  for (const key of Object.keys(payee) as (keyof typeof payee)[]) if (payee[key] === undefined) delete payee[key];
  const session: NewSession = {
    merchantId: merchant.merchantId,
    operation: 'credit',
    auth: false,
    order: { number: b.order_id, amount: minor, amountText: b.order_amount, currency: b.order_currency, description: b.order_description },
    urls: { success: b.success_url ?? null, cancel: b.cancel_url ?? null, expiry: null, error: null, return: null },
    urlTarget: null,
    methods: ['card'],
    parameters: null,
    customer: {},
    billingAddress: {},
    customData: b.custom_data ?? null,
    notificationUrl: b.notification_url ?? null,
    recurringInit: false,
    reqToken: false,
    vatCalc: false,
    schedule: null,
    cardToken: b.card_token,
    // The request's names override the holder name stored with the card (spec, card credit).
    payee: Object.keys(payee).length ? payee : null,
    hostedFields: false,
    expiryMinutes: DEFAULT_SESSION_EXPIRY_MINUTES,
  };
  await refuseUnreachable(deps, session.notificationUrl);
  const created = await open(deps, session, requestId);
  return { redirect_url: created.redirectUrl, redirect_method: 'GET' };
}

/**
 * `first_recurring_date` of a session with a schedule: the first automatic payment's date if the
 * payer pays today. The chain's own date is fixed when the payer pays; its callback and status
 * lookups carry it.
 */
async function firstRecurringDate(deps: SessionDeps, created: CreatedSession): Promise<{ first_recurring_date?: string }> {
  const wanted = created.session.schedule;
  if (!wanted || !created.session.recurringInit) return {};
  const schedule = await deps.schedules.info(created.session.merchantId, wanted.scheduleId);
  const today = deps.clock.now().toISOString().slice(0, 10);
  return { first_recurring_date: anchorChain(schedule.rule, today, wanted.startDate ?? null).firstDueDate };
}
