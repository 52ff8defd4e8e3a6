/**
 * `npm run gateway -- <command>`: operator commands and the separate process roles.
 *
 *   merchant create --name N [--notification-url U] [--payment-mode SMS|DMS|SMS/DMS]
 *                   [--ip-allowlist CIDR,...] [--refunds on|off]
 *                   [--callback-fields SWITCH,...|all|none] [--return-params payment_method,brand|none]
 *                   [--required-fields payer_address,payer_country,payer_city,payer_zip|all|none]
 *                   [--link-target _blank|_self|_parent|_top|none] [--card-on-file on|off] [--json]
 *   merchant list [--json]
 *   merchant show <merchant_id> [--show-password] [--json]
 *   merchant update <merchant_id> [--name N] [--notification-url U|none] [--payment-mode M]
 *                   [--ip-allowlist CIDR,...|none] [--refunds on|off]
 *                   [--callback-fields SWITCH,...|all|none] [--return-params payment_method,brand|none]
 *                   [--required-fields FIELD,...|all|none] [--link-target _blank|_self|_parent|_top|none]
 *                   [--card-on-file on|off]
 *                                  Protocol Mapping: optional callback/status fields, return URL
 *                                  parameters, SALE address fields made required
 *   sign sale --password P (--card PAN | --card-token T) [--email E]
 *   sign trans|order --password P --value TRANS_ID|ORDER_ID
 *   sign checkout --password P FIELD... (e.g. order number, amount, currency, description)
 *                                  compute a request hash, e.g. for a first payment with curl
 *   admin-token                    print the bearer token of the /admin API
 *   callbacks list [--payment ID] [--merchant ID] [--failed] [--limit N] [--json]
 *   callbacks show <delivery_id> [--json]
 *   callbacks redeliver <delivery_id>
 *                                  merchant callbacks: what was sent, each attempt, send again
 *   seed --events N [--merchants M] [--json]
 *                                  write realistic payment histories straight into the event store
 *   projections rebuild|verify [name...] [--json]
 *                                  replay read models into fresh tables and swap them in, or diff them
 *   history <trans_id> [--as-of <ISO timestamp|version>] [--json]
 *                                  every event of a payment, and its state as of a point
 *   ledger balances [--merchant ID] [--currency C] [--as-of ISO] [--json]
 *                                  ledger balance per merchant, currency and account
 *   audit verify|checkpoint [--json]
 *                                  check the event log's hash chains and checkpoints (exit 1 when
 *                                  broken), or record a checkpoint now
 *   chain <payment_id> [--json]     a scheduled chain: every due date and what became of it
 *   clock show | clock advance <30d|12h|90m|2w|...> [--json]
 *                                  sandbox test clock: move the gateway's now forward, the scheduler
 *                                  making every automatic payment due on the way, in order
 *   api | projector | notifier | scheduler | all
 *                                  run one process role (all = what npm start runs)
 */
import { ConfigError, loadConfig } from '../config';
import type { Gateway } from '../composition';
import { auditCommand } from './audit-command';
import { callbacksCommand } from './callbacks-command';
import { historyCommand } from './history-command';
import { ledgerCommand } from './ledger-command';
import { projectionsCommand } from './projections-command';
import { seedCommand } from './seed-command';
import { clockCommand } from './clock-command';
import { chainCommand } from './chain-command';
import { UsageError, flag, parseArgs, print, withGateway, type Parsed } from './args';
import { main } from '../main';
import { createFilesOwnerOnly } from '../adapters/files/private-data-dir';
import { NotificationUrlRefusedError } from '../application/merchant-service';
import { parseCidr } from '../domain/merchant/ip-allowlist';
import type { MerchantSettings, PaymentMode } from '../domain/merchant/events';
import { LINK_TARGETS, type LinkTarget } from '../domain/checkout/session-events';
import {
  CALLBACK_FIELD_SWITCHES,
  RETURN_PARAMETERS,
  REQUIRABLE_SALE_FIELDS,
  ProtocolMappingError,
  parseSwitchList,
  protocolMapping,
  type ProtocolMapping,
} from '../domain/merchant/protocol-mapping';
import { isHttpUrl } from '../api/validation';
import { decryptSecret } from '../adapters/vault/secret-box';
import { loadOrCreateVaultKey } from '../adapters/vault/card-vault';
import path from 'node:path';
import { checkoutHash, orderIdHash, saleCardHash, saleTokenHash, transIdHash } from '../domain/signatures';

