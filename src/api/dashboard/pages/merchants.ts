/**
 * Merchants: the list, one merchant's keys and settings, and creating and updating them. The forms
 * are read by the same code as the CLI's flags (application/merchant-settings-input.ts), so the
 * dashboard and `npm run gateway -- merchant create|update` accept and refuse the same things in
 * the same words. A new merchant's password is shown once, on the page that answers the creation.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { NotificationUrlRefusedError, UnknownConnectorError, UnknownMethodError } from '../../../application/merchant-service';
import {
  PAYMENT_MODES,
  parseMerchantSettings,
  registrationOf,
  withMappingChanges,
  type MerchantSettingName,
  type MerchantSettingsInput,
  type SettingProblem,
} from '../../../application/merchant-settings-input';
import type { MerchantRecord } from '../../../application/ports/merchant-lookup';
import { LINK_TARGETS } from '../../../domain/checkout/session-events';
import { merchantConnectors } from '../../../domain/merchant/connectors';
import { methodsSettingOf } from '../../../domain/merchant/methods';
import { isUuid } from '../../../domain/ids';
import { CALLBACK_FIELD_SWITCHES, REQUIRABLE_SALE_FIELDS, RETURN_PARAMETERS, noProtocolMapping } from '../../../domain/merchant/protocol-mapping';
import type { DashboardDeps } from '../deps';
import { walletSettingsPath } from './merchant-wallets';
import { formList, formOf, formText, queryText } from '../format';
import { html, notFoundPage, seeOther, type Guard } from '../guard';
import { badge, checkboxes, code, csrfInput, details, esc, input, layout, link, select, table, time } from '../html';
import type { DashboardSession } from '../session';

const LABELS: Readonly<Record<MerchantSettingName, string>> = {
  name: 'Name',
  'notification-url': 'Notification URL',
  'payment-mode': 'Payment mode',
  'ip-allowlist': 'IP allowlist',
  refunds: 'Refunds',
  'callback-fields': 'Callback fields',
  'return-params': 'Return URL parameters',
  'required-fields': 'Required SALE fields',
  'link-target': 'Link target',
  'card-on-file': 'Card on file',
  connectors: 'Connectors',
  methods: 'Alternative methods',
};

const ON_OFF: Array<[string, string]> = [
  ['on', 'on'],
  ['off', 'off'],
];

type Problems = Partial<Record<MerchantSettingName, string>>;

const problemsOf = (list: SettingProblem[]): Problems =>
  Object.fromEntries(list.map((p) => [p.setting, `${LABELS[p.setting]} ${p.message}.`]));

export function registerMerchantPages(router: Router, guard: Guard, deps: DashboardDeps): void {
  guard.page(router, '/dashboard/merchants', (ctx, session) => listPage(ctx, session, deps));
  guard.page(router, '/dashboard/merchants/new', (ctx, session) => formPage(ctx, session, deps, null, {}, {}));
  guard.action(router, '/dashboard/merchants', (ctx, session) => create(ctx, session, deps));
  guard.page(router, '/dashboard/merchants/:id', async (ctx, session) => {
    const merchant = await merchantOf(ctx, deps);
    if (!merchant) return notFoundPage(ctx, session, deps.environment, `No merchant ${String(ctx.params.id)}.`);
    formPage(ctx, session, deps, merchant, inputOf(merchant), {}, queryText(ctx, 'done') === 'saved');
  });
  guard.action(router, '/dashboard/merchants/:id', (ctx, session) => update(ctx, session, deps));
}

async function merchantOf(ctx: Koa.Context, deps: DashboardDeps): Promise<MerchantRecord | undefined> {
  const id = String(ctx.params.id ?? '');
  return isUuid(id) ? deps.merchants.byId(id.toLowerCase()) : undefined;
}

async function listPage(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const merchants = await deps.merchants.list();
  html(
    ctx,
    layout({
      title: 'Merchants',
      section: 'merchants',
      environment: deps.environment,
      session,
      main: `<div class="actions"><a class="button" href="/dashboard/merchants/new">New merchant</a></div>
${table({
  caption: 'Merchants, oldest first',
  head: ['Name', 'Merchant id', 'Payment mode', 'Notification URL', 'Connectors', 'Refunds', 'Registered'],
  rows: merchants.map((m) => [
    link(`/dashboard/merchants/${m.merchantId}`, m.name),
    code(m.merchantId),
    esc(m.paymentMode),
    esc(m.notificationUrl ?? '–'),
    esc(merchantConnectors(m).join(', ')),
    m.refundsEnabled ? 'on' : 'off',
    time(m.registeredAt),
  ]),
  empty: 'No merchant yet.',
})}`,
    }),
  );
}

/** The form's values as the settings' text (what the CLI flags would say). */
function inputOf(m: MerchantRecord): MerchantSettingsInput {
  const mapping = m.protocolMapping ?? noProtocolMapping();
  return {
    name: m.name,
    'notification-url': m.notificationUrl ?? '',
    'payment-mode': m.paymentMode,
    'ip-allowlist': m.ipAllowlist.join(', '),
    refunds: m.refundsEnabled ? 'on' : 'off',
    'callback-fields': mapping.fields.join(','),
    'return-params': mapping.returnParameters.join(','),
    'required-fields': mapping.requiredFields.join(','),
    'link-target': m.overrideLinkTarget ?? 'none',
    'card-on-file': m.cardOnFileSupport ? 'on' : 'off',
    connectors: merchantConnectors(m).join(','),
    methods: methodsText(m),
  };
}

