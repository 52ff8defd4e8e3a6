/**
 * `npm run gateway -- <command>`: operator commands and the separate process roles.
 *
 * Each command's usage text sits beside its code (`<name>Help`, in its `*-command.ts`), and both
 * `<command> --help` and its usage errors print it; `npm run gateway -- help` lists every command.
 */
import { merchantConnectors } from '../domain/merchant/connectors';
import { methodsSettingOf } from '../domain/merchant/methods';
import { ConfigError, loadConfig } from '../config';
import type { Gateway } from '../composition';
import { auditCommand, auditHelp } from './audit-command';
import { exportCommand, exportHelp } from './export-command';
import { callbacksCommand, callbacksHelp } from './callbacks-command';
import { historyCommand, historyHelp } from './history-command';
import { ledgerCommand, ledgerHelp } from './ledger-command';
import { payoutsCommand, payoutsHelp } from './payouts-command';
import { projectionsCommand, projectionsHelp } from './projections-command';
import { seedCommand, seedHelp } from './seed/seed-command';
import { clockCommand, clockHelp } from './clock-command';
import { chainCommand, chainHelp } from './chain-command';
import { signCommand, signHelp } from './sign-command';
import { sandboxCommand, sandboxHelp } from './sandbox-command';
import { walletCommand, walletHelp } from './wallet-command';
import { merchantHelp } from './merchant-help';
import { commandList, helpRequested, helpText, refuseUnknownFlags, usageError, type CommandHelp } from './help';
import { UsageError, flag, parseArgs, print, withGateway, type Parsed } from './args';
import type { Role } from '../server';
import { createFilesOwnerOnly } from '../adapters/files/private-data-dir';
import { NotificationUrlRefusedError, UnknownConnectorError, UnknownMethodError } from '../application/merchant-service';
import {
  MERCHANT_SETTINGS,
  parseMerchantSettings,
  registrationOf,
  withMappingChanges,
  type MerchantSettingsChanges,
  type MerchantSettingsInput,
} from '../application/merchant-settings-input';
import { decryptSecret } from '../adapters/vault/secret-box';
import { loadOrCreateVaultKey } from '../adapters/vault/card-vault';
import path from 'node:path';

/**
 * The settings flags given (`--payment-mode DMS` is the setting `payment-mode`), read by the parser
 * the dashboard's merchant forms use too, so both accept and refuse the same things in the same words.
 */
function settingsFlags(p: Parsed, forUpdate: boolean): MerchantSettingsChanges {
  const input: MerchantSettingsInput = {};
  for (const name of MERCHANT_SETTINGS) {
    const value = flag(p, name);
    if (value !== undefined) input[name] = value;
  }
  const parsed = parseMerchantSettings(input, { forUpdate });
  if (!parsed.ok) throw new UsageError(`--${parsed.problems[0].setting} ${parsed.problems[0].message}`);
  return parsed.value;
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
    connectors: merchantConnectors(m),
    methods: methodsSettingOf(m),
    registered_at: m.registeredAt,
    updated_at: m.updatedAt,
  };
}

async function merchantCommand(p: Parsed): Promise<void> {
  const sub = p.positional[1];
  const json = p.flags.get('json') === true;
  switch (sub) {
    case 'create': {
      const registration = registrationOf(settingsFlags(p, false));
      if (!registration) throw usageError(merchantHelp, 'merchant create needs --name', 'create');
      // The one command besides starting the gateway that may begin from an empty data directory.
      const created = await withGateway((g) => g.merchants.register(registration), { mayCreate: true });
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
      if (!id) throw usageError(merchantHelp, 'merchant show needs a merchant id', 'show');
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
      if (!id) throw usageError(merchantHelp, 'merchant update needs a merchant id', 'update');
      const { settings: changes, mapping } = settingsFlags(p, true);
      if (Object.keys(changes).length === 0 && !mapping) throw usageError(merchantHelp, 'merchant update: nothing to change', 'update');
      const updated = await withGateway(async (g) => {
        const current = await g.merchants.requireById(id);
        if (mapping) changes.protocolMapping = withMappingChanges(current.protocolMapping, mapping);
        await g.merchants.update(id, changes);
        await g.projector!.catchUp();
        return g.merchants.byId(id);
      });
      print(publicMerchant(updated!), json, () => `Merchant ${id} updated.`);
      return;
    }
    default:
      throw usageError(merchantHelp, sub ? `Unknown: merchant ${sub}` : undefined);
  }
}

