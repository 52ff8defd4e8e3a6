/**
 * `npm run gateway -- callbacks list|show|redeliver`: what merchants were told, attempt by attempt,
 * and sending a callback again (it goes out from this command at once, whether or not a server runs).
 */
import { requestRedelivery } from '../application/callbacks/redelivery';
import { DomainError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import { UsageError, flag, print, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';

const LIST = 'npm run gateway -- callbacks list [--payment ID] [--merchant ID] [--failed] [--limit N] [--json]';
const SHOW = 'npm run gateway -- callbacks show <delivery_id> [--json]';
const REDELIVER = 'npm run gateway -- callbacks redeliver <delivery_id> [--json]';

export const callbacksHelp: CommandHelp = {
  name: 'callbacks',
  summary: 'merchant callbacks: what was sent, each attempt, send one again',
  usage: [
    `usage: ${LIST}`,
    `       ${SHOW}`,
    `       ${REDELIVER}`,
    '',
    '  list       deliveries, newest first',
    '  show       one delivery: its body and every attempt',
    '  redeliver  send a delivery again now, from this command',
    '',
    '  --payment ID   only the callbacks of this payment (trans_id)',
    '  --merchant ID  only this merchant\'s',
    '  --failed       only those that failed for good',
    '  --limit N      at most N (default 100, at most 1000)',
    '  --json         print JSON',
  ].join('\n'),
  subcommands: {
    list: [`usage: ${LIST}`, '', '  --payment ID   only the callbacks of this payment (trans_id)', '  --merchant ID  only this merchant\'s', '  --failed       only those that failed for good', '  --limit N      at most N (default 100, at most 1000)', '  --json         print JSON'].join('\n'),
    show: [`usage: ${SHOW}`, '', 'One delivery: its exact body and every attempt.'].join('\n'),
    redeliver: [`usage: ${REDELIVER}`, '', 'Sends the delivery again now (exit 0 when the merchant answered 2xx, else 1).'].join('\n'),
  },
};

function uuid(value: string | undefined, what: string): string {
  if (!value || !isUuid(value)) throw new UsageError(`${what} must be a UUID (got "${value ?? ''}")`);
  return value.toLowerCase();
}

const pad = (value: unknown, width: number) => String(value ?? '-').padEnd(width);

export async function callbacksCommand(p: Parsed): Promise<number> {
  const json = p.flags.get('json') === true;
  switch (p.positional[1]) {
    case 'list': {
      const payment = flag(p, 'payment');
      const merchant = flag(p, 'merchant');
      const limit = flag(p, 'limit');
      if (limit !== undefined && !/^\d{1,4}$/.test(limit)) throw new UsageError('--limit must be a number');
      const rows = await withGateway((g) =>
        g.callbackQueries.list({
          paymentId: payment === undefined ? undefined : uuid(payment, '--payment'),
          merchantId: merchant === undefined ? undefined : uuid(merchant, '--merchant'),
          failed: p.flags.get('failed') === true,
          limit: limit ? Number(limit) : undefined,
        }),
      );
      print(rows, json, () =>
        rows.length === 0
          ? 'No callbacks match.'
          : [
              `${pad('DELIVERY', 36)}  ${pad('PAYMENT', 36)}  ${pad('EVENT', 22)}  ${pad('STATUS', 9)}  ${pad('TRIES', 5)}  ${pad('LAST', 4)}  NEXT / DONE`,
              ...rows.map(
                (r) =>
                  `${r.delivery_id}  ${r.payment_id}  ${pad(r.source_event_type, 22)}  ${pad(r.status, 9)}  ${pad(r.attempts, 5)}  ${pad(r.last_status_code, 4)}  ${
                    r.status === 'delivered' ? r.delivered_at : r.next_attempt_at ?? '-'
                  }${r.last_error ? `  (${r.last_error})` : ''}`,
              ),
            ].join('\n'),
      );
      return 0;
    }
    case 'show': {
      const id = uuid(p.positional[2], 'delivery id');
      const found = await withGateway((g) => g.callbackQueries.byId(id));
      if (!found) {
        process.stderr.write(`No callback delivery ${id}\n`);
        return 1;
      }
      print({ ...found.delivery, body: found.body, attempts: found.attempts }, json, () =>
        [
          ...Object.entries(found.delivery).map(([k, v]) => `${k.padEnd(18)} ${v ?? '-'}`),
          `${'body'.padEnd(18)} ${found.body}`,
          '',
          'attempts:',
          ...found.attempts.map(
            (a) =>
              `  #${a.attempt}  ${pad(a.started_at, 24)}  ${pad(a.outcome, 9)}  ${pad(a.status_code, 4)}  ${
                a.latency_ms === null ? '-' : `${a.latency_ms} ms`
              }${a.timed_out ? '  timed out' : ''}${a.error ? `  ${a.error}` : ''}`,
          ),
        ].join('\n'),
      );
      return 0;
    }
    case 'redeliver': {
      const id = uuid(p.positional[2], 'delivery id');
      try {
        const state = await withGateway((g) =>
          requestRedelivery({ store: g.store, clock: g.clock, notifier: g.notifier }, id, `cli ${process.env.USER ?? 'operator'}`),
        );
        if (!state.exists) throw new DomainError('callback_not_found', 'No such callback delivery');
        const outcome =
          state.status === 'delivered'
            ? `delivered (HTTP ${state.lastStatusCode})`
            : `not delivered (${state.lastStatusCode ? `HTTP ${state.lastStatusCode}` : state.lastError ?? 'no answer'}); next attempt ${state.nextAttemptAt ?? 'none'}`;
        print({ delivery_id: id, status: state.status, attempts: state.attempts, last_status_code: state.lastStatusCode, last_error: state.lastError, next_attempt_at: state.nextAttemptAt }, json, () => `Callback ${id} sent again: ${outcome}.`);
        return state.status === 'delivered' ? 0 : 1;
      } catch (error) {
        if (error instanceof DomainError && error.code === 'callback_not_found') {
          process.stderr.write(`No callback delivery ${id}\n`);
          return 1;
        }
        if (error instanceof DomainError && error.code === 'callback_in_flight') {
          process.stderr.write(`An attempt of callback ${id} is in progress; try again when it has finished.\n`);
          return 1;
        }
        throw error;
      }
    }
    default:
      throw usageError(callbacksHelp);
  }
}