/** The methods setting as the CLI's --methods takes it: all, none, or a list. */
function methodsText(m: MerchantRecord): string {
  const setting = methodsSettingOf(m);
  if (setting === 'all') return 'all';
  return setting.length ? setting.join(',') : 'none';
}

/** The posted form as settings text; an emptied optional field means "none" (on update: remove it). */
function postedInput(ctx: Koa.Context, forUpdate: boolean): MerchantSettingsInput {
  const form = formOf(ctx);
  const text = (name: MerchantSettingName) => (formText(form, name) ?? '').trim();
  const list = (name: MerchantSettingName) => formList(form, name).join(',') || 'none';
  const optional = (name: MerchantSettingName) => text(name) || (forUpdate ? 'none' : undefined);
  return {
    name: text('name'),
    'notification-url': optional('notification-url'),
    'payment-mode': text('payment-mode'),
    'ip-allowlist': optional('ip-allowlist'),
    refunds: text('refunds'),
    'callback-fields': list('callback-fields'),
    'return-params': list('return-params'),
    'required-fields': list('required-fields'),
    'link-target': text('link-target') || 'none',
    'card-on-file': text('card-on-file'),
    connectors: text('connectors') || undefined,
    methods: text('methods') || undefined,
  };
}

function formPage(
  ctx: Koa.Context,
  session: DashboardSession,
  deps: DashboardDeps,
  merchant: MerchantRecord | null,
  values: MerchantSettingsInput,
  problems: Problems,
  saved = false,
  status = 200,
): void {
  const v = (name: MerchantSettingName) => values[name] ?? '';
  const listed = (name: MerchantSettingName) => (v(name) === 'none' ? [] : v(name).split(',').filter(Boolean));
  const form = `<form method="post" action="${merchant ? `/dashboard/merchants/${esc(merchant.merchantId)}` : '/dashboard/merchants'}" class="card" novalidate>
${csrfInput(session)}
${input({ label: LABELS.name, name: 'name', value: v('name'), required: true, error: problems.name })}
${input({ label: LABELS['notification-url'], name: 'notification-url', type: 'url', value: v('notification-url') === 'none' ? '' : v('notification-url'), hint: 'Default callback URL; empty for none.', error: problems['notification-url'] })}
${select({ label: LABELS['payment-mode'], name: 'payment-mode', value: v('payment-mode') || 'SMS/DMS', options: PAYMENT_MODES.map((m): [string, string] => [m, m]), error: problems['payment-mode'] })}
${input({ label: LABELS['ip-allowlist'], name: 'ip-allowlist', value: v('ip-allowlist') === 'none' ? '' : v('ip-allowlist'), hint: 'Addresses or CIDR blocks allowed to call the API, separated by commas; empty allows any.', error: problems['ip-allowlist'] })}
${select({ label: LABELS.refunds, name: 'refunds', value: v('refunds') || 'on', options: ON_OFF, error: problems.refunds })}
${select({ label: LABELS['card-on-file'], name: 'card-on-file', value: v('card-on-file') || 'off', options: ON_OFF, hint: "A chain's first payment asks the acquirer for a card-on-file reference.", error: problems['card-on-file'] })}
${select({ label: LABELS['link-target'], name: 'link-target', value: v('link-target') || 'none', options: [['none', "none (the session's url_target)"], ...LINK_TARGETS.map((t): [string, string] => [t, t])], error: problems['link-target'] })}
${input({ label: LABELS.connectors, name: 'connectors', value: v('connectors'), hint: `In routing order, separated by commas; this deployment has ${deps.connectorNames.join(', ')}. ${merchant ? 'Empty: unchanged.' : 'Empty: the sandbox.'}`, error: problems.connectors })}
${input({ label: LABELS.methods, name: 'methods', value: v('methods'), hint: `all, none, or method names separated by commas (S2S APM brands and Checkout methods). ${merchant ? 'Empty: unchanged.' : `Empty: ${deps.environment === 'sandbox' ? 'all in the sandbox' : 'none in production'}.`}`, error: problems.methods })}
<h2>Protocol Mapping</h2>
${checkboxes({ legend: LABELS['callback-fields'], name: 'callback-fields', options: CALLBACK_FIELD_SWITCHES, checked: listed('callback-fields'), hint: 'Optional fields added to callbacks and status responses.', error: problems['callback-fields'] })}
${checkboxes({ legend: LABELS['return-params'], name: 'return-params', options: RETURN_PARAMETERS, checked: listed('return-params'), error: problems['return-params'] })}
${checkboxes({ legend: LABELS['required-fields'], name: 'required-fields', options: REQUIRABLE_SALE_FIELDS, checked: listed('required-fields'), error: problems['required-fields'] })}
<div class="actions"><button type="submit">${merchant ? 'Save settings' : 'Create merchant'}</button><a class="button secondary" href="/dashboard/merchants">Cancel</a></div>
</form>`;
  const facts = merchant
    ? `<section class="card" aria-labelledby="h-keys"><h2 id="h-keys">Keys</h2>${details([
        ['Merchant id', code(merchant.merchantId)],
        ['Environment', esc(merchant.environment)],
        ['Client key (S2S)', code(merchant.clientKey)],
        ['Merchant key (Checkout)', code(merchant.merchantKey)],
        ['Password', '<span class="muted">shown once, when the merchant was created (CLI: merchant show --show-password)</span>'],
        ['Registered', time(merchant.registeredAt)],
        ['Settings changed', time(merchant.updatedAt)],
      ])}<p>${link(`/dashboard/payments?merchant=${merchant.merchantId}`, "This merchant's payments")} · ${link(`/dashboard/callbacks?show=all&merchant=${merchant.merchantId}`, 'Its callbacks')} · ${link(walletSettingsPath(merchant.merchantId), 'Its wallet settings (Apple Pay, Google Pay)')}</p></section>
<h2>Settings</h2>`
    : '';
  const anyProblem = Object.keys(problems).length > 0;
  html(
    ctx,
    layout({
      title: merchant ? merchant.name : 'New merchant',
      section: 'merchants',
      environment: deps.environment,
      session,
      flash: anyProblem ? { kind: 'error', text: 'Some settings need fixing; nothing was saved.' } : saved ? { kind: 'ok', text: 'Settings saved.' } : null,
      main: `${facts}${form}`,
    }),
    status,
  );
}

