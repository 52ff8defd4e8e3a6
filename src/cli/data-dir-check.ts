/**
 * A wrong DATA_DIR must not silently become a new, empty gateway with a new vault key (which can
 * read none of the existing vault). Commands that only make sense on existing data refuse when
 * it is not there; only the commands that create a gateway from nothing (starting it, `merchant
 * create`, `seed`) may begin with an empty directory.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { GatewayConfig } from '../config';

const CREATE_HINT =
  'Start the gateway once with npm start, or create a merchant with: npm run gateway -- merchant create --name "My shop"';

/** Why this configuration has no gateway data to work on, or null when it has. */
export function missingGatewayData(config: Pick<GatewayConfig, 'dataDir' | 'eventStore' | 'vaultKeyHex'>): string | null {
  const dir = config.dataDir;
  if (config.eventStore === 'sqlite') {
    // The event log is the gateway: without it, everything else in the directory is derived or empty.
    if (existsSync(path.join(dir, 'events.db'))) return null;
    return `No gateway data in ${dir} (DATA_DIR). ${CREATE_HINT}`;
  }
  // Events live in the database; what the directory holds is the vault key, unless VAULT_KEY is set.
  if (config.vaultKeyHex || existsSync(path.join(dir, 'vault.key'))) return null;
  return (
    `No vault key: VAULT_KEY is not set and ${path.join(dir, 'vault.key')} (DATA_DIR) does not exist. ` +
    'Every process of a deployment needs the same key (a new one cannot read the existing vault): set VAULT_KEY, ' +
    `or point DATA_DIR at the directory holding vault.key. On a new deployment: ${CREATE_HINT}`
  );
}
