/**
 * `seed --events N [--merchants M]`: fills the configured event store with realistic payment
 * histories (seed-payments.ts), for rebuild benchmarks and for trying the operator tools on volume.
 */
import { flag, print, withGateway, type Parsed } from '../args';
import { usageError, type CommandHelp } from '../help';
import { startProgress } from '../progress';
import { seedPayments } from './seed-payments';

export const seedHelp: CommandHelp = {
  name: 'seed',
  summary: 'write realistic payment histories straight into the event store (for trying the tools on volume)',
  usage: [
    'usage: npm run gateway -- seed --events N [--merchants M] [--json]',
    '',
    '  --events N     write at least N events',
    '  --merchants M  spread them over M new merchants, 1 to 1000 (default 5)',
    '  --json         print the summary as JSON',
  ].join('\n'),
};

export async function seedCommand(p: Parsed): Promise<void> {
  const eventsText = flag(p, 'events');
  if (!eventsText || !/^\d+$/.test(eventsText) || Number(eventsText) < 1) throw usageError(seedHelp, 'seed needs --events N (a positive integer)');
  const merchantsText = flag(p, 'merchants') ?? '5';
  if (!/^\d+$/.test(merchantsText) || Number(merchantsText) < 1 || Number(merchantsText) > 1000) {
    throw usageError(seedHelp, '--merchants must be an integer in 1..1000');
  }
  const json = p.flags.get('json') === true;
  const events = Number(eventsText);
  const started = performance.now();
  const result = await withGateway(async (g) => {
    const merchantIds: string[] = [];
    for (let i = 1; i <= Number(merchantsText); i++) {
      const created = await g.merchants.register({ name: `Seeded merchant ${i}`, paymentMode: 'SMS/DMS', refundsEnabled: true });
      merchantIds.push(created.merchant_id);
    }
    const target = Math.max(1, events - merchantIds.length);
    const progress = startProgress({ label: 'Seeding', unit: 'events', total: target, json });
    const seeded = await seedPayments({
      store: g.store,
      events: target,
      merchantIds,
      onProgress: (written) => progress.update(written),
    }).finally(() => progress.finish());
    return { ...seeded, events: seeded.events + merchantIds.length, merchants: merchantIds };
  }, { project: false, mayCreate: true });
  const seconds = (performance.now() - started) / 1000;
  print({ ...result, seconds: Math.round(seconds * 10) / 10 }, json, () =>
    [
      `Seeded ${result.events} events: ${result.payments} payments of ${result.merchants.length} merchants in ${seconds.toFixed(1)} s.`,
      `  final statuses: ${Object.entries(result.byStatus).map(([s, n]) => `${s} ${n}`).join(', ')}`,
    ].join('\n'),
  );
}
