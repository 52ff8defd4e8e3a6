/**
 * A merchant's wallet settings on the dashboard (`/dashboard/merchants/:id/wallets`), what `npm run
 * gateway -- wallet set|show` does from the command line (docs/wallets.md#setting-up-a-merchant).
 * The same service checks both, so they accept and refuse the same things in the same words.
 * Private keys are never shown again: a key field left empty keeps the stored key, a key is
 * removed only by its "Remove" box.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { WalletSettingsInput, WalletSettingsView } from '../../../application/wallets';
import { isUuid } from '../../../domain/ids';
import { GOOGLE_ENVIRONMENTS, MERCHANT_CAPABILITIES, SUPPORTED_NETWORKS, WalletSettingsInvalid } from '../../../domain/wallets/settings';
import type { MerchantRecord } from '../../../application/ports/merchant-lookup';
import type { DashboardDeps } from '../deps';
import { formList, formOf, formText, queryText } from '../format';
import { html, notFoundPage, seeOther, type Guard } from '../guard';
import { checkboxes, csrfInput, esc, input, layout, link, select } from '../html';
import type { DashboardSession } from '../session';

export const walletSettingsPath = (merchantId: string): string => `/dashboard/merchants/${merchantId}/wallets`;

export function registerMerchantWalletPages(router: Router, guard: Guard, deps: DashboardDeps): void {
  guard.page(router, '/dashboard/merchants/:id/wallets', async (ctx, session) => {
    const merchant = await merchantOf(ctx, deps);
    if (!merchant) return notFoundPage(ctx, session, deps.environment, `No merchant ${String(ctx.params.id)}.`);
    const view = await deps.wallets.view(merchant.merchantId);
    page(ctx, session, deps, merchant, view, { saved: queryText(ctx, 'done') === 'saved' });
  });
  guard.action(router, '/dashboard/merchants/:id/wallets', async (ctx, session) => {
    const merchant = await merchantOf(ctx, deps);
    if (!merchant) return notFoundPage(ctx, session, deps.environment, `No merchant ${String(ctx.params.id)}.`);
    try {
      await deps.wallets.update(merchant.merchantId, postedInput(formOf(ctx)));
    } catch (error) {
      if (!(error instanceof WalletSettingsInvalid)) throw error;
      const view = await deps.wallets.view(merchant.merchantId);
      return page(ctx, session, deps, merchant, view, { problem: error }, 400);
    }
    seeOther(ctx, `${walletSettingsPath(merchant.merchantId)}?done=saved`);
  });
}

async function merchantOf(ctx: Koa.Context, deps: DashboardDeps): Promise<MerchantRecord | undefined> {
  const id = String(ctx.params.id ?? '');
  return isUuid(id) ? deps.merchants.byId(id.toLowerCase()) : undefined;
}

type Form = Record<string, string | string[]>;

/** A key or file field: empty keeps what is stored, the Remove box clears it. */
function secret(form: Form, name: string): string | null | undefined {
  if (formText(form, `${name}-remove`) === 'on') return null;
  const text = (formText(form, name) ?? '').trim();
  return text === '' ? undefined : text;
}

/** The form as the settings' input; an emptied text field clears its setting. */
export function postedInput(form: Form): WalletSettingsInput {
  const text = (name: string) => (formText(form, name) ?? '').trim();
  const cleared = (name: string) => text(name) || null;
  const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return {
    apple: defined({
      merchantIdentifier: text('merchant-identifier') || undefined,
      certificate: secret(form, 'certificate'),
      privateKey: secret(form, 'private-key'),
      processingPrivateKey: secret(form, 'processing-key'),
      country: cleared('country'),
      shopName: cleared('shop-name'),
      merchantCapabilities: formList(form, 'capabilities'),
      supportedNetworks: formList(form, 'networks'),
    }),
    google: defined({
      environment: text('environment') || undefined,
      gateway: text('gateway') || undefined,
      gatewayMerchantId: cleared('gateway-merchant-id'),
      privateKey: secret(form, 'google-key'),
    }),
    domains: text('domains').split(/[\s,]+/).filter(Boolean),
    ...defined({ domainAssociation: secret(form, 'domain-association') }),
  };
}

function textarea(o: { label: string; name: string; value?: string; hint: string; rows?: number }): string {
  const id = `f-${o.name}`;
  return `<div class="field"><label for="${id}">${esc(o.label)}</label>
<textarea id="${id}" name="${esc(o.name)}" rows="${o.rows ?? 4}" aria-describedby="${id}-hint">${esc(o.value ?? '')}</textarea>
<p class="hint" id="${id}-hint">${esc(o.hint)}</p></div>`;
}

