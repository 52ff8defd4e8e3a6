/**
 * Sandbox and production are separate deployments with separate credentials. Keys carry their
 * environment in a prefix, so a deployment recognises a key of the other one and can say so
 * (`220002 Use merchant test key.`) instead of a misleading "not found".
 */
import type { Environment } from './events';

export const KEY_PREFIX: Record<Environment, string> = { sandbox: 'test_', production: 'live_' };

export function keyEnvironment(key: string): Environment | null {
  if (key.startsWith(KEY_PREFIX.sandbox)) return 'sandbox';
  if (key.startsWith(KEY_PREFIX.production)) return 'production';
  return null;
}
