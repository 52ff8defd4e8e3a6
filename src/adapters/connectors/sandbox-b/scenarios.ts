/**
 * What the second sandbox acquirer decides, by the card's expiry date. It differs from the built-in
 * sandbox on purpose, so routing and cascading between two acquirers can be tried for real: it
 * never challenges, it declines some cards softly (another acquirer may take them), and it takes
 * no authorizations, zero amounts, chains, payouts or refunds through the API.
 */
export type SandboxBScenario = 'success' | 'declined' | 'issuer_unavailable' | 'limit_exceeded';

export const SANDBOX_B_SCENARIOS: Readonly<Record<string, SandboxBScenario>> = {
  '02/2038': 'declined',
  '04/2038': 'issuer_unavailable',
  '07/2038': 'limit_exceeded',
};

export const SANDBOX_B_DECLINE_REASONS = {
  declined: 'Do not honour',
  issuer_unavailable: 'Issuer unavailable',
  limit_exceeded: 'Acquirer limit exceeded',
} as const;

/** Soft declines: the issuer or the acquirer could not decide now; another acquirer may. */
export const SOFT: ReadonlySet<SandboxBScenario> = new Set(['issuer_unavailable', 'limit_exceeded']);

export const SANDBOX_B_DESCRIPTOR = 'SANDBOX-B*GATEWAY';

export function scenarioOf(card: { expMonth: string; expYear: string }): SandboxBScenario {
  const key = `${card.expMonth.padStart(2, '0')}/${card.expYear}`;
  return Object.prototype.hasOwnProperty.call(SANDBOX_B_SCENARIOS, key) ? SANDBOX_B_SCENARIOS[key]! : 'success';
}