const MODES: PaymentMode[] = ['SMS', 'DMS', 'SMS/DMS'];

/** Override Link Target: one of the targets, or `none` to leave the session's `url_target` in charge. */
function linkTargetFlag(p: Parsed): LinkTarget | null | undefined {
  const text = flag(p, 'link-target');
  if (text === undefined) return undefined;
  if (text === 'none') return null;
  if (!(LINK_TARGETS as readonly string[]).includes(text)) throw new UsageError(`--link-target must be one of ${LINK_TARGETS.join(', ')} or none`);
  return text as LinkTarget;
}

function settingsFrom(p: Parsed, forUpdate: boolean): Partial<MerchantSettings> {
  const out: Partial<MerchantSettings> = {};
  const name = flag(p, 'name');
  if (name !== undefined) {
    if (!name.trim()) throw new UsageError('--name must not be empty');
    out.name = name.trim();
  }
  const url = flag(p, 'notification-url');
  if (url !== undefined) {
    if (forUpdate && url === 'none') out.notificationUrl = null;
    else if (!isHttpUrl(url)) throw new UsageError(`--notification-url must be an http(s) URL (got "${url}")`);
    else out.notificationUrl = url;
  }
  const mode = flag(p, 'payment-mode');
  if (mode !== undefined) {
    if (!(MODES as string[]).includes(mode)) throw new UsageError(`--payment-mode must be one of ${MODES.join(', ')}`);
    out.paymentMode = mode as PaymentMode;
  }
  const allow = flag(p, 'ip-allowlist');
  if (allow !== undefined) {
    const entries = allow === 'none' ? [] : allow.split(',').map((s) => s.trim()).filter(Boolean);
    for (const entry of entries) {
      if (!parseCidr(entry)) throw new UsageError(`--ip-allowlist: "${entry}" is not an IP address or CIDR block`);
    }
    out.ipAllowlist = entries;
  }
  const refunds = flag(p, 'refunds');
  if (refunds !== undefined) {
    if (refunds !== 'on' && refunds !== 'off') throw new UsageError('--refunds must be on or off');
    out.refundsEnabled = refunds === 'on';
  }
  const linkTarget = linkTargetFlag(p);
  if (linkTarget !== undefined) out.overrideLinkTarget = linkTarget;
  const cardOnFile = flag(p, 'card-on-file');
  if (cardOnFile !== undefined) {
    if (cardOnFile !== 'on' && cardOnFile !== 'off') throw new UsageError('--card-on-file must be on or off');
    out.cardOnFileSupport = cardOnFile === 'on';
  }
  return out;
}

/** The Protocol Mapping flags given, each validated; absent flags stay undefined. */
function mappingFlags(p: Parsed): { fields?: string[]; returnParameters?: string[]; requiredFields?: string[] } | undefined {
  const parse = <T extends string>(name: string, all: readonly T[], key: 'fields' | 'returnParameters' | 'requiredFields') => {
    const text = flag(p, name);
    if (text === undefined) return undefined;
    const chosen = parseSwitchList(text, all);
    try {
      protocolMapping({ [key]: chosen });
    } catch (error) {
      if (error instanceof ProtocolMappingError) throw new UsageError(`--${name}: ${error.message}`);
      throw error;
    }
    return chosen;
  };
  const fields = parse('callback-fields', CALLBACK_FIELD_SWITCHES, 'fields');
  const returnParameters = parse('return-params', RETURN_PARAMETERS, 'returnParameters');
  const requiredFields = parse('required-fields', REQUIRABLE_SALE_FIELDS, 'requiredFields');
  if (fields === undefined && returnParameters === undefined && requiredFields === undefined) return undefined;
  return { fields, returnParameters, requiredFields };
}

