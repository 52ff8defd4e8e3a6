/** What may happen to a seeded payment, and how often, out of 100. */

export type Scenario =
  | 'sale'
  | 'sale_refund'
  | 'sale_partial_refunds'
  | 'sale_void'
  | 'sale_declined'
  | 'auth_capture'
  | 'auth_partial_capture'
  | 'auth_capture_declined'
  | 'auth_reversal'
  | '3ds_settled'
  | '3ds_declined'
  | '3ds_abandoned'
  | 'redirect_settled'
  | 'redirect_declined'
  | 'outcome_unknown';

export const SCENARIOS: Array<[Scenario, number]> = [
  ['sale', 36],
  ['sale_refund', 6],
  ['sale_partial_refunds', 2],
  ['sale_void', 4],
  ['sale_declined', 10],
  ['auth_capture', 12],
  ['auth_partial_capture', 3],
  ['auth_capture_declined', 2],
  ['auth_reversal', 4],
  ['3ds_settled', 8],
  ['3ds_declined', 3],
  ['3ds_abandoned', 2],
  ['redirect_settled', 4],
  ['redirect_declined', 2],
  ['outcome_unknown', 2],
];

/** The sandbox picks the outcome by expiry (docs/reference/sandbox.md#cards-by-expiry). */
export function expiryFor(scenario: Scenario, random: () => number): { month: string; year: string } {
  switch (scenario) {
    case 'sale_declined':
      return { month: '02', year: '2038' };
    case 'auth_capture_declined':
      return { month: '03', year: '2038' };
    case '3ds_settled':
    case '3ds_abandoned':
      return { month: '05', year: '2038' };
    case '3ds_declined':
      return { month: '06', year: '2038' };
    case 'redirect_settled':
      return { month: '12', year: '2038' };
    case 'redirect_declined':
      return { month: '12', year: '2039' };
    default:
      return random() < 0.7 ? { month: '01', year: '2038' } : { month: String(1 + Math.floor(random() * 12)).padStart(2, '0'), year: '2031' };
  }
}
