/** What every route of the hosted payment page shares: its dependencies, its path prefix and clock, and how it answers. */
import type Koa from 'koa';
import type { CheckoutPageModel, CheckoutService } from '../../application/checkout/checkout-service';
import { systemClock, type Clock } from '../../application/ports/clock';
import { DomainError } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import type { BrowserAttributes } from '../../domain/payment/events';
import type { Wallet } from '../../domain/wallets/token-shape';
import { browserAttributesFrom } from '../html/browser-info';
import { renderFormPage, type FormPageInput } from './form-page';
import { gatewayPathPrefix, sendPage } from './navigate';
import type { FormReader } from './pay-form';
import { renderNotFoundPage } from './render-page';
import type { SheetCardOption } from './wallet-sheet';

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

export interface PageRouteContext {
  deps: CheckoutPageDeps;
  prefix: string;
  clock: Clock;
  /** Cookies for a gateway served over https are sent back over https only. */
  secureCookies: boolean;
  notFound(ctx: Koa.Context): void;
  /**
   * A session the payer cannot reach is a friendly page, never an error body: a merchant's
   * misconfiguration (its account gone) reads the same as an unknown link to the payer.
   */
  withSession(handler: (ctx: Koa.Context, sessionId: string) => Promise<void>): Koa.Middleware;
  /** The payment form, with the sandbox's wallet sheet where there is one. */
  formPage(input: FormPageInput): string;
}

export function pageRouteContext(deps: CheckoutPageDeps): PageRouteContext {
  const prefix = gatewayPathPrefix(deps.baseUrl);
  const notFound = (ctx: Koa.Context) => sendPage(ctx, 404, renderNotFoundPage(prefix));
  return {
    deps,
    prefix,
    clock: deps.clock ?? systemClock,
    secureCookies: deps.baseUrl.startsWith('https:'),
    notFound,
    withSession: (handler) => async (ctx) => {
      const sessionId = ctx.params.sessionId;
      if (!isUuid(sessionId)) return notFound(ctx);
      try {
        await handler(ctx, sessionId);
      } catch (error) {
        if (error instanceof DomainError) return sendPage(ctx, 404, renderNotFoundPage(prefix));
        throw error;
      }
    },
    formPage: (input) => renderFormPage({ ...input, walletSheet: deps.walletSheet !== undefined }),
  };
}

/** Hosted payment fields sessions take card data only through the shop's page. */
export const formAllowed = (model: CheckoutPageModel): boolean => !model.session.hostedFields;

/** What the payer's browser tells of itself (its headers and the form's `browser_*` fields), recorded with the attempt's payment. */
export function browserOf(ctx: Koa.Context, field: FormReader): BrowserAttributes | undefined {
  return browserAttributesFrom({ userAgent: ctx.get('User-Agent'), accept: ctx.get('Accept'), acceptLanguage: ctx.get('Accept-Language') }, field);
}
