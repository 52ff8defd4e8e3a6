/** The hosted payment page (`/checkout/:sessionId`). */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { CheckoutPageModel, CheckoutService } from '../../application/checkout/checkout-service';
import { systemClock, type Clock } from '../../application/ports/clock';
import { DomainError } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import { browserAttributesFrom } from '../html/browser-info';
import { registerFaviconRoutes } from '../html/favicon';
import { ASSET_CACHE_CONTROL, CHECKOUT_ASSETS } from './assets';
import { asksBillingAddress, renderFormPage } from './form-page';
import { gatewayPathPrefix, navigate, sendPage, type NavigateOptions } from './navigate';
import { keepTyped, typedBefore } from './kept-fields';
import { formReader, readPayForm } from './pay-form';
import { renderNotFoundPage, renderUnavailablePage } from './render-page';
import { renderProcessingPage } from './status-pages';
import { CARD_METHOD } from '../../domain/checkout/session-methods';
import { readMethodFields } from './method-form';
import { renderMethodStepPage } from './method-step-page';
import { renderWalletSheetPage, type SheetCardOption } from './wallet-sheet';
import { isWallet, type Wallet } from '../../domain/wallets/token-shape';
import { WALLET_LABELS } from '../../application/checkout/checkout-service';
import { MAX_TOKEN_CHARS } from '../../domain/wallets/token-shape';
import { ApiError, errors } from '../errors';
import { processingAnswerOf } from '../hosted-fields/processing';

export interface CheckoutPageDeps {
  checkout: CheckoutService;
  baseUrl: string;
  /** The time left to pay is shown with it; the service decides expiry with its own clock. */
  clock?: Clock;
  /** The sandbox's simulated wallet sheet (absent outside the sandbox): its cards, and the token it hands over. */
  walletSheet?: WalletSheetDeps;
}

export interface WalletSheetDeps {
  cards: readonly SheetCardOption[];
  token(choice: { merchantId: string; wallet: Wallet; card: string; panOnly: boolean }): Promise<string>;
}

