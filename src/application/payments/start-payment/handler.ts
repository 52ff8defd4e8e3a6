/**
 * Starting a payment, whatever asked for it (a SALE, an S2S APM SALE, a Checkout attempt, a chain's
 * charge, the scheduler): the claim (order reservation, session attempt or chain date) and
 * PaymentInitiated are recorded first, together where the store can, then the connector is asked and
 * its answer recorded. A soft decline that the decider cascades is taken to the route's next
 * connector with the card (or method) still in memory.
 */
import { detectBrand, maskPan } from '../../../domain/card';
import { paymentDecider } from '../../../domain/payment/decider';
import {
  paymentStreamId,
  type BrowserAttributes,
  type CardSnapshot,
  type CheckoutPaymentData,
  type MethodSnapshot,
  type PaymentChannel,
} from '../../../domain/payment/events';
import { connectorOf, type ExistingPayment, type PaymentState } from '../../../domain/payment/state';
import { toNewEvent } from '../../command-handler';
import type { PaymentInstrument, PaymentRequest } from '../../ports/connector';
import { NO_STREAM, type EventMetadata, type ExpectedVersion, type NewEvent } from '../../ports/event-store';
import { isTokenReuse } from '../../wallets';
import { WalletTokenRefused } from '../../../domain/wallets/refusals';
import { callConnector, payerReturnUrl, toAuthorizationResult } from '../connector-calls';
import type { PaymentDeps } from '../deps';
import { existing } from '../existing';
import { paymentStream } from '../payment-stream';
import type { InternalSale } from '../types';
import { resolveCard } from './card';
import { cardOnFileRequest } from './card-on-file';
import { recurringLinkOf } from './chain-link';
import { candidatesOf, routeOf } from './route';

export type Claim = { streamId: string; events: NewEvent[]; expected: ExpectedVersion };

export async function startPayment(
  deps: PaymentDeps,
  request: InternalSale & { checkout?: CheckoutPaymentData; browser?: BrowserAttributes },
  paymentId: string,
  claim: Claim | null,
  channel: PaymentChannel = 's2s_card',
): Promise<ExistingPayment> {
  const { store, clock } = deps;
  // Resolved and routed before anything is recorded: an unknown token or a payment no connector can
  // take must not burn the order id.
  const paying = await instrumentOf(deps, request);
  const now = clock.now().toISOString();
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

  const initiatedEvents = paymentDecider.decide(
    {
      type: 'InitiatePayment',
      data: {
        paymentId,
        merchantId: request.merchantId,
        channel,
        kind: request.kind,
        orderId: request.orderId,
        orderDescription: request.orderDescription,
        currency: request.currency,
        amount: request.amount,
        amountText: request.amountText,
        ...(await paying.recorded()),
        payer: request.payer,
        termUrl3ds: request.termUrl3ds,
        ...(request.termUrlTarget ? { termUrlTarget: request.termUrlTarget } : {}),
        notificationUrl: request.notificationUrl,
        customData: request.customData,
        parameters: request.parameters,
        recurringInit: request.recurringInit,
        ...(request.card ? { cardSource: request.cardSource ?? (request.card.kind === 'token' ? 'card_token' : 'card_number') } : {}),
        ...(request.checkout ? { checkout: request.checkout } : {}),
        ...(request.browser ? { browser: request.browser } : {}),
        ...(recurring ? { recurring } : {}),
        ...(request.payerPresent === false ? { payerPresent: false } : {}),
        connector: route[0]!,
        ...(route.length > 1 ? { route } : {}),
        ...(request.merchantPaymentMode ? { merchantPaymentMode: request.merchantPaymentMode } : {}),
        now,
      },
    },
    { exists: false },
  );
  // The claim comes first and, where the store can, commits together with the payment: the order
  // id (or session attempt, or chain date) and the intent to charge are recorded before any connector is asked.
  const paymentWrite = {
    streamId: paymentStreamId(paymentId),
    events: initiatedEvents.map((e) => toNewEvent(e, paymentDecider.schemaVersion, metadata)),
    expected: NO_STREAM,
  };
  // A wallet token's one-time record goes in the same write, after the claim: a repeat of the order
  // meets the reservation first (and gets the original outcome), a reused token meets its record.
  const redemption = request.card?.kind === 'wallet' ? request.card.redemption : null;
  let results;
  try {
    results = await store.appendMultiple([...(claim ? [claim] : []), ...(redemption ? [redemption] : []), paymentWrite]);
  } catch (error) {
    if (redemption && isTokenReuse(error, redemption)) throw new WalletTokenRefused('the token was used before');
    throw error;
  }
  let state: PaymentState = initiatedEvents.reduce(paymentDecider.evolve, paymentDecider.initialState());
  let version = results[results.length - 1]!.nextExpectedVersion;

  const ask: Omit<PaymentRequest, 'instrument'> = {
    paymentId,
    merchantId: request.merchantId,
    kind: request.kind,
    amount: request.amount,
    currency: request.currency,
    ...(request.payer.ip ? { payerIp: request.payer.ip } : {}),
    ...(request.payer.email ? { payerEmail: request.payer.email } : {}),
    ...(request.payer.phone ? { payerPhone: request.payer.phone } : {}),
    ...(request.payer.country ? { payerCountry: request.payer.country } : {}),
    ...(request.browser ? { browser: request.browser } : {}),
    returnUrl: payerReturnUrl(deps.baseUrl, paymentId),
    ...(request.card ? cardOnFileRequest(request, recurring) : {}),
    ...(request.parameters ? { parameters: request.parameters } : {}),
  };
  const instrument = paying.instrument;
  const stream = paymentStream(store);
  for (;;) {
    const name = connectorOf(existing(state));
    const outcome = await callConnector(deps, name, request.correlationId, (connector) =>
      request.kind === 'credit' ? connector.payout({ ...ask, instrument }) : connector.authorize({ ...ask, instrument }),
    );
    const recorded = await stream.handle(
      paymentId,
      { type: 'RecordAuthorization', data: { result: toAuthorizationResult(outcome), now: clock.now().toISOString() } },
      metadata,
      { state, version },
    );
    state = recorded.state;
    version = recorded.version!;
    // Cascaded: the payment is with the route's next connector and still waits for an answer.
    if (!recorded.newEvents.some((e) => e.type === 'PaymentCascaded')) return existing(state);
  }
}

