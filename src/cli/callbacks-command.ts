/**
 * `npm run gateway -- callbacks list|show|redeliver`: what merchants were told, attempt by attempt,
 * and sending a callback again (it goes out from this command at once, whether or not a server runs).
 */
import { requestRedelivery } from '../application/callbacks/redelivery';
import { DomainError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import { UsageError, flag, print, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';
import { describeCallback, startCallbackListener } from './callback-listener';

const LIST = 'npm run gateway -- callbacks list [--payment ID] [--merchant ID] [--failed] [--limit N] [--json]';
const SHOW = 'npm run gateway -- callbacks show <delivery_id> [--json]';
const REDELIVER = 'npm run gateway -- callbacks redeliver <delivery_id> [--json]';
const LISTEN = 'npm run gateway -- callbacks listen [--merchant ID] [--port P] [--json]';
const LISTEN_FLAGS = [
  '  --merchant ID  while it runs, this merchant\'s callbacks come here (its notification URL is',
  '                 restored on Ctrl-C), and each X-Signature is checked with its password',
  '  --port P       the port on 127.0.0.1 (default 8090; 0 picks a free one)',
  '  --json         one JSON line per callback',
];

export const callbacksHelp: CommandHelp = {
  name: 'callbacks',
  summary: 'merchant callbacks: what was sent, each attempt, send one again',
  usage: [
    `usage: ${LIST}`,
    `       ${SHOW}`,
    `       ${REDELIVER}`,
    `       ${LISTEN}`,
    '',
    '  list       deliveries, newest first',
    '  show       one delivery: its body and every attempt',
    '  redeliver  send a delivery again now, from this command',
    '  listen     a local endpoint that prints every callback it receives (for trying the gateway)',
    '',
    '  --payment ID   only the callbacks of this payment (trans_id)',
    '  --merchant ID  only this merchant\'s',
    '  --failed       only those that failed for good',
    '  --limit N      at most N (default 100, at most 1000)',
    '  --json         print JSON',
    '',
    'listen:',
    ...LISTEN_FLAGS,
  ].join('\n'),
  subcommands: {
    list: [`usage: ${LIST}`, '', '  --payment ID   only the callbacks of this payment (trans_id)', '  --merchant ID  only this merchant\'s', '  --failed       only those that failed for good', '  --limit N      at most N (default 100, at most 1000)', '  --json         print JSON'].join('\n'),
    show: [`usage: ${SHOW}`, '', 'One delivery: its exact body and every attempt.'].join('\n'),
    redeliver: [`usage: ${REDELIVER}`, '', 'Sends the delivery again now (exit 0 when the merchant answered 2xx, else 1).'].join('\n'),
    listen: [
      `usage: ${LISTEN}`,
      '',
      'Receives callbacks on 127.0.0.1 and prints each one: X-Delivery-Id, X-Signature (and whether it',
      'verifies) and the form fields. Pass the URL it prints as notification_url, or give --merchant.',
      '',
      ...LISTEN_FLAGS,
    ].join('\n'),
  },
};

function uuid(value: string | undefined, what: string): string {
  if (!value || !isUuid(value)) throw new UsageError(`${what} must be a UUID (got "${value ?? ''}")`);
  return value.toLowerCase();
}

const pad = (value: unknown, width: number) => String(value ?? '-').padEnd(width);

/** `callbacks list`: deliveries, newest first, one line each. */
async function listCallbacks(p: Parsed, json: boolean): Promise<number> {
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

/** `callbacks show <delivery_id>`: one delivery, its exact body and every attempt. */
async function showCallback(p: Parsed, json: boolean): Promise<number> {
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

/** `callbacks redeliver <delivery_id>`: exit 0 when the merchant answered 2xx this time. */
async function redeliverCallback(p: Parsed, json: boolean): Promise<number> {
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

const SUBCOMMANDS: Readonly<Record<string, (p: Parsed, json: boolean) => Promise<number>>> = {
  list: listCallbacks,
  show: showCallback,
  redeliver: redeliverCallback,
  listen,
};

export async function callbacksCommand(p: Parsed): Promise<number> {
  const json = p.flags.get('json') === true;
  const sub = p.positional[1];
  const subcommand = sub !== undefined && Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
  if (!subcommand) throw usageError(callbacksHelp);
  return subcommand(p, json);
}

/**
 * Runs the local receiver until Ctrl-C. With --merchant it points the merchant's notification URL
 * at itself meanwhile (a SALE without notification_url then calls back here) and puts the previous
 * one back on the way out.
 */
async function listen(p: Parsed, json: boolean): Promise<number> {
  const portText = flag(p, 'port') ?? '8090';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65_535) throw usageError(callbacksHelp, '--port must be a port number (0 picks a free one)', 'listen');
  const merchantText = flag(p, 'merchant');
  const merchantId = merchantText === undefined ? undefined : uuid(merchantText, '--merchant');
  // From here until the merchant's URL is back, Ctrl-C (or SIGTERM) only asks to stop, however many
  // arrive and whenever: a signal that found no handler would end the process with the URL pointing here.
  let stopAsked!: () => void;
  const stop = new Promise<void>((resolve) => (stopAsked = resolve));
  const onSignal = () => stopAsked();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await listenUntilStopped(merchantId, Number(portText), json, stop);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

async function listenUntilStopped(merchantId: string | undefined, port: number, json: boolean, stop: Promise<void>): Promise<number> {
  const account = merchantId
    ? await withGateway(async (g) => g.merchants.accountById(merchantId))
    : undefined;
  if (merchantId && !account) {
    process.stderr.write(`No merchant ${merchantId}\n`);
    return 1;
  }
  const listener = await startCallbackListener({
    port,
    password: account?.password,
    onCallback: (c) => process.stdout.write(json ? `${JSON.stringify(c)}\n` : `${describeCallback(c)}\n`),
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') throw new UsageError(`Port ${port} on 127.0.0.1 is in use: choose another with --port P (--port 0 picks a free one)`);
    throw error;
  });
  const previousUrl = account?.notificationUrl ?? null;
  try {
    if (merchantId) await setNotificationUrl(merchantId, listener.url);
  } catch (error) {
    await listener.close();
    throw error;
  }
  const lines = [`Listening for callbacks on ${listener.url}`];
  if (merchantId) {
    lines.push(
      `Merchant ${merchantId} now sends its callbacks here (a payment's own notification_url still wins);`,
      `Ctrl-C stops and sets its notification URL back to ${previousUrl ?? 'none'}.`,
    );
  } else {
    lines.push(`Send payments with notification_url=${listener.url}, or start with --merchant ID. Ctrl-C stops.`);
  }
  process.stderr.write(`${lines.join('\n')}\n\n`);

  await stop;
  await listener.close();
  if (merchantId) {
    await setNotificationUrl(merchantId, previousUrl);
    process.stderr.write(`Notification URL of merchant ${merchantId} set back to ${previousUrl ?? 'none'}.\n`);
  }
  return 0;
}

async function setNotificationUrl(merchantId: string, url: string | null): Promise<void> {
  await withGateway(async (g) => {
    await g.merchants.update(merchantId, { notificationUrl: url });
    await g.projector?.catchUp();
  });
}
