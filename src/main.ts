import { ConfigError, loadConfig } from './config';
import { runGateway, type Role } from './server';
import { createFilesOwnerOnly } from './adapters/files/private-data-dir';

export async function main(role: Role = 'all'): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const running = await runGateway(config, role);
  const lines = [
    `Payment gateway (${config.environment}, role ${role}, event store ${config.eventStore})`,
    running.server ? `  listening on ${running.baseUrl}  (S2S CARD: POST ${running.baseUrl}/post)` : '  no HTTP listener in this role',
    `  data directory: ${config.dataDir}`,
  ];
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
  process.stdout.write(`${lines.join('\n')}\n`);
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

if (require.main === module) {
  createFilesOwnerOnly();
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
