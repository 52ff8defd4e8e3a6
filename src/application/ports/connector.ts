/**
 * One interface for every acquirer connector. Outcomes are data: the domain decides what they mean.
 * `unknown` means the acquirer did not answer in a way we can trust (timeout, broken connection):
 * the payment is reconciled later with `status`, never blindly retried.
 */
import type { BrowserAttributes, PaymentKind, ThreeDSAttributes } from '../../domain/payment/events';

export interface CardData {
  /** The full number lives only in memory for the duration of the call. */
  number: string;
  expMonth: string; // MM
  expYear: string; // YYYY
  /** Never stored; absent for stored-card (token) payments. */
  cvv?: string;
  holder?: string;
}

export interface AuthorizeRequest {
  paymentId: string;
  merchantId: string;
  kind: PaymentKind;
  amount: number; // minor units
  currency: string;
  card: CardData;
  payerIp?: string;
  /** The payer's browser (some acquirers refuse an empty Accept header), when the payer is present. */
  browser?: BrowserAttributes;
  /** Base URL of the gateway, for the sandbox's own ACS and redirect pages. */
  gatewayBaseUrl: string;
  /** Card-on-file context, when the card is stored for a chain or charged from one. */
  cardOnFile?: CardOnFileRequest;
}

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

/**
 * `rrn`: retrieval reference number of an authorization; `arn`: acquirer reference number of a
 * settlement. `threeDS`: the ACS's authentication result, on the answer to a completed challenge.
 */
export type ConnectorOutcome =
  | {
      outcome: 'success';
      descriptor: string;
      authCode?: string;
      rrn?: string;
      arn?: string;
      threeDS?: ThreeDSAttributes;
      /** The card-on-file reference, when the request asked for one. */
      cardOnFileId?: string;
    }
  | { outcome: 'declined'; reason: string; threeDS?: ThreeDSAttributes }
  | {
      outcome: 'pending';
      /** The payer must act before the acquirer decides. */
      action:
        | { kind: '3ds'; acsUrl: string; paReq: string; md: string; termUrl: string }
        | { kind: 'redirect'; redirectUrl: string };
    }
  | { outcome: 'unknown'; detail: string };

export interface FollowUpRequest {
  paymentId: string;
  operationId: string;
  amount: number;
  currency: string;
  /** Card expiry drives sandbox outcomes; a real connector would use its own reference instead. */
  card: { expMonth: string; expYear: string };
}

export type FollowUpOutcome =
  /** `arn` on a settled capture. */
  | { outcome: 'success'; arn?: string }
  | { outcome: 'declined'; reason: string }
  | { outcome: 'unknown'; detail: string };

/** What the payer did on the ACS or redirect page, as reported back to the gateway. */
export interface PayerActionResult {
  paymentId: string;
  kind: '3ds' | 'redirect';
  /** true when the payer approved (ACS "approve" / redirect "continue"). */
  approved: boolean;
  card: { expMonth: string; expYear: string; brand?: string };
  amount: number;
  currency: string;
  saleKind: PaymentKind;
}

/** Reconciliation: what became of a request whose answer was lost (timeout, crash). */
export interface AuthorizationStatusRequest {
  paymentId: string;
  kind: PaymentKind;
  amount: number;
  currency: string;
  card: { expMonth: string; expYear: string };
  gatewayBaseUrl: string;
}

export interface Connector {
  readonly name: string;
  authorize(request: AuthorizeRequest): Promise<ConnectorOutcome>;
  /**
   * Pays money out to the card (a Checkout credit). No payer authentication takes part, so the
   * outcome is success, declined or unknown, never pending.
   */
  payout(request: AuthorizeRequest): Promise<ConnectorOutcome>;
  /** Finishes a payment after the payer came back from the ACS or redirect page. */
  completePayerAction(result: PayerActionResult): Promise<ConnectorOutcome>;
  capture(request: FollowUpRequest): Promise<FollowUpOutcome>;
  void(request: FollowUpRequest): Promise<FollowUpOutcome>;
  refund(request: FollowUpRequest): Promise<FollowUpOutcome>;
  reverse(request: FollowUpRequest): Promise<FollowUpOutcome>;
  /** Asks for the outcome of an earlier authorization; never starts a new one. */
  authorizationStatus(request: AuthorizationStatusRequest): Promise<ConnectorOutcome>;
  /** Asks for the outcome of an earlier capture, void, refund or reversal; never repeats it. */
  followUpStatus(kind: 'capture' | 'void' | 'refund' | 'reversal', request: FollowUpRequest): Promise<FollowUpOutcome>;
}
