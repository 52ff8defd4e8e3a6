/**
 * `chain <payment_id> [--json]`: a scheduled chain explained: its schedule, where its dates are
 * counted from, and every due date with what became of it (charged, skipped and why, upcoming).
 */
import { chainReport, type ChainReport } from '../application/schedules/chain-report';
import { print, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';

export const chainHelp: CommandHelp = {
  name: 'chain',
  summary: 'a scheduled chain: every due date and what became of it',
  usage: [
    'usage: npm run gateway -- chain <payment_id> [--json]',
    '',
    '  <payment_id>  the trans_id of the payment that started the schedule',
    '  --json        print JSON',
  ].join('\n'),
};

export async function chainCommand(p: Parsed): Promise<number> {
  const chainId = p.positional[1];
  if (!chainId) throw usageError(chainHelp);
  const json = p.flags.get('json') === true;
  const report = await withGateway((g) => chainReport(g.store, chainId), { project: false });
  if (!report) {
    process.stderr.write(`No scheduled chain starts at payment ${chainId}\n`);
    return 1;
  }
  print(report, json, () => describe(report));
  return 0;
}

function describe(r: ChainReport): string {
  const s = r.schedule;
  const lines = [
    `Chain ${r.chain_id} (first payment ${r.init_payment_id}, merchant ${r.merchant_id})`,
    `Schedule ${s.schedule_id} "${s.name}": every ${s.interval_length} ${s.interval_unit}(s), ${s.payments_count} payments, ${s.status}`,
    `First automatic payment ${r.first_recurring_date}, day of month aimed at ${r.anchor_day}; ${r.amount} ${r.currency} each`,
    '',
  ];
  for (const e of r.payments) {
    const detail =
      e.outcome === 'charged'
        ? `charged ${e.payment_id} ${e.status ?? ''}${e.reason ? ` (${e.reason})` : ''} at ${e.at}`
        : e.outcome === 'skipped'
          ? `skipped (${e.reason}) at ${e.at}`
          : 'upcoming';
    lines.push(`  #${String(e.sequence).padStart(3)}  ${e.due_date}  ${detail}`);
  }
  lines.push('', r.ended ? `Ended ${r.ended.at}: ${r.ended.reason}` : 'Open');
  return lines.join('\n');
}
