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
    method: request.method ? request.method.brand : 'card',
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
  const results = await store.appendMultiple(claim ? [claim, paymentWrite] : [paymentWrite]);
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
    const outcome = await callConnector(deps, name, (connector) =>
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
 * the method) and what the connector is given (the card in memory, or the method's parameters).
 */
async function instrumentOf(
  deps: PaymentDeps,
  request: InternalSale,
): Promise<{ instrument: PaymentInstrument; recorded(): Promise<{ card: CardSnapshot } | { method: MethodSnapshot }> }> {
  if (request.method) {
    const method = request.method;
    return {
      instrument: {
        kind: 'method',
        method: method.brand,
        parameters: method.parameters,
        ...(method.identifier !== undefined ? { identifier: method.identifier } : {}),
      },
      recorded: async () => ({ method }),
    };
  }
  const saleCard = request.card;
  const card = await resolveCard(deps.vault, saleCard, request.merchantId);
  return {
    instrument: { kind: 'card', card: { ...card, cvv: saleCard.kind === 'number' ? saleCard.cvv : undefined } },
    // Kept in the vault only once the payment is routed: a payment no connector takes stores no card.
    async recorded() {
      let token = saleCard.kind === 'token' ? saleCard.token : null;
      if (!token && request.storeCard) token = await deps.vault.store(card, request.merchantId);
      return { card: { mask: maskPan(card.number), brand: detectBrand(card.number), expMonth: card.expMonth, expYear: card.expYear, token } };
    },
  };
}
