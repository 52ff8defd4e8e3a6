import { ConfigError, loadConfig, type GatewayConfig } from './config';
import { runGateway, StartRefusedError, type Role, type RunningGateway } from './server';
import { VaultError } from './adapters/vault/vault-record';
import { createFilesOwnerOnly } from './adapters/files/private-data-dir';
import { BrokenLogError } from './application/audit/start-check';
import { describeBroken } from './application/audit/verifier';
import { SandboxClock } from './application/clock/sandbox-clock';
import { formatClockOffset } from './domain/clock/sandbox-clock-events';

/** Exit code of a start refused because the event log failed verification. */
export const EXIT_BROKEN_LOG = 3;

/**
 * `--allow-broken-log` (or ALLOW_BROKEN_LOG=true) starts a gateway on a log that fails
 * verification, for forensics: it logs the break and says so in its banner.
 */
export function allowBrokenLogRequested(argv: string[] = process.argv, env: NodeJS.ProcessEnv = process.env): boolean {
  return argv.includes('--allow-broken-log') || env.ALLOW_BROKEN_LOG === 'true';
}

export async function main(role: Role = 'all'): Promise<void> {
  const config = configOrExit();
  const running = await runOrExit(config, role);
  process.stdout.write(`${banner(config, role, running).join('\n')}\n`);
  stopOnSignals(running);
}

function configOrExit(): GatewayConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

/** Runs the gateway, or exits with what the operator must do when the start is refused. */
async function runOrExit(config: GatewayConfig, role: Role): Promise<RunningGateway> {
  try {
    return await runGateway(config, role, { allowBrokenLog: allowBrokenLogRequested() });
  } catch (error) {
    if (error instanceof BrokenLogError) {
      console.error(
        [
          `Refusing to start: ${error.message}`,
          '  Recent events of the log no longer match their hash chains or the newest audit checkpoint.',
          '  See the whole report with: npm run gateway -- audit verify',
          '  To start anyway for forensics (nothing else is changed): npm start -- --allow-broken-log',
        ].join('\n'),
      );
      process.exit(EXIT_BROKEN_LOG);
    }
    if (error instanceof StartRefusedError) {
      console.error(error.message);
      process.exit(2);
    }
    if (error instanceof VaultError) {
      console.error(`Cannot start: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

/** The lines printed once the gateway runs: where it listens, its clock, a broken log, a new demo merchant. */
function banner(config: GatewayConfig, role: Role, running: RunningGateway): string[] {
  const lines = [
    `Payment gateway (${config.environment}, role ${role}, event store ${config.eventStore})`,
    running.server ? `  listening on ${running.baseUrl}  (S2S CARD: POST ${running.baseUrl}/post)` : '  no HTTP listener in this role',
    `  data directory: ${config.dataDir}`,
  ];
  const clock = running.gateway.clock;
  if (clock instanceof SandboxClock) {
    lines.push(
      clock.offsetMs > 0
        ? `  sandbox clock: +${formatClockOffset(clock.offsetMs)} ahead of real time (npm run gateway -- clock reset)`
        : '  sandbox clock: real time (npm run gateway -- clock advance 30d moves it)',
    );
  }
  if (!running.logCheck.ok) {
    lines.push(`  WARNING: started with --allow-broken-log on an event log that failed verification: ${describeBroken(running.logCheck.broken!)}`);
  }
  if (running.demoMerchant) {
    const m = running.demoMerchant;
    lines.push(
      '',
      `  A demo merchant was created (also saved to ${config.dataDir}/demo-merchant.json):`,
      `    merchant_id  ${m.merchant_id}`,
      `    client_key   ${m.client_key}`,
      `    merchant_key ${m.merchant_key}`,
      `    password     ${m.password}`,
      '',
      '  Try a sale: see README.md, "First payment with curl".',
    );
  }
  return lines;
}

function stopOnSignals(running: RunningGateway): void {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.gateway.logger.info('shutting down', { signal });
    running
      .stop()
      .then(() => process.exit(0))
      .catch((error) => {
        console.error(error);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** What `node dist/src/main.js` does (the launcher calls it too): the whole gateway until a signal stops it. */
export function start(): void {
  createFilesOwnerOnly();
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

if (require.main === module) start();
