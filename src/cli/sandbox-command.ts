/**
 * `sandbox decide <trans_id> approve|decline`: decides a payment waiting on the sandbox's
 * alternative-method provider, as its page's Approve / Decline does (docs/apm.md#how-the-sandbox-decides). The decision
 * reaches the gateway as the provider's signed notification. Works with or without a running
 * server; a payment already decided stays as it is.
 */
import { print, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';

const DECIDE = 'npm run gateway -- sandbox decide <trans_id> approve|decline [--json]';

export const sandboxHelp: CommandHelp = {
  name: 'sandbox',
  summary: "the sandbox's alternative-method provider: decide a payment waiting on it",
  usage: [
    `usage: ${DECIDE}`,
    '',
    'Approves or declines an S2S APM payment of a sandbox brand (sb-*) that waits on its simulated',
    'provider, as the provider page /sandbox/provider/<trans_id> does. The merchant is called back.',
    '',
    '  --json  print the payment\'s status as JSON',
  ].join('\n'),
  subcommands: { decide: [`usage: ${DECIDE}`, '', 'Approves or declines the payment at the sandbox provider.', '', "  --json  print the payment's status as JSON"].join('\n') },
};

export async function sandboxCommand(p: Parsed): Promise<number> {
  const json = p.flags.get('json') === true;
  const [, sub, transId, decision] = p.positional;
  if (sub !== 'decide') throw usageError(sandboxHelp, sub ? `Unknown: sandbox ${sub}` : undefined);
  if (!transId || (decision !== 'approve' && decision !== 'decline')) throw usageError(sandboxHelp, 'sandbox decide needs a trans_id and approve or decline', 'decide');
  return withGateway(async (g) => {
    if (!g.sandboxApm) {
      process.stderr.write('This gateway has no sandbox-apm connector (CONNECTORS).\n');
      return 1;
    }
    const found = await g.sandboxApm.find(transId);
    if (!found) {
      process.stderr.write(`No payment ${transId} of the sandbox APM provider.\n`);
      return 1;
    }
    const result = await g.sandboxApm.decide(found, decision, `cli-sandbox-decide-${transId}`);
    const payment = result.kind === 'recorded' ? result.payment : found.payment;
    const changed = result.kind === 'recorded' && result.changed;
    const shown = { trans_id: payment.paymentId, status: payment.status, changed };
    print(shown, json, () => (changed ? `Payment ${payment.paymentId} is now ${payment.status}.` : `Payment ${payment.paymentId} was already decided: ${payment.status}.`));
    return 0;
  });
}
