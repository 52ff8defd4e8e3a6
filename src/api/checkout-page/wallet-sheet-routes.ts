/** The sandbox's simulated wallet sheet: the wallet's button opens it, its Approve pays with the token it makes. */
import type Router from '@koa/router';
import type Koa from 'koa';
import { WALLET_LABELS, type CheckoutPageModel } from '../../application/checkout/checkout-service';
import { isWallet, type Wallet } from '../../domain/wallets/token-shape';
import { navigate, sendPage } from './navigate';
import { browserOf, formAllowed, type PageRouteContext, type WalletSheetDeps } from './page-route-context';
import { formReader } from './pay-form';
import { showPage } from './show-page';
import { renderWalletSheetPage } from './wallet-sheet';

export function registerWalletSheetRoutes(router: Router, c: PageRouteContext, sheet: WalletSheetDeps): void {
  const sheetPage = (model: CheckoutPageModel, wallet: Wallet, refusal?: string) =>
    renderWalletSheetPage({ model, wallet, label: WALLET_LABELS[wallet], cards: sheet.cards, prefix: c.prefix, now: c.clock.now(), ...(refusal ? { refusal } : {}) });

  router.get(
    '/checkout/:sessionId/wallet/:wallet',
    c.withSession(async (ctx, sessionId) => {
      const found = await sheetOf(c, ctx, sessionId);
      if (found) sendPage(ctx, 200, sheetPage(found.model, found.wallet));
    }),
  );

  router.post(
    '/checkout/:sessionId/wallet/:wallet',
    c.withSession(async (ctx, sessionId) => {
      const found = await sheetOf(c, ctx, sessionId);
      if (!found) return;
      const { model, wallet } = found;
      const field = formReader((ctx.request as { body?: unknown }).body);
      const card = field('card') ?? '';
      if (!sheet.cards.some((o) => o.id === card)) return sendPage(ctx, 422, sheetPage(model, wallet, 'Choose a card.'));
      const token = await sheet.token({ merchantId: model.session.merchantId, wallet, card, panOnly: wallet === 'googlepay' && field('pan_only') === 'Y' });
      const outcome = await c.deps.checkout.payWithWallet(sessionId, { wallet, token, payerIp: ctx.request.ip, browser: browserOf(ctx, field) }, ctx.state.requestId);
      if (!outcome) return c.notFound(ctx);
      if (outcome.kind === 'wallet_refused') return sendPage(ctx, 422, sheetPage(model, wallet, `${WALLET_LABELS[wallet]} could not pay: ${outcome.message}.`));
      if (outcome.kind !== 'done') return showPage(c, ctx, model);
      navigate(ctx, outcome.next, { prefix: c.prefix, shopName: model.merchantName });
    }),
  );
}

/** The session's page and the wallet its sheet is for; null once the payer was answered otherwise. */
async function sheetOf(c: PageRouteContext, ctx: Koa.Context, sessionId: string): Promise<{ model: CheckoutPageModel; wallet: Wallet } | null> {
  const model = await c.deps.checkout.pageModel(sessionId);
  const wallet = ctx.params.wallet;
  if (!model || !isWallet(wallet) || !formAllowed(model)) {
    c.notFound(ctx);
    return null;
  }
  // Paid, expired, in progress...: the payer goes where the session says.
  if (model.view !== 'form') {
    showPage(c, ctx, model);
    return null;
  }
  if (!model.methods.some((m) => m.method === wallet)) {
    c.notFound(ctx);
    return null;
  }
  return { model, wallet };
}
