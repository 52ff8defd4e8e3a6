/**
 * What every CLI command shares: argument parsing, usage errors, output, and a gateway built for
 * one command (it projects what it needs itself, so it works whether or not a server is running).
 */
import type { Gateway } from '../composition';
import { loadConfig, type GatewayConfig } from '../config';
import { missingGatewayData } from './data-dir-check';

export class UsageError extends Error {}

/** Refuses, as a usage error (exit 2), a configuration without gateway data (see data-dir-check.ts). */
export function requireGatewayData(config: GatewayConfig): void {
  const missing = missingGatewayData(config);
  if (missing) throw new UsageError(missing);
}

export interface Parsed {
  positional: string[];
  flags: Map<string, string | true>;
}

export function parseArgs(argv: string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
      flags.set(arg.slice(2), argv[++i]);
    } else {
      flags.set(arg.slice(2), true);
    }
  }
  return { positional, flags };
}

export function flag(p: Parsed, name: string): string | undefined {
  const v = p.flags.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

export function print(value: unknown, json: boolean, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

/**
 * A gateway for one command. By default it first projects what it needs itself, so it works whether
 * or not a server is running; `project: false` skips that for commands that replay by themselves
 * (rebuild) or only touch the event store (seeding, history).
 *
 * It refuses (a usage error naming DATA_DIR) when there is no gateway data to work on, unless the
 * command is one that creates a gateway from nothing (`mayCreate`): a mistyped DATA_DIR must not
 * quietly become a new, empty gateway with a vault key of its own.
 */
export async function withGateway<T>(
  fn: (g: Gateway) => Promise<T>,
  options: { project?: boolean; mayCreate?: boolean } = {},
): Promise<T> {
  const config = { ...loadConfig(), logLevel: 'error' as const };
  if (!options.mayCreate) requireGatewayData(config);
  const project = options.project ?? true;
  // Loaded when a command needs it, not before: commands like `sign` and `--help` start at once.
  const { buildGateway } = await import('../composition');
  const gateway = await buildGateway(config, { withProjector: project });
  try {
    if (project) await gateway.projector!.catchUp();
    return await fn(gateway);
  } finally {
    await gateway.close();
  }
}
