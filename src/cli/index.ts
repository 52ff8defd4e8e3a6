/**
 * `npm run gateway -- <command>`: operator commands and the separate process roles.
 *
 * Each command's usage text sits beside its code (`<name>Help`, in its `*-command.ts`), and both
 * `<command> --help` and its usage errors print it; `npm run gateway -- help` lists every command.
 */
import { ConfigError } from '../config';
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
import { merchantCommand } from './merchant-command';
import { merchantHelp } from './merchant-help';
import { commandList, helpRequested, helpText, refuseUnknownFlags, type CommandHelp } from './help';
import { UsageError, parseArgs, withGateway, type Parsed } from './args';
import type { Role } from '../server';
import { createFilesOwnerOnly } from '../adapters/files/private-data-dir';
import { NotificationUrlRefusedError, UnknownConnectorError, UnknownMethodError } from '../application/merchant-service';

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

/** `help [<command> [<subcommand>]]`: the list of commands, or one command's usage. */
function helpCommand(p: Parsed): number {
  const asked = COMMANDS.find((c) => c.name === p.positional[1]);
  if (p.positional[1] !== undefined && !asked) throw new UsageError(`Unknown command: ${p.positional[1]}\n\n${commandList(COMMANDS)}`);
  process.stdout.write(`${asked ? helpText(asked, p.positional[2]) : commandList(COMMANDS)}\n`);
  return 0;
}

/** A command that prints what it has to say and succeeds, or throws. */
const succeeds =
  (command: (p: Parsed) => Promise<void>) =>
  async (p: Parsed): Promise<number> => {
    await command(p);
    return 0;
  };

/** What each command runs, giving its exit code. The roles are not here: they run the server. */
const RUNNERS: Readonly<Record<string, (p: Parsed) => number | Promise<number>>> = {
  help: helpCommand,
  sign: signCommand,
  merchant: succeeds(merchantCommand),
  callbacks: callbacksCommand,
  seed: succeeds(seedCommand),
  projections: projectionsCommand,
  history: historyCommand,
  ledger: ledgerCommand,
  payouts: payoutsCommand,
  audit: auditCommand,
  export: exportCommand,
  'admin-token': succeeds(async () => {
    process.stdout.write(`${await withGateway(async (g) => g.adminToken)}\n`);
  }),
  clock: clockCommand,
  sandbox: sandboxCommand,
  chain: chainCommand,
  wallet: walletCommand,
};

/** The exit code of a command that threw, its message told on stderr: 2 for a mistake in the command line or configuration. */
function failed(error: unknown): number {
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
    const runner = Object.hasOwn(RUNNERS, command) ? RUNNERS[command] : undefined;
    if (runner) return await runner(p);
    // Loaded for the roles only: the other commands need none of the server.
    const { main } = await import('../main');
    await main(command as Role);
    return -1; // keeps running
  } catch (error) {
    return failed(error);
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
