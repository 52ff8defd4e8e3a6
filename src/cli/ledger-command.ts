/**
 * `ledger balances [--merchant ID] [--currency C] [--as-of ISO] [--json]`: the ledger's balance per
 * merchant, currency and account, from postings dated at or before `--as-of` (default: all).
 */
import { ledgerBalances } from '../../projections/ledger/queries';
import { balanceView, parseAsOf } from '../domain/ledger/balance-report';
import { isCurrency } from '../domain/money';
import { UsageError, flag, print, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';

export const ledgerHelp: CommandHelp = {
  name: 'ledger',
  summary: 'ledger balance per merchant, currency and account',
  usage: [
    'usage: npm run gateway -- ledger balances [--merchant ID] [--currency C] [--as-of 2024-05-01T23:59:59Z] [--json]',
    '',
    '  --merchant ID  one merchant only',
    '  --currency C   one currency only (ISO 4217)',
    '  --as-of ISO    postings dated at or before this instant (default: all)',
    '  --json         print JSON',
  ].join('\n'),
};

export async function ledgerCommand(p: Parsed): Promise<number> {
  if (p.positional[1] !== 'balances') throw usageError(ledgerHelp);
  const merchantId = flag(p, 'merchant');
  const currency = flag(p, 'currency');
  if (currency !== undefined && !isCurrency(currency)) throw new UsageError(`--currency must be an ISO 4217 code such as EUR (got "${currency}")`);
  const asOfText = flag(p, 'as-of');
  const asOf = asOfText === undefined ? undefined : parseAsOf(asOfText);
  if (asOf === null) throw new UsageError(`--as-of must be an ISO-8601 date-time with a zone, e.g. 2024-05-01T23:59:59Z (got "${asOfText}")`);
  const json = p.flags.get('json') === true;

  const balances = (await withGateway((g) => ledgerBalances(g.readDb, { merchantId, currency, asOf }))).map(balanceView);
  print({ as_of: asOf?.toISOString() ?? null, balances }, json, () => {
    if (balances.length === 0) return 'No postings match.';
    const lines: string[] = [];
    let group = '';
    for (const b of balances) {
      const heading = `${b.merchant_id} ${b.currency}`;
      if (heading !== group) {
        group = heading;
        lines.push(`${heading}${asOf ? ` as of ${asOf.toISOString()}` : ''}`);
      }
      lines.push(`  ${b.account.padEnd(22)} ${b.balance_text.padStart(20)}`);
    }
    return lines.join('\n');
  });
  return 0;
}
