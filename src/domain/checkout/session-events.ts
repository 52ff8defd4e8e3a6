/**
 * Events of one Checkout session stream (`checkout-session-<session id>`). A session is the
 * merchant's request to be paid (or to pay out) through the hosted page or hosted payment fields;
 * each attempt the payer makes is a payment of its own (`payment-<uuid>`), linked here. Card data
 * never appears: the session holds what the merchant sent, never what the payer typed.
 */
import type { CheckoutOperation } from '../payment/events';

export const CHECKOUT_SESSION_EVENT_SCHEMA_VERSION = 1;

export type LinkTarget = '_blank' | '_self' | '_parent' | '_top';
export const LINK_TARGETS: readonly LinkTarget[] = ['_blank', '_self', '_parent', '_top'];

export interface SessionOrder {
  number: string;
  /** Minor units of `currency`. */
  amount: number;
  /** `order.amount` byte for byte: it is hash input. */
  amountText: string;
  currency: string;
  description: string;
}

export interface SessionUrls {
  success: string | null;
  cancel: string | null;
  expiry: string | null;
  error: string | null;
  /** Hosted payment fields: where the payer lands after 3DS. */
  return: string | null;
}

export interface SessionCustomer {
  name?: string;
  email?: string;
  birthDate?: string;
  /** `customer.ip` of a session-token request (else the payer's or caller's IP at payment time). */
  ip?: string;
}

export interface SessionAddress {
  country?: string;
  state?: string;
  city?: string;
  address?: string;
  zip?: string;
  phone?: string;
  houseNumber?: string;
  district?: string;
}

export interface SessionSchedule {
  scheduleId: string;
  startDate?: string;
  paymentAmountText?: string;
}

/** Credit recipient details (a `credit` session or a card credit request). */
export interface SessionPayee {
  firstName?: string;
  lastName?: string;
  name?: string;
  billingAddress?: SessionAddress;
}

export interface CheckoutSessionCreated {
  type: 'CheckoutSessionCreated';
  data: {
    sessionId: string;
    merchantId: string;
    operation: CheckoutOperation;
    /** `auth: true` on a purchase: authorize only (DMS). */
    auth: boolean;
    order: SessionOrder;
    urls: SessionUrls;
    /** The merchant's `url_target` (the MID's Override Link Target wins over it when set). */
    urlTarget: LinkTarget | null;
    methods: string[];
    parameters: Record<string, unknown> | null;
    customer: SessionCustomer;
    billingAddress: SessionAddress;
    customData: Record<string, unknown> | null;
    notificationUrl: string | null;
    recurringInit: boolean;
    reqToken: boolean;
    vatCalc: boolean;
    schedule: SessionSchedule | null;
    /** A stored card to credit (credit only): the payer confirms its expiry, nothing else. */
    cardToken: string | null;
    payee: SessionPayee | null;
    /** Created by `/session/token` for hosted payment fields rather than by `/session`. */
    hostedFields: boolean;
    expiresAt: string;
    createdAt: string;
  };
}

/**
 * The payer submitted the page: payment `paymentId` is attempt number `attempt` of the session.
 * `method`: the alternative method it pays with; absent for the card.
 */
export interface CheckoutPaymentStarted {
  type: 'CheckoutPaymentStarted';
  data: { sessionId: string; paymentId: string; attempt: number; method?: string; startedAt: string };
}

export interface CheckoutSessionCancelled {
  type: 'CheckoutSessionCancelled';
  data: { sessionId: string; cancelledAt: string };
}

/** Recorded when the payer (or a request) meets the session after `session_expiry` ran out. */
export interface CheckoutSessionExpired {
  type: 'CheckoutSessionExpired';
  data: { sessionId: string; expiredAt: string };
}

export type CheckoutSessionEvent =
  | CheckoutSessionCreated
  | CheckoutPaymentStarted
  | CheckoutSessionCancelled
  | CheckoutSessionExpired;

export const checkoutSessionStreamId = (sessionId: string): string => `checkout-session-${sessionId}`;
