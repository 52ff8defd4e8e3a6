/**
 * One interface for every acquirer and payment provider ("connector"). Outcomes are data: the domain
 * decides what they mean. The gateway checks a connector's capabilities before it calls it, passes
 * the connector's own reference on every follow-up, and hands it the payer's return exactly as the
 * browser sent it, for the connector to verify.
 *
 * `unknown` means the connector did not answer in a way we can trust (timeout, broken connection):
 * the payment is reconciled later with a status lookup, never blindly retried.
 */
import type { BrowserAttributes, CurrencyConversion, PaymentKind, ThreeDSAttributes } from '../../domain/payment/events';
import type { ConnectorCapabilities } from '../../domain/routing/route';
import type { MethodDescription } from '../../domain/payment/method-fields';

export interface CardData {
  /** The full number lives only in memory for the duration of the call. */
  number: string;
  expMonth: string; // MM
  expYear: string; // YYYY
  /** Never stored; absent for stored-card (token) payments. */
  cvv?: string;
  holder?: string;
  /**
   * A card the gateway decrypted from a wallet token (only for connectors with `walletDecryption`),
   * or a later charge of such a card: the wallet, `DPAN` (a device or network token) or `FPAN`, and
   * on the payment the token paid for its one-time cryptogram and ECI (never stored).
   */
  wallet?: WalletCardData;
}

export interface WalletCardData {
  wallet: string;
  panType: 'DPAN' | 'FPAN';
  cryptogram?: string;
  eci?: string;
}

/**
 * How the payer pays. A card (typed, stored, or decrypted from a wallet token by the gateway), a
 * wallet token the connector decrypts itself, or an alternative method with its parameters.
 */
export type PaymentInstrument =
  | { kind: 'card'; card: CardData }
  /** `token`: the wallet's token JSON exactly as received; `identifier`: the merchant's reference of the payer (S2S APM). */
  | { kind: 'wallet_token'; wallet: string; token: string; identifier?: string }
  /**
   * `method`: the identifier as the merchant named it; `parameters`: its catalogue set, as sent;
   * `identifier`: the merchant's reference of the payer (S2S APM), where it was given.
   */
  | { kind: 'method'; method: string; parameters: Record<string, unknown>; identifier?: string };

export type { ConnectorCapabilities } from '../../domain/routing/route';

/**
 * `initial`: the payer is present and the card is kept for later charges; `subsequent`: a charge
 * of a stored card, by the merchant when `initiator` is `merchant` (no CVV, no 3-D Secure).
 */
export interface CardOnFileRequest {
  sequence: 'initial' | 'subsequent';
  initiator: 'cardholder' | 'merchant';
  /** This charge starts (initial) or continues (subsequent) a recurring chain. */
  recurring: boolean;
  /** Ask the connector for a card-on-file reference (the merchant's card_on_file_support). */
  requestReference: boolean;
  /** The reference the chain's initial payment got, on subsequent charges. */
  reference?: string;
}

/** An authorization, a sale or a payout. */
export interface PaymentRequest {
  paymentId: string;
  merchantId: string;
  kind: PaymentKind;
  amount: number; // minor units
  currency: string;
  instrument: PaymentInstrument;
  payerIp?: string;
  payerEmail?: string;
  /** The payer's phone and country (ISO alpha-2), when the merchant gave them: some methods need them. */
  payerPhone?: string;
  payerCountry?: string;
  /** The payer's browser (some acquirers refuse an empty Accept header), when the payer is present. */
  browser?: BrowserAttributes;
  /** Where the payer comes back to the gateway after any page of the connector's (ACS, redirect). */
  returnUrl: string;
  /** Card-on-file context, when the card is stored for a chain or charged from one. */
  cardOnFile?: CardOnFileRequest;
  /**
   * The method-specific parameters the merchant sent with the payment, as recorded (Checkout: keyed
   * by method id, e.g. `card.descriptor`, `card.shipping`; S2S: the flat `parameters[...]`).
   */
  parameters?: Record<string, unknown>;
}

/** A step the payer must take before the connector decides: a page to open, with how to open it. */
export interface PayerRedirect {
  /** `3ds`: an issuer's authentication (ACS); `redirect`: any other provider page. */
  kind: '3ds' | 'redirect';
  url: string;
  method: 'GET' | 'POST';
  /** Form fields to post (3-D Secure v1: PaReq, MD, TermUrl); empty for a plain link. */
  params: Record<string, string>;
  /**
   * `qr`: the page shows a QR code the payer scans with a banking app; `qrCode` is its payload
   * (Base64), which a merchant may draw itself.
   */
  display?: 'qr';
  qrCode?: string;
  /** When the provider gives up on the payer (a QR code's lifetime, ISO-8601); absent: the gateway's timeout. */
  expiresAt?: string;
  /**
   * What the provider's page shows the payer (payment details to transfer to), for a page of the
   * gateway's own that stands in for it (Checkout's hosted page shows them).
   */
  instructions?: Record<string, string>;
  /**
   * `otp`: the provider's page takes a one-time code the payer was sent; a page of the gateway's
   * own may ask for it and hand it to completePayerAction as the return's `otp` field, for the
   * connector to verify.
   */
  collects?: 'otp';
}

/**
 * `reference`: the connector's own identifier of the transaction, quoted on every follow-up.
 * `rrn`: retrieval reference number of an authorization; `arn`: acquirer reference number of a
 * settlement. `threeDS`: the ACS's authentication result, on the answer to a completed challenge.
 * A `soft` decline (issuer unavailable, acquirer limits) may succeed with another connector: the
 * gateway cascades it to the merchant's next one.
 */
