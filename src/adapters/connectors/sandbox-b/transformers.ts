/** The second sandbox acquirer's wire: its transaction references, `sbb_<scenario>_<random>`. */
import { randomBytes, randomInt } from 'node:crypto';
import { SANDBOX_B_SCENARIOS, type SandboxBScenario } from './scenarios';

const KNOWN = new Set<string>([...Object.values(SANDBOX_B_SCENARIOS), 'success']);

export const newReference = (scenario: SandboxBScenario): string => `sbb_${scenario}_${randomBytes(8).toString('hex')}`;

export function scenarioOfReference(reference: string): SandboxBScenario | null {
  const m = /^sbb_([a-z_]+)_[0-9a-f]{16}$/.exec(reference);
  return m && KNOWN.has(m[1]!) ? (m[1] as SandboxBScenario) : null;
}

export const authCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');
export const rrn = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0') + String(randomInt(0, 1_000_000)).padStart(6, '0');
