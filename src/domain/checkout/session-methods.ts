/**
 * Which payment methods a Checkout session offers on the hosted page (spec, session `methods`;
 * docs/reference/s2s-apm.md#sandbox-methods: the sandbox's brands are Checkout methods too). Pure: the caller says which
 * methods the merchant could be paid with for this session (enabled for it, and one of its
 * connectors able to take the payment), and this decides what the session offers and what is wrong
 * with the request.
 *
 * - `methods` sent: each must be one of those; any other is refused, naming it and what is available.
 * - `methods` not sent: everything available, card first, but the wallets: a wallet is offered
 *   only where the merchant names it, as its button needs the merchant's page to show it (or, in
 *   the sandbox, the hosted page's simulated wallet sheet).
 * - A method that only pays out (CREDIT2VIRTUAL) is never offered: named, it is refused saying so.
 * - An alternative method is offered on a purchase of the hosted page only: a debit stores the card
 *   it pays with, a credit pays out to a card, and hosted payment fields take a card typed into
 *   their frames.
 * - `parameters.<method_id>` is checked exactly as S2S APM checks `parameters[...]` (the method's
 *   catalogue entry), its problems named `parameters.<method_id>.<field>`. A method the merchant
 *   named (or sent parameters for) with parameters that do not pass is refused; one it did not name
 *   is simply not offered while it lacks what the merchant must send. Fields "collected from the
 *   payer when absent" are asked on the hosted page.
 */
import { isWalletMethod } from '../merchant/methods';
import type { CheckoutOperation } from '../payment/events';
import { methodParameterIssues, type MethodDescription, type MethodPayer } from '../payment/method-fields';

/** The card, which every Checkout session has offered since sessions existed. */
export const CARD_METHOD = 'card';

/** A method a session could be paid with: the card (no description), or an alternative method and what it takes. */
export interface AvailableMethod {
  method: string;
  description: MethodDescription | null;
}

export interface SessionMethodsInput {
  /** `methods` as the merchant sent it; undefined when it sent none. */
  requested?: readonly string[];
  operation: CheckoutOperation;
  hostedFields: boolean;
  /** In the order the page lists them (card first). */
  available: readonly AvailableMethod[];
  /** The session's `parameters`, keyed by method identifier. */
  parameters: Record<string, unknown> | null;
  /** What the session says of the payer (a phone some methods fall back to, the country that decides what is collected). */
  payer: MethodPayer;
}

export interface SessionMethodProblem {
  field: string;
  message: string;
}

export interface SessionMethods {
  methods: string[];
  problems: SessionMethodProblem[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether an alternative method can pay this kind of session at all (whatever the connectors say). */
export const takesAlternativeMethods = (session: { operation: CheckoutOperation; hostedFields: boolean }): boolean =>
  session.operation === 'purchase' && !session.hostedFields;

/** What the session offers, and every problem of `methods` and of the chosen methods' `parameters`. */
export function sessionMethods(input: SessionMethodsInput): SessionMethods {
  // A payout-only method takes no payer's money: a payer choosing it could only be declined.
  const paysOut = (m: AvailableMethod): boolean => m.description?.payout !== undefined;
  const offerable = input.available.filter((m) => !paysOut(m) && (m.method === CARD_METHOD || takesAlternativeMethods(input)));
  const byId = new Map(offerable.map((m) => [m.method, m]));
  const payoutOnly = new Set(input.available.filter(paysOut).map((m) => m.method));
  const problems: SessionMethodProblem[] = [];
  const chosen: AvailableMethod[] = [];
  if (input.requested) {
    input.requested.forEach((method, i) => {
      const found = byId.get(method);
      if (!found) {
        const names = offerable.map((m) => m.method).join(', ') || 'none';
        const why = payoutOnly.has(method) ? ': it only pays out' : '';
        problems.push({ field: `methods[${i}]`, message: `The payment method "${method}" is not available${why}. Available: ${names}.` });
      } else if (!chosen.includes(found)) {
        chosen.push(found);
      }
    });
  }
  const methods: string[] = [];
  for (const offer of input.requested ? chosen : offerable.filter((m) => !isWalletMethod(m.method))) {
    const issues = parameterProblems(offer, input.parameters, input.payer);
    const sent = input.parameters?.[offer.method] !== undefined;
    // Not named by the merchant and lacking what it must send: simply not offered.
    if (issues.length && !input.requested && !sent) continue;
    problems.push(...issues);
    methods.push(offer.method);
  }
  return { methods, problems };
}

function parameterProblems(offer: AvailableMethod, parameters: Record<string, unknown> | null, payer: MethodPayer): SessionMethodProblem[] {
  // The card's set is checked against the spec's card catalogue elsewhere (card-parameters.ts).
  if (!offer.description) return [];
  const field = `parameters.${offer.method}`;
  const value = parameters?.[offer.method];
  if (value !== undefined && !isObject(value)) return [{ field, message: 'This value should be of type object.' }];
  return methodParameterIssues(offer.description, (value as Record<string, unknown> | undefined) ?? null, payer).map((issue) => ({
    field: [field, ...issue.path].join('.'),
    message: issue.message,
  }));
}