/** A stored key's field: whether one is set, a new one to paste, and its Remove box. */
function keyField(label: string, name: string, isSet: boolean, hint: string): string {
  const state = isSet ? 'set (never shown again); empty keeps it.' : 'none.';
  return `${input({ label, name, value: '', hint: `${hint} Now: ${state}`, attrs: 'autocomplete="off" spellcheck="false"' })}
<label class="inline"><input type="checkbox" name="${esc(name)}-remove" value="on"> Remove the ${esc(label)}</label>`;
}

function page(
  ctx: Koa.Context,
  session: DashboardSession,
  deps: DashboardDeps,
  merchant: MerchantRecord,
  view: WalletSettingsView,
  state: { saved?: boolean; problem?: WalletSettingsInvalid },
  status = 200,
): void {
  const a = view.apple;
  const g = view.google;
  const oneLine = 'One line: -----BEGIN PRIVATE KEY-----, the key, -----END PRIVATE KEY-----, no spaces or line breaks (tr -d \'\\n\' < key.pem).';
  const main = `<p>${link(`/dashboard/merchants/${merchant.merchantId}`, `Back to ${merchant.name}`)}</p>
<form method="post" action="${esc(walletSettingsPath(merchant.merchantId))}" class="card" novalidate>
${csrfInput(session)}
<h2>Apple Pay</h2>
${input({ label: 'Merchant Identifier', name: 'merchant-identifier', value: a?.merchantIdentifier ?? '', hint: 'merchant.com.example.shop' })}
${a?.certificateSet ? '<p class="hint">Certificate: set. Paste a new one to replace it.</p>' : ''}
${textarea({ label: 'Certificate', name: 'certificate', hint: 'The merchant identity certificate (PEM), for merchant validation. Empty keeps the stored one.', rows: 5 })}
<label class="inline"><input type="checkbox" name="certificate-remove" value="on"> Remove the Certificate</label>
${keyField('Private Key', 'private-key', a?.privateKeySet ?? false, `The merchant identity certificate's key (RSA or P-256). ${oneLine}`)}
${keyField('Processing Private Key', 'processing-key', a?.processingPrivateKeySet ?? false, `Decrypts tokens (P-256). ${oneLine}`)}
${input({ label: 'Country', name: 'country', value: a?.country ?? '', hint: 'ISO 3166-1 alpha-2 (US): the payment request\'s countryCode. Apple Pay on the hosted page needs it.' })}
${input({ label: 'Shop Name', name: 'shop-name', value: a?.shopName ?? '', hint: 'On the Apple Pay sheet and in merchant validation; empty: the merchant\'s name.' })}
${checkboxes({ legend: 'Merchant Capabilities', name: 'capabilities', options: MERCHANT_CAPABILITIES, checked: a?.merchantCapabilities ?? [], hint: 'None checked: supports3DS.' })}
${checkboxes({ legend: 'Supported Networks', name: 'networks', options: SUPPORTED_NETWORKS, checked: a?.supportedNetworks ?? [], hint: 'None checked: visa, masterCard, amex, discover.' })}
<h2>Google Pay</h2>
${select({ label: 'Environment', name: 'environment', value: g?.environment ?? 'TEST', options: GOOGLE_ENVIRONMENTS.map((e): [string, string] => [e, e]), hint: "Google Pay's PaymentsClient on the hosted page." })}
${input({ label: 'Gateway', name: 'gateway', value: g?.gateway ?? '', hint: 'Tokens are addressed to gateway:<Gateway>. Empty keeps it.' })}
${input({ label: 'Gateway Merchant ID', name: 'gateway-merchant-id', value: g?.gatewayMerchantId ?? '', hint: `Empty: the merchant's client key (${merchant.clientKey}).` })}
${keyField('Google Private Key', 'google-key', g?.privateKeySet ?? false, `The key tokens are encrypted to (P-256). ${oneLine}`)}
<h2>Domains</h2>
${textarea({ label: 'Domains', name: 'domains', value: view.domains.join('\n'), hint: 'Where the wallet buttons run, one per line (at most 99).' })}
${textarea({ label: 'Apple Pay domain association file', name: 'domain-association', hint: `Served at /.well-known/apple-developer-merchantid-domain-association on those domains. Now: ${view.domainAssociationSet ? 'set; empty keeps it' : 'none'}.` })}
<label class="inline"><input type="checkbox" name="domain-association-remove" value="on"> Remove the domain association file</label>
<div class="actions"><button type="submit">Save wallet settings</button></div>
</form>`;
  const problem = state.problem ? `${state.problem.message} Nothing was saved.` : null;
  html(
    ctx,
    layout({
      title: `${merchant.name}: wallets`,
      section: 'merchants',
      environment: deps.environment,
      session,
      flash: problem ? { kind: 'error', text: problem } : state.saved ? { kind: 'ok', text: 'Wallet settings saved.' } : null,
      main,
    }),
    status,
  );
}
