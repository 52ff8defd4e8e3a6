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
