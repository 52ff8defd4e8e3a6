/**
 * `history <trans_id> [--as-of <ISO timestamp|version>] [--json]`: every event of a payment in
 * order, then its state as of that point (default: now). The trans_id of the S2S API is the
 * payment id.
 */
import { paymentHistory, type PaymentHistory } from '../application/payment-history';
import { parseAsOf } from '../domain/payment/history';
import { flag, print, UsageError, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';

export const historyHelp: CommandHelp = {
  name: 'history',
  summary: 'every event of a payment, and its state as of a point',
  usage: [
    'usage: npm run gateway -- history <trans_id> [--as-of <ISO timestamp|version>] [--json]',
    '',
    '  --as-of  fold the state up to this stream version (0, 1, ...) or ISO-8601 timestamp with a zone',
    '  --json   print JSON',
  ].join('\n'),
};

export async function historyCommand(p: Parsed): Promise<number> {
  const paymentId = p.positional[1];
  if (!paymentId) throw usageError(historyHelp);
  const asOfText = flag(p, 'as-of');
  const asOf = asOfText === undefined ? null : parseAsOf(asOfText);
  if (asOfText !== undefined && !asOf) {
    throw new UsageError(`--as-of must be a stream version (0, 1, ...) or an ISO-8601 timestamp with a zone (got "${asOfText}")`);
  }
  const json = p.flags.get('json') === true;
  const history = await withGateway((g) => paymentHistory(g.store, paymentId, asOf), { project: false });
  if (!history) {
    process.stderr.write(`Payment not found: ${paymentId}\n`);
    return 1;
  }
  print(history, json, () => describe(history));
  return 0;
}

function describe(h: PaymentHistory): string {
  const lines = [`Payment ${h.payment_id} (stream ${h.stream_id}, ${h.events.length} events)`, ''];
  const folded = h.as_of?.version ?? (h.as_of ? -1 : h.version);
  for (const e of h.events) {
    const after = e.version > folded ? '  (after the as-of point)' : '';
    lines.push(`#${e.version}  ${e.recorded_at}  ${e.type} v${e.schema_version}${after}`);
    lines.push(`    correlation ${e.correlation_id ?? '-'}  causation ${e.causation_id ?? '-'}  position ${e.position}`);
    lines.push(`    ${JSON.stringify(e.data)}`);
  }
  lines.push('');
  if (h.as_of) {
    lines.push(
      h.as_of.version === null
        ? `As of ${h.as_of.requested}: the payment did not exist yet.`
        : `As of ${h.as_of.requested} (through version ${h.as_of.version}, recorded ${h.as_of.recorded_at}):`,
    );
  } else {
    lines.push(`State after version ${h.version}:`);
  }
  if (h.state) lines.push(JSON.stringify(h.state, null, 2));
  return lines.join('\n');
}