/** The merchant's mapping with the given flags applied; a flag not given keeps its current value. */
function withMappingFlags(
  current: ProtocolMapping,
  flags: { fields?: string[]; returnParameters?: string[]; requiredFields?: string[] },
): ProtocolMapping {
  return protocolMapping({
    fields: flags.fields ?? current.fields,
    returnParameters: flags.returnParameters ?? current.returnParameters,
    requiredFields: flags.requiredFields ?? current.requiredFields,
  });
}

function publicMerchant(m: Awaited<ReturnType<Gateway['merchants']['list']>>[number]) {
  return {
    merchant_id: m.merchantId,
    name: m.name,
    environment: m.environment,
    client_key: m.clientKey,
    merchant_key: m.merchantKey,
    payment_mode: m.paymentMode,
    notification_url: m.notificationUrl,
    ip_allowlist: m.ipAllowlist,
    refunds_enabled: m.refundsEnabled,
    callback_fields: m.protocolMapping.fields,
    return_params: m.protocolMapping.returnParameters,
    required_fields: m.protocolMapping.requiredFields,
    override_link_target: m.overrideLinkTarget ?? null,
    card_on_file_support: m.cardOnFileSupport === true,
    registered_at: m.registeredAt,
    updated_at: m.updatedAt,
  };
}

async function merchantCommand(p: Parsed): Promise<void> {
  const sub = p.positional[1];
  const json = p.flags.get('json') === true;
  switch (sub) {
    case 'create': {
      const settings = settingsFrom(p, false);
      if (!settings.name) throw new UsageError('merchant create needs --name');
      const mapping = mappingFlags(p);
      const created = await withGateway((g) =>
        g.merchants.register({
          name: settings.name!,
          paymentMode: settings.paymentMode,
          notificationUrl: settings.notificationUrl,
          ipAllowlist: settings.ipAllowlist,
          refundsEnabled: settings.refundsEnabled,
          protocolMapping: mapping,
          overrideLinkTarget: settings.overrideLinkTarget,
          cardOnFileSupport: settings.cardOnFileSupport,
        }),
      );
      print(created, json, () =>
        Object.entries(created)
          .map(([k, v]) => `${k.padEnd(20)} ${Array.isArray(v) ? v.join(',') : String(v)}`)
          .join('\n'),
      );
      return;
    }
    case 'list': {
      const list = (await withGateway((g) => g.merchants.list())).map(publicMerchant);
      print(list, json, () =>
        list.length === 0
          ? 'No merchants yet. Create one with: npm run gateway -- merchant create --name "My shop"'
          : list.map((m) => `${m.merchant_id}  ${m.payment_mode.padEnd(7)}  ${m.client_key}  ${m.name}`).join('\n'),
      );
      return;
    }
    case 'show': {
      const id = p.positional[2];
      if (!id) throw new UsageError('merchant show needs a merchant id');
      const found = await withGateway((g) => g.merchants.byId(id));
      if (!found) throw new UsageError(`No merchant ${id}`);
      const out: Record<string, unknown> = publicMerchant(found);
      if (p.flags.get('show-password') === true) {
        const config = loadConfig();
        const key = loadOrCreateVaultKey({ keyHex: config.vaultKeyHex ?? undefined, keyFile: path.join(config.dataDir, 'vault.key') });
        out.password = decryptSecret(key, found.passwordCiphertext, 'merchant-password');
      }
      print(out, json, () =>
        Object.entries(out)
          .map(([k, v]) => `${k.padEnd(20)} ${Array.isArray(v) ? v.join(',') : String(v)}`)
          .join('\n'),
      );
      return;
    }
    case 'update': {
      const id = p.positional[2];
      if (!id) throw new UsageError('merchant update needs a merchant id');
      const changes = settingsFrom(p, true);
      const mapping = mappingFlags(p);
      if (Object.keys(changes).length === 0 && !mapping) throw new UsageError('merchant update: nothing to change');
      const updated = await withGateway(async (g) => {
        const current = await g.merchants.requireById(id);
        if (mapping) changes.protocolMapping = withMappingFlags(current.protocolMapping, mapping);
        await g.merchants.update(id, changes);
        await g.projector!.catchUp();
        return g.merchants.byId(id);
      });
      print(publicMerchant(updated!), json, () => `Merchant ${id} updated.`);
      return;
    }
    default:
      throw new UsageError('usage: merchant create|list|show|update ...');
  }
}

