/**
 * Starting a payment, whatever asked for it (a SALE, an S2S APM SALE, a Checkout attempt, a chain's
 * charge, the scheduler): the claim (order reservation, session attempt or chain date) and
 * PaymentInitiated are recorded first, together where the store can, then the connector is asked and
 * its answer recorded. A soft decline that the decider cascades is taken to the route's next
 * connector with the card (or method) still in memory.
 */
import { paymentDecider } from '../../../domain/payment/decider';
import { paymentStreamId, type PaymentChannel, type PaymentEvent } from '../../../domain/payment/events';
import { connectorOf, type ExistingPayment, type PaymentState } from '../../../domain/payment/state';
import { WalletTokenRefused } from '../../../domain/wallets/refusals';
import { toNewEvent } from '../../command-handler';
import type { PaymentInstrument, PaymentRequest } from '../../ports/connector';
import { exactly, NO_STREAM, type EventMetadata, type ExpectedVersion, type NewEvent } from '../../ports/event-store';
import { isTokenReuse } from '../../wallets';
import { callConnector, toAuthorizationResult } from '../connector-calls';
import type { PaymentDeps } from '../deps';
import { existing } from '../existing';
import { paymentStream } from '../payment-stream';
import { recurringLinkOf } from './chain-link';
import { connectorAskOf } from './connector-ask';
import { initiatePaymentOf, type StartRequest } from './initiation';
import { instrumentOf } from './instrument';
import { candidatesOf, routeOf } from './route';

export type Claim = { streamId: string; events: NewEvent[]; expected: ExpectedVersion };

type Known = { state: PaymentState; version: bigint };

export async function startPayment(
  deps: PaymentDeps,
  request: StartRequest,
  paymentId: string,
  claim: Claim | null,
  channel: PaymentChannel = 's2s_card',
): Promise<ExistingPayment> {
  // Resolved and routed before anything is recorded: an unknown token or a payment no connector can
  // take must not burn the order id.
  const paying = await instrumentOf(deps, request);
  const now = deps.clock.now().toISOString();
  const recurring = recurringLinkOf(request, paymentId, now);
  const route = routeOf(deps.connectors, candidatesOf(deps.connectors, request), {
    // A wallet paid in the card flow is a card, for a connector that takes decrypted wallet cards.
    method: request.card ? 'card' : request.method.brand,
    ...(request.card?.kind === 'wallet' ? { walletDecryption: true } : {}),
    currency: request.currency,
    kind: request.kind,
    amount: request.amount,
    recurring: recurring !== undefined,
  });
  const metadata: EventMetadata = { correlationId: request.correlationId, causationId: request.correlationId };
  const command = initiatePaymentOf(request, { paymentId, channel, recorded: await paying.recorded(), recurring, route, now });
  const initiated = paymentDecider.decide(command, { exists: false });
  const version = await recordStart(deps, request, claim, paymentId, initiated, metadata);
  const known = { state: initiated.reduce(paymentDecider.evolve, paymentDecider.initialState()), version };
  const ask = { ...connectorAskOf(deps.baseUrl, request, paymentId, recurring), instrument: paying.instrument };
  return askUntilDecided(deps, request, ask, known, metadata);
}

/**
 * The claim comes first and, where the store can, commits together with the payment: the order id
 * (or session attempt, or chain date) and the intent to charge are recorded before any connector is
 * asked. A wallet token's one-time record goes in the same write, after the claim: a repeat of the
 * order meets the reservation first (and gets the original outcome), a reused token meets its record.
 *
 * A SALE decided under merchant settings nobody confirmed (`merchantSettingsAt`) puts their
 * version check before all of it: on EventStoreDB, where the writes go one after another, a refused
 * check leaves nothing written; and everywhere, a claim refused after the check passed (a repeated
 * order) was met under current settings, so its answer may follow.
 */
async function recordStart(
  deps: PaymentDeps,
  request: StartRequest,
  claim: Claim | null,
  paymentId: string,
  initiated: PaymentEvent[],
  metadata: EventMetadata,
): Promise<bigint> {
  const paymentWrite = {
    streamId: paymentStreamId(paymentId),
    events: initiated.map((e) => toNewEvent(e, paymentDecider.schemaVersion, metadata)),
    expected: NO_STREAM,
  };
  const redemption = request.card?.kind === 'wallet' ? request.card.redemption : null;
  try {
    const settings = request.merchantSettingsAt;
    const check = settings ? [{ streamId: settings.streamId, events: [], expected: exactly(settings.version) }] : [];
    const results = await deps.store.appendMultiple([...check, ...(claim ? [claim] : []), ...(redemption ? [redemption] : []), paymentWrite]);
    return results[results.length - 1]!.nextExpectedVersion;
  } catch (error) {
    if (redemption && isTokenReuse(error, redemption)) throw new WalletTokenRefused('the token was used before');
    throw error;
  }
}

/** Asks the payment's connector and records its answer; a cascade asks the route's next one, until one decides. */
async function askUntilDecided(
  deps: PaymentDeps,
  request: StartRequest,
  ask: PaymentRequest & { instrument: PaymentInstrument },
  known: Known,
  metadata: EventMetadata,
): Promise<ExistingPayment> {
  const stream = paymentStream(deps.store);
  let { state, version } = known;
  for (;;) {
    const outcome = await callConnector(deps, connectorOf(existing(state)), request.correlationId, (connector) =>
      request.kind === 'credit' ? connector.payout(ask) : connector.authorize(ask),
    );
    const recorded = await stream.handle(
      ask.paymentId,
      { type: 'RecordAuthorization', data: { result: toAuthorizationResult(outcome), now: deps.clock.now().toISOString() } },
      metadata,
      { state, version },
    );
    state = recorded.state;
    version = recorded.version!;
    // Cascaded: the payment is with the route's next connector and still waits for an answer.
    if (!recorded.newEvents.some((e) => e.type === 'PaymentCascaded')) return existing(state);
  }
}