/** Refusals of the merchant service (what needs the deployment), as field problems. */
function serviceProblems(error: unknown): Problems | null {
  if (error instanceof NotificationUrlRefusedError) return { 'notification-url': `${LABELS['notification-url']} is refused: ${error.reason}` };
  if (error instanceof UnknownConnectorError) return { connectors: `${LABELS.connectors}: ${error.message}` };
  if (error instanceof UnknownMethodError) return { methods: `${LABELS.methods}: ${error.message}` };
  return null;
}

async function create(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const values = postedInput(ctx, false);
  const parsed = parseMerchantSettings(values, { forUpdate: false });
  if (!parsed.ok) return formPage(ctx, session, deps, null, values, problemsOf(parsed.problems), false, 400);
  const registration = registrationOf(parsed.value);
  if (!registration) return formPage(ctx, session, deps, null, values, { name: `${LABELS.name} must not be empty.` }, false, 400);
  let created;
  try {
    created = await deps.merchants.register(registration);
  } catch (error) {
    const problems = serviceProblems(error);
    if (!problems) throw error;
    return formPage(ctx, session, deps, null, values, problems, false, 400);
  }
  html(
    ctx,
    layout({
      title: `Merchant ${created.name} created`,
      section: 'merchants',
      environment: deps.environment,
      session,
      flash: { kind: 'ok', text: 'Merchant created. Copy the password now: it is shown this once.' },
      main: `<section class="card" aria-labelledby="h-credentials"><h2 id="h-credentials">Credentials</h2>${details([
        ['Merchant id', code(created.merchant_id)],
        ['Client key (S2S)', code(created.client_key)],
        ['Merchant key (Checkout)', code(created.merchant_key)],
        ['Password', `<span class="secret" data-password>${esc(created.password)}</span>`],
        ['Payment mode', esc(created.payment_mode)],
        ['Connectors', esc(created.connectors.join(', '))],
        ['Status', badge('active')],
      ])}
<p>The password signs the merchant's requests and callbacks. This page is not stored anywhere; reloading it will not show the password again.</p>
<p>${link(`/dashboard/merchants/${created.merchant_id}`, 'Go to the merchant')}</p></section>`,
    }),
  );
}

async function update(ctx: Koa.Context, session: DashboardSession, deps: DashboardDeps): Promise<void> {
  const merchant = await merchantOf(ctx, deps);
  if (!merchant) return notFoundPage(ctx, session, deps.environment, `No merchant ${String(ctx.params.id)}.`);
  const values = postedInput(ctx, true);
  const parsed = parseMerchantSettings(values, { forUpdate: true });
  if (!parsed.ok) return formPage(ctx, session, deps, merchant, values, problemsOf(parsed.problems), false, 400);
  const changes = { ...parsed.value.settings };
  if (parsed.value.mapping) changes.protocolMapping = withMappingChanges(merchant.protocolMapping ?? noProtocolMapping(), parsed.value.mapping);
  try {
    await deps.merchants.update(merchant.merchantId, changes);
  } catch (error) {
    const problems = serviceProblems(error);
    if (!problems) throw error;
    return formPage(ctx, session, deps, merchant, values, problems, false, 400);
  }
  await deps.catchUp();
  seeOther(ctx, `/dashboard/merchants/${merchant.merchantId}?done=saved`);
}