function signCommand(p: Parsed): void {
  const password = flag(p, 'password');
  if (!password) throw new UsageError('sign needs --password');
  const email = flag(p, 'email');
  switch (p.positional[1]) {
    case 'sale': {
      const card = flag(p, 'card');
      const token = flag(p, 'card-token');
      if (card) process.stdout.write(`${saleCardHash({ payerEmail: email, password, cardNumber: card })}\n`);
      else if (token) process.stdout.write(`${saleTokenHash({ payerEmail: email, password, cardToken: token })}\n`);
      else throw new UsageError('sign sale needs --card or --card-token');
      return;
    }
    case 'trans':
    case 'order': {
      const value = flag(p, 'value');
      if (!value) throw new UsageError(`sign ${p.positional[1]} needs --value`);
      process.stdout.write(`${p.positional[1] === 'trans' ? transIdHash(value, password) : orderIdHash(value, password)}\n`);
      return;
    }
    case 'checkout': {
      // Checkout hashes concatenate their fields in order (spec Authentication; decisions.md §1).
      const parts = p.positional.slice(2);
      if (parts.length === 0) throw new UsageError('sign checkout needs the hash input fields, in order');
      process.stdout.write(`${checkoutHash(parts, password)}\n`);
      return;
    }
    default:
      throw new UsageError('usage: sign sale|trans|order|checkout --password P ...');
  }
}

export async function run(argv: string[]): Promise<number> {
  const p = parseArgs(argv);
  try {
    switch (p.positional[0]) {
      case 'sign':
        signCommand(p);
        return 0;
      case 'merchant':
        await merchantCommand(p);
        return 0;
      case 'callbacks':
        return await callbacksCommand(p);
      case 'seed':
        await seedCommand(p);
        return 0;
      case 'projections':
        return await projectionsCommand(p);
      case 'history':
        return await historyCommand(p);
      case 'ledger':
        return await ledgerCommand(p);
      case 'audit':
        return await auditCommand(p);
      case 'admin-token':
        process.stdout.write(`${await withGateway(async (g) => g.adminToken)}\n`);
        return 0;
      case 'clock':
        return await clockCommand(p);
      case 'chain':
        return await chainCommand(p);
      case 'api':
      case 'projector':
      case 'notifier':
      case 'scheduler':
      case 'all':
        await main(p.positional[0]);
        return -1; // keeps running
      default:
        throw new UsageError(
          'usage: npm run gateway -- merchant create|list|show|update ... | sign ... | callbacks ... | seed ... | projections ... | history ... | ledger balances ... | audit verify|checkpoint | chain ... | clock show|advance ... | admin-token | api | projector | notifier | scheduler | all',
        );
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof NotificationUrlRefusedError) {
      process.stderr.write(
        `--notification-url ${error.url}: ${error.reason} This gateway sends callbacks to public addresses only: ` +
          'loopback, private, link-local and other non-public ranges are refused in every spelling ' +
          '(CALLBACK_ALLOW_PRIVATE_NETWORKS=true lifts this).\n',
      );
      return 2;
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (require.main === module) {
  // Before any command opens a store: whatever it creates in the data directory is the owner's alone.
  createFilesOwnerOnly();
  run(process.argv.slice(2)).then((code) => {
    if (code >= 0) process.exit(code);
  });
}
