/**
 * Usage text of the CLI. Each command keeps its text beside its code (`<name>Help` in its
 * `*-command.ts`), and both `--help` and the usage errors print that same text, so they cannot
 * disagree.
 */
import { UsageError, type Parsed } from './args';

export interface CommandHelp {
  /** The word typed after `npm run gateway --`. */
  name: string;
  /** One line, for the command list of `help`. */
  summary: string;
  /** What `<name> --help` prints: synopsis lines, then flags. */
  usage: string;
  /** What `<name> <subcommand> --help` prints, when a subcommand has more to say than `usage`. */
  subcommands?: Readonly<Record<string, string>>;
}

/** `--help` or `-h` anywhere on the line. */
export function helpRequested(p: Parsed): boolean {
  return p.flags.has('help') || p.positional.includes('-h');
}

/** The text for `<command> [<subcommand>] --help`. */
export function helpText(command: CommandHelp, subcommand?: string): string {
  const sub = subcommand === undefined ? undefined : command.subcommands?.[subcommand];
  return (sub ?? command.usage).replace(/\n+$/, '');
}

/**
 * The flags a command (or its subcommand) takes: those its usage text names, so that what `--help`
 * shows and what the command accepts are one list. `--help` goes with every command.
 */
export function declaredFlags(command: CommandHelp, subcommand?: string): string[] {
  const text = (subcommand !== undefined && command.subcommands?.[subcommand]) || command.usage;
  return [...new Set(['help', ...[...text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => m[1])])];
}

/** The subcommand `p` names, when the command has usage of its own for it. */
function subcommandOf(command: CommandHelp, p: Parsed): string | undefined {
  const word = p.positional[1];
  return word !== undefined && command.subcommands?.[word] !== undefined ? word : undefined;
}

/** Edit distance (insertions, deletions, substitutions, swaps of neighbours). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * npm's own settings, which every `npm run` puts in the environment of the script as npm_config_<name>
 * whatever its command line: never read as a flag npm took from the CLI's.
 */
const NPM_OWN_SETTINGS = new Set([
  'allow_scripts', 'audit', 'cache', 'cafile', 'fund', 'global_prefix', 'globalconfig', 'init_module', 'local_prefix', 'loglevel',
  'node_gyp', 'nodedir', 'noproxy', 'npm_version', 'omit_lockfile_registry_resolved', 'prefix', 'update_notifier', 'user_agent',
  'userconfig', 'yes',
]);

/**
 * Refuses, as a usage error naming it, a flag the command does not take (with the nearest one it
 * does, when one is near). And when run by npm without `--` before the flags, npm keeps those flags
 * as its own settings (npm_config_<flag> in the environment) and the command would run without them:
 * that is refused too, saying where the `--` goes.
 */
export function refuseUnknownFlags(command: CommandHelp, p: Parsed, env: NodeJS.ProcessEnv = process.env): void {
  const subcommand = subcommandOf(command, p);
  const declared = declaredFlags(command, subcommand);
  const what = subcommand ? `${command.name} ${subcommand}` : command.name;
  if (env.npm_lifecycle_event) {
    const takenByNpm = declared.filter((name) => {
      const variable = name.replace(/-/g, '_');
      return name !== 'help' && !NPM_OWN_SETTINGS.has(variable) && env[`npm_config_${variable}`] !== undefined && !p.flags.has(name);
    });
    if (takenByNpm.length > 0) {
      const flags = takenByNpm.map((name) => (env[`npm_config_${name.replace(/-/g, '_')}`] === 'true' ? `--${name}` : `--${name} ${env[`npm_config_${name.replace(/-/g, '_')}`]}`));
      throw new UsageError(
        `npm kept ${takenByNpm.map((name) => `--${name}`).join(', ')} for itself: put -- before the flags: npm run gateway -- ${what} ${flags.join(' ')}`,
      );
    }
  }
  for (const name of p.flags.keys()) {
    if (declared.includes(name)) continue;
    const nearest = declared
      .map((candidate) => ({ candidate, d: distance(name, candidate) }))
      .filter(({ d }) => d <= Math.max(1, Math.floor(name.length / 3)))
      .sort((a, b) => a.d - b.d)[0];
    const takes = declared.filter((flag) => flag !== 'help');
    const hint = nearest
      ? ` Did you mean --${nearest.candidate}?`
      : takes.length > 0
        ? ` It takes: ${takes.map((flag) => `--${flag}`).join(', ')}.`
        : ' It takes none.';
    throw new UsageError(`Unknown flag --${name} for "${what}".${hint}`);
  }
}

/** A usage error that says what was wrong, then the usage of the command (or subcommand). */
export function usageError(command: CommandHelp, problem?: string, subcommand?: string): UsageError {
  const usage = helpText(command, subcommand);
  return new UsageError(problem ? `${problem}\n\n${usage}` : usage);
}

/** The command list: one command a line, each with its one-line summary. */
export function commandList(commands: readonly CommandHelp[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: npm run gateway -- <command> [<subcommand>] [flags]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'npm run gateway -- <command> --help shows a command\'s usage and flags.',
  ].join('\n');
}