const ROLE_SUMMARY: Readonly<Record<Role, string>> = {
  all: 'run everything in one process (what npm start runs)',
  api: 'run the HTTP API only (any number of these)',
  projector: 'run the read-model projector (one per deployment)',
  notifier: 'run the callback notifier (one or more)',
  scheduler: 'run the scheduler of automatic payments (one or more)',
};

const roleHelp = (role: Role): CommandHelp => ({
  name: role,
  summary: ROLE_SUMMARY[role],
  usage: [
    `usage: npm run gateway -- ${role} [--allow-broken-log]`,
    '',
    `Process role: ${ROLE_SUMMARY[role]}. Configured by the environment (README.md, Configuration).`,
    '',
    '  --allow-broken-log  start even on an event log that fails verification (forensics)',
  ].join('\n'),
});

const adminTokenHelp: CommandHelp = {
  name: 'admin-token',
  summary: 'print the bearer token of the /admin API',
  usage: 'usage: npm run gateway -- admin-token\n\nPrints the bearer token of the /admin API (ADMIN_TOKEN, else derived from the vault key).',
};

const helpHelp: CommandHelp = {
  name: 'help',
  summary: 'list the commands, or show one command\'s usage: help <command>',
  usage: 'usage: npm run gateway -- help [<command> [<subcommand>]]',
};

const ROLES: readonly Role[] = ['all', 'api', 'projector', 'notifier', 'scheduler'];

/** Every command, in the order `help` lists them. */
export const COMMANDS: readonly CommandHelp[] = [
  merchantHelp,
  signHelp,
  walletHelp,
  callbacksHelp,
  clockHelp,
  sandboxHelp,
  chainHelp,
  historyHelp,
  ledgerHelp,
  payoutsHelp,
  auditHelp,
  exportHelp,
  projectionsHelp,
  seedHelp,
  adminTokenHelp,
  ...ROLES.map(roleHelp),
  helpHelp,
];

export async function run(argv: string[]): Promise<number> {
  const p = parseArgs(argv);
  const command = p.positional[0];
  try {
    if (command === undefined) {
      process.stdout.write(`${commandList(COMMANDS)}\n`);
      return 0;
    }
    const known = COMMANDS.find((c) => c.name === command);
    if (!known) throw new UsageError(`Unknown command: ${command}\n\n${commandList(COMMANDS)}`);
    if (helpRequested(p)) {
      process.stdout.write(`${helpText(known, p.positional[1])}\n`);
      return 0;
    }
    refuseUnknownFlags(known, p);
    if (command === 'help') {
      const asked = COMMANDS.find((c) => c.name === p.positional[1]);
      if (p.positional[1] !== undefined && !asked) throw new UsageError(`Unknown command: ${p.positional[1]}\n\n${commandList(COMMANDS)}`);
      process.stdout.write(`${asked ? helpText(asked, p.positional[2]) : commandList(COMMANDS)}\n`);
      return 0;
    }
    switch (command) {
      case 'sign':
        return signCommand(p);
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
      case 'payouts':
        return await payoutsCommand(p);
      case 'audit':
        return await auditCommand(p);
      case 'export':
        return await exportCommand(p);
      case 'admin-token':
        process.stdout.write(`${await withGateway(async (g) => g.adminToken)}\n`);
        return 0;
      case 'clock':
        return await clockCommand(p);
      case 'sandbox':
        return await sandboxCommand(p);
      case 'chain':
        return await chainCommand(p);
      case 'wallet':
        return await walletCommand(p);
      default: {
        // Loaded for the roles only: the other commands need none of the server.
        const { main } = await import('../main');
        await main(command as Role);
        return -1; // keeps running
      }
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
    if (error instanceof UnknownConnectorError) {
      process.stderr.write(`--connectors: ${error.message}\n`);
      return 2;
    }
    if (error instanceof UnknownMethodError) {
      process.stderr.write(`--methods: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/** What `node dist/src/cli/index.js <args>` does (the launcher calls it too): one command, then exit. */
export function start(): void {
  // Before any command opens a store: whatever it creates in the data directory is the owner's alone.
  createFilesOwnerOnly();
  run(process.argv.slice(2)).then((code) => {
    if (code >= 0) process.exit(code);
  });
}

if (require.main === module) start();