/**
 * What the payment is made with: what PaymentInitiated records of it (the card's mask and token, or
 * the method, or both for an S2S APM wallet in the card flow) and what the connector is given (the
 * card in memory, a wallet's token as received, or the method's parameters).
 */
async function instrumentOf(
  deps: PaymentDeps,
  request: InternalSale,
): Promise<{ instrument: PaymentInstrument; recorded(): Promise<{ card: CardSnapshot; method?: MethodSnapshot } | { method: MethodSnapshot }> }> {
  if (!request.card) {
    const method = request.method;
    const instrument: PaymentInstrument =
      request.walletToken !== undefined
        ? { kind: 'wallet_token', wallet: method.brand, token: request.walletToken, ...(method.identifier !== undefined ? { identifier: method.identifier } : {}) }
        : {
            kind: 'method',
            method: method.brand,
            parameters: method.parameters,
            ...(method.identifier !== undefined ? { identifier: method.identifier } : {}),
          };
    return { instrument, recorded: async () => ({ method }) };
  }
  const saleCard = request.card;
  const alongside = request.method ? { method: request.method } : {};
  if (saleCard.kind === 'wallet') {
    const w = saleCard.card;
    const stored = { number: w.pan, expMonth: w.expMonth, expYear: w.expYear, ...(w.holder ? { holder: w.holder } : {}) };
    const wallet = { wallet: w.wallet, panType: w.panType, ...(w.cryptogram ? { cryptogram: w.cryptogram } : {}), ...(w.eci ? { eci: w.eci } : {}) };
    return {
      instrument: { kind: 'card', card: { ...stored, wallet } },
      // The card flow keeps the card (docs/wallets.md#two-flows), in the vault only and once the payment is routed.
      async recorded() {
        const token = await deps.vault.store(stored, request.merchantId);
        return { card: { ...snapshotOf(stored, token), wallet: w.wallet, panType: w.panType }, ...alongside };
      },
    };
  }
  const card = await resolveCard(deps.vault, saleCard, request.merchantId);
  // A chain's later charges pay with its stored card, which is still the wallet's when a wallet started it.
  const chainCard = request.chain?.card;
  const fromWallet = saleCard.kind === 'token' && chainCard?.wallet && chainCard.panType ? { wallet: chainCard.wallet, panType: chainCard.panType } : null;
  return {
    instrument: { kind: 'card', card: { ...card, cvv: saleCard.kind === 'number' ? saleCard.cvv : undefined, ...(fromWallet ? { wallet: fromWallet } : {}) } },
    // Kept in the vault only once the payment is routed: a payment no connector takes stores no card.
    async recorded() {
      let token = saleCard.kind === 'token' ? saleCard.token : null;
      if (!token && request.storeCard) token = await deps.vault.store(card, request.merchantId);
      return { card: { ...snapshotOf(card, token), ...(fromWallet ?? {}) }, ...alongside };
    },
  };
}

function snapshotOf(card: { number: string; expMonth: string; expYear: string }, token: string | null): CardSnapshot {
  return { mask: maskPan(card.number), brand: detectBrand(card.number), expMonth: card.expMonth, expYear: card.expYear, token };
}
