/**
 * `SALE` (S2S CARD): a card or a stored card's token, the payer, and optionally the start of a chain.
 * A wallet SALE sends `digital_wallet` and `payment_token` (the token JSON exactly as received) in
 * place of the card, signed with Formula 8; it is paid in the wallets' card flow or refused
 * (docs/wallets.md#two-flows, wallet-refusals.ts).
 */
import { isCalendarDate } from '../../../domain/schedule/due-dates';
import { isUuid } from '../../../domain/ids';
import { parseExpiry, validatePan } from '../../../domain/card';
import { isCurrency, parseAmount } from '../../../domain/money';
import { merchantConnectors } from '../../../domain/merchant/connectors';
import { methodEnabled } from '../../../domain/merchant/methods';
import { isWallet } from '../../../domain/wallets/token-shape';
import type { PayerSnapshot, PaymentKind, ReturnLinkTarget } from '../../../domain/payment/events';
import { payerPresent, storesCard } from '../../../domain/payment/policy';
import { saleCardHash, saleTokenHash, walletSaleHash } from '../../../domain/signatures';
import type { MerchantAccount } from '../../../application/merchant-service';
import { CardTokenNotFoundError, DuplicatePaymentError, type SaleCard, type ScheduleRequest } from '../../../application/payments';
import { throwApiError } from '../../domain-errors';
import { ApiError, errors, type FieldError } from '../../errors';
import { requireHash } from '../../require-hash';
import { payerOf } from '../payer-fields';
import { saleResponse, viewOf } from '../responses';
import { throwWalletRefusal, walletErrors, walletTokenProblem } from '../wallet-refusals';
import { formString as str, type ActionContext, type FormBody, type S2sDeps } from '../s2s-action';

export async function sale(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
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

  const wallet = walletFieldsOf(form, fieldErrors);
  const cardNumber = str(form, 'card_number');
  const cardToken = str(form, 'card_token');
  let card: SaleCard | null = null;
  if (wallet) {
    // The card is in the token.
  } else if (cardNumber && cardToken) {
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
  if (fieldErrors.length || (!card && !wallet) || !amount || !amount.ok) throw errors.invalid(fieldErrors);
  // The spec words a non-UUID schedule_id as an error of its own; it is still validation, so before the hash.
  if (scheduleFields && !isUuid(scheduleFields.scheduleId)) throw new ApiError(400, 100000, 'This is not a valid UUID.');

  const kind: PaymentKind = form.auth === 'Y' ? 'authorization' : 'sale';

  const payerEmail = str(form, 'payer_email');
  requireHash(form.hash, expectedSaleHash({ payerEmail, password: merchant.password }, wallet ? null : card));
  // A wallet this merchant does not take, or one the gateway does not know.
  if (wallet && !(isWallet(wallet.wallet) && methodEnabled(merchant, wallet.wallet))) throw walletErrors.notSupported();

  const notificationUrl = str(form, 'notification_url');
  if (notificationUrl !== undefined) {
    const problem = await deps.notificationUrls.problem(notificationUrl);
    if (problem) throw errors.invalid([errors.field('notification_url', problem)]);
  }
  const schedule = scheduleFields ? await scheduleRequestOf(deps, merchant, scheduleFields) : undefined;

  // What a SALE asks of the payment whether the card is on the form, stored, or in a wallet token.
  const order = {
    merchantId: merchant.merchantId,
    kind,
    orderId: form.order_id as string,
    orderDescription: form.order_description as string,
    currency,
    amount: amount.minor,
    amountText,
    payer: payerOf(form),
    termUrl3ds: str(form, 'term_url_3ds') ?? null,
    // The schema admitted only the four link targets.
    ...(str(form, 'term_url_target') ? { termUrlTarget: str(form, 'term_url_target') as ReturnLinkTarget } : {}),
    notificationUrl: notificationUrl ?? null,
    customData: (form.custom_data as Record<string, unknown>) ?? null,
    parameters: (form.parameters as Record<string, unknown>) ?? null,
    recurringInit,
    correlationId: requestId,
    ...(schedule ? { schedule } : {}),
    cardOnFileSupport: merchant.cardOnFileSupport === true,
    connectors: merchantConnectors(merchant),
    merchantPaymentMode: merchant.paymentMode,
  };
  try {
    if (wallet && isWallet(wallet.wallet)) {
      // S2S CARD takes wallets in the card flow only: without it, 204018 (docs/reference/s2s-card.md#wallet-sale).
      const result = await deps.payments.walletSale({ ...order, clientKey: merchant.clientKey, wallet: wallet.wallet, token: wallet.token, flows: 'card' });
      return saleResponse(viewOf(result.payment));
    }
    if (!card) throw errors.invalid(fieldErrors);
    const cardSource = card.kind === 'number' ? 'card_number' : 'card_token';
    const result = await deps.payments.sale({
      ...order,
      card,
      storeCard: storesCard({ cardSource, kind, reqToken: form.req_token === 'Y', recurringInit }),
      ...(payerPresent({ cardSource, payerPresentSent: str(form, 'payer_present') }) ? {} : { payerPresent: false }),
    });
    return saleResponse(viewOf(result.payment));
  } catch (error) {
    if (error instanceof DuplicatePaymentError) throw errors.duplicate();
    if (error instanceof CardTokenNotFoundError) throw errors.cardTokenNotFound();
    throwWalletRefusal(error, 'payment_token');
    // A payment none of the merchant's connectors can take: 204005.
    throwApiError(error);
  }
}

/** Formula 8 for a wallet SALE (no card sent: it is in the token), else Formula 1 over the card number or token. */
function expectedSaleHash(signer: { payerEmail?: string; password: string }, card: SaleCard | null): string {
  if (card === null) return walletSaleHash(signer);
  switch (card.kind) {
    case 'number':
      return saleCardHash({ ...signer, cardNumber: card.number });
    case 'token':
      return saleTokenHash({ ...signer, cardToken: card.token });
    case 'wallet':
      // A decrypted wallet card is never sent on the form: it comes out of a token, after the hash.
      throw new Error('a wallet card is not signed for');
    default: {
      const unreachable: never = card;
      return unreachable;
    }
  }
}

/**
 * A wallet SALE's fields, or null when none was sent: `digital_wallet` and `payment_token` both,
 * without card fields, and a token of its wallet's shape (checked here, before the hash: it is
 * validation). An unknown wallet is not a field error: it is refused after the hash (204018).
 */
function walletFieldsOf(form: FormBody, fieldErrors: FieldError[]): { wallet: string; token: string } | null {
  const wallet = str(form, 'digital_wallet');
  const token = str(form, 'payment_token');
  if (wallet === undefined && token === undefined) return null;
  if (wallet === undefined) fieldErrors.push(errors.field('digital_wallet', 'This value should not be blank.'));
  if (token === undefined) fieldErrors.push(errors.field('payment_token', 'This value should not be blank.'));
  if (str(form, 'card_number') || str(form, 'card_token')) fieldErrors.push(errors.field('payment_token', 'Send either card data or payment_token, not both.'));
  if (wallet === undefined || token === undefined) return { wallet: wallet ?? '', token: token ?? '' };
  const problem = isWallet(wallet) ? walletTokenProblem(wallet, token, 'payment_token') : null;
  if (problem) fieldErrors.push(problem);
  return { wallet, token };
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