export type ConnectorOutcome =
  | {
      outcome: 'success';
      reference: string;
      descriptor: string;
      authCode?: string;
      rrn?: string;
      arn?: string;
      threeDS?: ThreeDSAttributes;
      /** The card-on-file reference, when the request asked for one. */
      cardOnFileId?: string;
      /** Set when the connector settled in another currency than the payment's. */
      conversion?: CurrencyConversion;
      /** Further data of the connector's about the settlement, passed on to the merchant as `extended_data`. */
      extendedData?: Record<string, string>;
    }
  | { outcome: 'declined'; reason: string; reference?: string; soft?: boolean; threeDS?: ThreeDSAttributes }
  /**
   * Accepted; the provider decides later and tells the gateway (a notification) or a status lookup
   * does. `instructions`: what the payer needs to act elsewhere, passed on to the merchant (a
   * crypto deposit's `crypto_address` and `crypto_network`); `expiresAt`: when the provider gives up.
   */
  | { outcome: 'pending'; reference: string; instructions?: Record<string, string>; expiresAt?: string }
  | { outcome: 'redirect'; reference: string; redirect: PayerRedirect }
  | { outcome: 'unknown'; detail: string };

/** A capture, void, refund or reversal of an earlier transaction, by the connector's reference. */
export interface FollowUpRequest {
  paymentId: string;
  operationId: string;
  /** The connector's reference of the payment's transaction. */
  reference: string;
  amount: number;
  currency: string;
}

export type FollowUpOutcome =
  /** `arn` on a settled capture. */
  | { outcome: 'success'; arn?: string }
  | { outcome: 'declined'; reason: string }
  | { outcome: 'unknown'; detail: string };

/**
 * The payer came back from a page of the connector's. `raw` is exactly what the browser sent to
 * the gateway's return address (query and form fields): untrusted until the connector verified it.
 */
export interface PayerReturn {
  paymentId: string;
  /** The connector's reference of the transaction awaiting the payer. */
  reference: string;
  kind: '3ds' | 'redirect';
  raw: { query: Record<string, string>; body: Record<string, string> };
  amount: number;
  currency: string;
  saleKind: PaymentKind;
  /** Card brand, when the instrument was a card (issuers' results depend on the scheme). */
  cardBrand?: string;
  /** The alternative method, when the instrument was one (its provider's page may take a one-time code). */
  method?: string;
}

/** `verified: false`: the return was forged, altered or belongs to another payment; nothing was decided. */
export type PayerReturnOutcome = { verified: false } | { verified: true; outcome: ConnectorOutcome };

/**
 * A reconciliation lookup: what became of a request whose answer was lost. The gateway gives what
 * it recorded of the original request (never card numbers), for connectors that find transactions
 * by the merchant's reference rather than their own.
 */
export interface StatusRequest {
  paymentId: string;
  /** The connector's reference, when its answer was recorded; null when it never arrived. */
  reference: string | null;
  kind: PaymentKind;
  amount: number;
  currency: string;
  /** The card's expiry and brand, when the instrument was a card; `panType` for a card out of a wallet token. */
  card?: { expMonth: string; expYear: string; brand?: string; panType?: 'DPAN' | 'FPAN' };
  /** The alternative method, its parameters and the payer's identifier, when the instrument was one. */
  method?: { method: string; parameters: Record<string, unknown>; identifier?: string };
  payerEmail?: string;
  returnUrl: string;
}

/**
 * A provider telling the gateway about a transaction later (a QR payment executed, a bank transfer
 * rejected). `verified: false` when the notification is not the provider's; otherwise the
 * transaction (by the gateway's payment id) and its outcome.
 */
export type InboundNotification =
  | { verified: false }
  | { verified: true; paymentId: string; outcome: ConnectorOutcome };

/** One field of an alternative method's parameters, as its connector takes it (see domain/payment/method-fields.ts). */
export type { MethodDescription } from '../../domain/payment/method-fields';

export interface Connector {
  readonly name: string;
  readonly capabilities: ConnectorCapabilities;
  /** An authorization (kind `authorization`) or a sale, debit or other charge. */
  authorize(request: PaymentRequest): Promise<ConnectorOutcome>;
  /** Pays money out (a Checkout credit). No payer authentication takes part: never `redirect`. */
  payout(request: PaymentRequest): Promise<ConnectorOutcome>;
  /** Finishes a transaction after the payer came back; the connector verifies the raw return. */
  completePayerAction(payerReturn: PayerReturn): Promise<PayerReturnOutcome>;
  capture(request: FollowUpRequest): Promise<FollowUpOutcome>;
  void(request: FollowUpRequest): Promise<FollowUpOutcome>;
  refund(request: FollowUpRequest): Promise<FollowUpOutcome>;
  /** Releases a hold (an authorization that will not be captured). */
  reverse(request: FollowUpRequest): Promise<FollowUpOutcome>;
  /** Asks for the outcome of an earlier authorization, sale or payout; never starts a new one. */
  status(request: StatusRequest): Promise<ConnectorOutcome>;
  /** Asks for the outcome of an earlier capture, void, refund or reversal; never repeats it. */
  followUpStatus(kind: 'capture' | 'void' | 'refund' | 'reversal', request: FollowUpRequest): Promise<FollowUpOutcome>;
  /** A provider's later notification, as it arrived (raw body and headers); the connector authenticates it. */
  parseNotification(raw: { body: string; headers: Record<string, string> }): Promise<InboundNotification>;
  /**
   * The parameters an alternative method of this connector's (one of `capabilities.methods`) takes:
   * its catalogue entry, which the gateway validates a request against before anything is recorded.
   * Absent, or null for a method: the method takes no parameters.
   */
  describeMethod?(method: string): MethodDescription | null;
}