export function registerCheckoutPageRoutes(router: Router, deps: CheckoutPageDeps): void {
  const prefix = gatewayPathPrefix(deps.baseUrl);
  const clock = deps.clock ?? systemClock;
  const notFound = (ctx: Koa.Context) => sendPage(ctx, 404, renderNotFoundPage(prefix));

  // The icon every hosted page links (these pages and the kit's) is served with the page's own assets.
  registerFaviconRoutes(router);
  for (const asset of [CHECKOUT_ASSETS.css, CHECKOUT_ASSETS.js, CHECKOUT_ASSETS.stepJs]) {
    router.get(asset.path, (ctx) => {
      ctx.type = asset.type;
      ctx.set('Cache-Control', ASSET_CACHE_CONTROL);
      ctx.body = asset.body;
    });
  }

  /**
   * A session the payer cannot reach is a friendly page, never an error body: a merchant's
   * misconfiguration (its account gone) reads the same as an unknown link to the payer.
   */
  const withSession = (handler: (ctx: Koa.Context, sessionId: string) => Promise<void>) => async (ctx: Koa.Context) => {
    const sessionId = ctx.params.sessionId;
    if (!isUuid(sessionId)) return notFound(ctx);
    try {
      await handler(ctx, sessionId);
    } catch (error) {
      if (error instanceof DomainError) return sendPage(ctx, 404, renderNotFoundPage(prefix));
      throw error;
    }
  };

  /** Hosted payment fields sessions take card data only through the shop's page. */
  const formAllowed = (model: CheckoutPageModel) => !model.session.hostedFields;

  // Cookies for a gateway served over https are sent back over https only.
  const secureCookies = deps.baseUrl.startsWith('https:');

  /** The method the payer picked in the page's list (`?method=`): one of the session's, or ignored. */
  const methodAsked = (ctx: Koa.Context): string | undefined => (typeof ctx.query.method === 'string' ? ctx.query.method.slice(0, 64) : undefined);

  const formPage = (input: Parameters<typeof renderFormPage>[0]) => renderFormPage({ ...input, walletSheet: deps.walletSheet !== undefined });

  const showPage = async (ctx: Koa.Context, model: CheckoutPageModel) => {
    const options: NavigateOptions = { prefix, shopName: model.merchantName };
    switch (model.view) {
      case 'form': {
        if (!formAllowed(model)) return notFound(ctx);
        // After a decline the payer tries again: what they typed (never the card number or CVV) is still there.
        const kept = model.lastDecline ? typedBefore(ctx) : undefined;
        return sendPage(ctx, 200, formPage({ model, now: clock.now(), prefix, kept, method: methodAsked(ctx) }));
      }
      case 'processing':
        return sendPage(ctx, 200, renderProcessingPage(model, clock.now(), prefix));
      case 'method_step':
        if (!model.step) return sendPage(ctx, 500, renderUnavailablePage(prefix));
        return sendPage(ctx, 200, renderMethodStepPage(model, model.step, clock.now(), prefix));
      case 'elsewhere':
        if (!model.next) return sendPage(ctx, 500, renderUnavailablePage(prefix));
        return navigate(ctx, model.next, options);
    }
  };

  router.get(
    '/checkout/:sessionId',
    withSession(async (ctx, sessionId) => {
      const model = await deps.checkout.pageModel(sessionId);
      if (!model) return notFound(ctx);
      await showPage(ctx, model);
    }),
  );

  router.post(
    '/checkout/:sessionId/pay',
    withSession(async (ctx, sessionId) => {
      const before = await deps.checkout.pageModel(sessionId);
      if (!before) return notFound(ctx);
      // Nothing to pay any more (paid, expired, in progress...): the payer goes where the session says.
      if (before.view !== 'form' || !formAllowed(before)) return showPage(ctx, before);
      const field = formReader((ctx.request as { body?: unknown }).body);
      const browser = browserAttributesFrom(
        { userAgent: ctx.get('User-Agent'), accept: ctx.get('Accept'), acceptLanguage: ctx.get('Accept-Language') },
        field,
      );
      const method = field('method')?.trim() || CARD_METHOD;
      if (method !== CARD_METHOD) {
        // An alternative method: only the fields the page asked for it are read.
        const typed = readMethodFields(field, before.methods.find((m) => m.method === method));
        const outcome = await deps.checkout.pay(sessionId, { method, methodFields: typed, payerIp: ctx.request.ip, browser }, ctx.state.requestId);
        if (!outcome) return notFound(ctx);
        if (outcome.kind === 'invalid_method') {
          const page = formPage({ model: before, now: clock.now(), prefix, method, methodProblems: outcome.problems, methodTyped: typed });
          return sendPage(ctx, 422, page);
        }
        if (outcome.kind === 'invalid') return sendPage(ctx, 422, formPage({ model: before, now: clock.now(), prefix, problems: outcome.problems }));
        return navigate(ctx, outcome.next, { prefix, shopName: before.merchantName });
      }
      const form = readPayForm(field, {
        payerIp: ctx.request.ip,
        browser,
        sessionCountry: before.session.billingAddress.country,
        asksBillingAddress: asksBillingAddress(before),
      });
      const outcome = form.problems.length
        ? ({ kind: 'invalid', problems: form.problems } as const)
        : await deps.checkout.pay(sessionId, form.input, ctx.state.requestId);
      if (!outcome) return notFound(ctx);
      if (outcome.kind === 'invalid') {
        return sendPage(ctx, 422, formPage({ model: before, now: clock.now(), prefix, kept: form.kept, problems: outcome.problems, method: CARD_METHOD }));
      }
      if (outcome.kind === 'invalid_method') return sendPage(ctx, 422, formPage({ model: before, now: clock.now(), prefix, method: CARD_METHOD }));
      // Only an attempt that may bring the payer back to this form (a decline, a verification) keeps anything.
      if (outcome.next.kind === 'page' || outcome.next.kind === 'payer_action') {
        keepTyped(ctx, { prefix, sessionId, secure: secureCookies || ctx.secure }, form.kept);
      }
      navigate(ctx, outcome.next, { prefix, shopName: before.merchantName });
    }),
  );

  /** The one-time code of an alternative method's step, typed on the page. */
  router.post(
    '/checkout/:sessionId/otp',
    withSession(async (ctx, sessionId) => {
      const field = formReader((ctx.request as { body?: unknown }).body);
      const otp = (field('otp') ?? '').trim().slice(0, 32);
      const outcome = await deps.checkout.submitOtp(sessionId, otp, ctx.state.requestId);
      if (!outcome) return notFound(ctx);
      if (outcome.kind === 'wrong_code') {
        const model = await deps.checkout.pageModel(sessionId);
        if (!model) return notFound(ctx);
        return sendPage(ctx, 422, renderMethodStepPage(model, outcome.step, clock.now(), prefix, true));
      }
      navigate(ctx, outcome.next, { prefix });
    }),
  );

  /**
   * What the step's script asks every few seconds: whether the payer still waits on this page, and
   * how long a QR code has left by the gateway's clock. Never cached.
   */
  router.get(
    '/checkout/:sessionId/status',
    withSession(async (ctx, sessionId) => {
      const status = await deps.checkout.pageStatus(sessionId);
      ctx.set('Cache-Control', 'no-store');
      if (!status) {
        ctx.status = 404;
        ctx.body = { waiting: false };
        return;
      }
      ctx.body = { waiting: status.waiting, ...(status.expiresIn !== undefined ? { expires_in: status.expiresIn } : {}) };
    }),
  );

  // The sandbox's simulated wallet sheet: the wallet's button opens it, its Approve pays with the token it makes.
  const sheet = deps.walletSheet;
  if (sheet) {
    const sheetOf = async (ctx: Koa.Context, sessionId: string): Promise<{ model: CheckoutPageModel; wallet: Wallet } | null> => {
      const model = await deps.checkout.pageModel(sessionId);
      const wallet = ctx.params.wallet;
      if (!model || !isWallet(wallet) || !formAllowed(model)) {
        notFound(ctx);
        return null;
      }
      // Paid, expired, in progress...: the payer goes where the session says.
      if (model.view !== 'form') {
        await showPage(ctx, model);
        return null;
      }
      if (!model.methods.some((m) => m.method === wallet)) {
        notFound(ctx);
        return null;
      }
      return { model, wallet };
    };
    const sheetPage = (model: CheckoutPageModel, wallet: Wallet, refusal?: string) =>
      renderWalletSheetPage({ model, wallet, label: WALLET_LABELS[wallet], cards: sheet.cards, prefix, now: clock.now(), ...(refusal ? { refusal } : {}) });

    router.get(
      '/checkout/:sessionId/wallet/:wallet',
      withSession(async (ctx, sessionId) => {
        const found = await sheetOf(ctx, sessionId);
        if (found) sendPage(ctx, 200, sheetPage(found.model, found.wallet));
      }),
    );

    router.post(
      '/checkout/:sessionId/wallet/:wallet',
      withSession(async (ctx, sessionId) => {
        const found = await sheetOf(ctx, sessionId);
        if (!found) return;
        const { model, wallet } = found;
        const field = formReader((ctx.request as { body?: unknown }).body);
        const card = field('card') ?? '';
        if (!sheet.cards.some((c) => c.id === card)) return sendPage(ctx, 422, sheetPage(model, wallet, 'Choose a card.'));
        const token = await sheet.token({ merchantId: model.session.merchantId, wallet, card, panOnly: wallet === 'googlepay' && field('pan_only') === 'Y' });
        const browser = browserAttributesFrom({ userAgent: ctx.get('User-Agent'), accept: ctx.get('Accept'), acceptLanguage: ctx.get('Accept-Language') }, field);
        const outcome = await deps.checkout.payWithWallet(sessionId, { wallet, token, payerIp: ctx.request.ip, browser }, ctx.state.requestId);
        if (!outcome) return notFound(ctx);
        if (outcome.kind === 'wallet_refused') return sendPage(ctx, 422, sheetPage(model, wallet, `${WALLET_LABELS[wallet]} could not pay: ${outcome.message}.`));
        if (outcome.kind !== 'done') return showPage(ctx, model);
        navigate(ctx, outcome.next, { prefix, shopName: model.merchantName });
      }),
    );
  }

  /**
   * A wallet token the payer's device made (the real wallet's sheet, on the shop's page through the
   * SDK's `PaySession.pay()` or on this page) handed to the session: verified and decrypted as on
   * S2S (the card flow, else the virtual flow), then paid as the session's attempt, under its rules.
   * Form field `payment_token`: the token JSON, bytes unchanged. The answer says how the attempt
   * stands and where the payer goes next (the session's page, which sends them on). Any origin may
   * post and read it: the session's id is the credential, as for the page itself.
   */
  router.post('/checkout/:sessionId/wallet/:wallet/token', async (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'no-store');
    const body = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
    const token = typeof body.payment_token === 'string' ? body.payment_token : '';
    if (!token.trim()) throw errors.invalid([errors.field('payment_token', 'This value should not be blank.')]);
    if (token.length > MAX_TOKEN_CHARS) throw errors.invalid([errors.field('payment_token', `This value is too long. It should have ${MAX_TOKEN_CHARS} characters or less.`)]);
    const sessionId = ctx.params.sessionId;
    const wallet = ctx.params.wallet;
    const unknownSession = () => errors.invalid([errors.field('session', 'The session does not exist.')]);
    if (!isUuid(sessionId)) throw unknownSession();
    if (!isWallet(wallet)) throw new ApiError(400, 204018, 'Payment digital wallet not supported');
    const field = formReader(body);
    const browser = browserAttributesFrom({ userAgent: ctx.get('User-Agent'), accept: ctx.get('Accept'), acceptLanguage: ctx.get('Accept-Language') }, field);
    const outcome = await deps.checkout.payWithWallet(sessionId, { wallet, token, payerIp: ctx.request.ip, browser }, ctx.state.requestId);
    if (!outcome) throw unknownSession();
    if (outcome.kind === 'wallet_refused') throw new ApiError(400, outcome.code, outcome.message);
    const payment = outcome.kind === 'done' ? outcome.payment : null;
    const answer = payment ? processingAnswerOf(payment) : null;
    ctx.body = {
      result: answer?.result ?? 'undefined',
      ...(answer?.decline_message !== undefined ? { decline_message: answer.decline_message } : {}),
      ...(answer ? { public_id: answer.public_id } : {}),
      redirect_url: `${deps.baseUrl}/checkout/${sessionId}`,
      redirect_method: 'GET',
    };
  });

  router.post(
    '/checkout/:sessionId/cancel',
    withSession(async (ctx, sessionId) => {
      const destination = await deps.checkout.cancel(sessionId, ctx.state.requestId);
      if (!destination) return notFound(ctx);
      navigate(ctx, destination, { prefix });
    }),
  );
}
