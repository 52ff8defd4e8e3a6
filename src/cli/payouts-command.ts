/**
 * `payouts top-up|balance`: an operator funds a merchant's payout balance (the money its
 * CREDIT2VIRTUAL payouts are paid from) and looks at it. The balance per currency is settled sales
 * minus refunds minus payouts, plus top-ups (docs/payouts.md); a top-up is recorded on the
 * merchant's payout balance stream, which is what a payout is held against.
 */
import { randomUUID } from 'node:crypto';
import type { PayoutBalanceView } from '../application/payouts';
import { formatMinor, isCurrency, parseAmount } from '../domain/money';
import { UsageError, flag, print, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';

const TOP_UP = 'npm run gateway -- payouts top-up --merchant ID --currency C --amount A [--note TEXT] [--json]';
const BALANCE = 'npm run gateway -- payouts balance --merchant ID --currency C [--json]';

export const payoutsHelp: CommandHelp = {
  name: 'payouts',
  summary: "a merchant's payout balance: top it up, show it",
  usage: [
    `usage: ${TOP_UP}`,
    `       ${BALANCE}`,
    '',
    'Payouts (CREDIT2VIRTUAL) are paid from the merchant\'s payout balance in their currency: settled',
    'sales minus refunds minus payouts, plus top-ups. A payout the balance cannot cover is declined.',
    '',
    '  --merchant ID  the merchant',
    '  --currency C   ISO 4217 code, e.g. GHS',
    '  --amount A     decimal text in the currency, e.g. 500.00 (XOF and XAF: whole units)',
    '  --note TEXT    why (kept with the top-up)',
    '  --json         print JSON',
  ].join('\n'),
  subcommands: {
    'top-up': [`usage: ${TOP_UP}`, '', "Adds money to the merchant's payout balance in that currency."].join('\n'),
    balance: [`usage: ${BALANCE}`, '', 'Available, held by payouts still waiting, topped up, received from sales, paid out.'].join('\n'),
  },
};

function balanceJson(b: PayoutBalanceView) {
  const text = (minor: number) => formatMinor(minor, b.currency);
  return {
    merchant_id: b.merchantId,
    currency: b.currency,
    available: text(b.available),
    held: text(b.held),
    topped_up: text(b.toppedUp),
    received: text(b.received),
    paid_out: text(b.paidOut),
  };
}

const human = (b: ReturnType<typeof balanceJson>) =>
  [`${b.merchant_id} ${b.currency}`, ...(['available', 'held', 'topped_up', 'received', 'paid_out'] as const).map((k) => `  ${k.padEnd(10)} ${b[k].padStart(20)}`)].join('\n');

export async function payoutsCommand(p: Parsed): Promise<number> {
  const sub = p.positional[1];
  if (sub !== 'top-up' && sub !== 'balance') throw usageError(payoutsHelp, sub ? `Unknown: payouts ${sub}` : undefined);
  const json = p.flags.get('json') === true;
  const merchantId = flag(p, 'merchant');
  const currency = flag(p, 'currency');
  if (!merchantId) throw usageError(payoutsHelp, `payouts ${sub} needs --merchant`, sub);
  if (!currency || !isCurrency(currency)) throw new UsageError(`--currency must be an ISO 4217 code such as GHS (got "${currency ?? ''}")`);

  if (sub === 'balance') {
    const balance = await withGateway(async (g) => {
      if (!(await g.merchants.byId(merchantId))) throw new UsageError(`No merchant ${merchantId}`);
      await g.payouts.feedBalances();
      return g.payouts.balance(merchantId, currency);
    });
    const out = balanceJson(balance);
    print(out, json, () => human(out));
    return 0;
  }

  const amountText = flag(p, 'amount');
  if (amountText === undefined) throw usageError(payoutsHelp, 'payouts top-up needs --amount', 'top-up');
  const amount = parseAmount(amountText, currency);
  if (!amount.ok) throw new UsageError(`--amount ${amountText}: ${amount.reason}`);
  if (amount.minor <= 0) throw new UsageError('--amount must be more than 0');
  const note = flag(p, 'note');
  const { topUp, balance } = await withGateway(async (g) => {
    if (!(await g.merchants.byId(merchantId))) throw new UsageError(`No merchant ${merchantId}`);
    await g.payouts.feedBalances();
    return g.payouts.topUp({ merchantId, currency, amount: amount.minor, ...(note ? { note } : {}), correlationId: randomUUID() });
  });
  const out = { top_up_id: topUp.topUpId, amount: formatMinor(topUp.amount, currency), balance: balanceJson(balance) };
  print(out, json, () => `Topped up ${out.amount} ${currency} (${out.top_up_id}).\n${human(out.balance)}`);
  return 0;
}
