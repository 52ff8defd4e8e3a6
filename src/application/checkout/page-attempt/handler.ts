/** The payer submitted the hosted page's form: with a card, or with an alternative method (method.ts). */
import { CARD_METHOD } from '../../../domain/checkout/session-methods';
import type { PayOutcome } from '../attempt/command';
import { attempt } from '../attempt/handler';
import { needsBillingState } from '../billing-state';
import { cardOf } from '../card-input';
import type { CheckoutDeps } from '../deps';
import { payerOf } from '../payer-snapshot';
import type { FieldProblem } from '../problems';
import { loadSession } from '../session-lookup';
import type { PayInput } from './command';
import { payWithMethod } from './method';

export async function pay(deps: CheckoutDeps, sessionId: string, input: PayInput, correlationId: string): Promise<PayOutcome | null> {
  const loaded = await loadSession(deps, sessionId);
  if (!loaded) return null;
  const { session, version } = loaded;
  const method = input.method ?? CARD_METHOD;
  if (method !== CARD_METHOD) return payWithMethod(deps, loaded, method, input, correlationId);
  const problems: FieldProblem[] = [];
  const card = await cardOf(deps, session, input.card ?? { expMonth: '', expYear: '' }, problems);
  const country = session.billingAddress.country ?? input.billing?.country;
  const billingState = needsBillingState(country) ? (session.billingAddress.state ?? input.billing?.state?.trim()) : undefined;
  if (needsBillingState(country) && !billingState) problems.push({ field: 'billing_state', problem: 'missing' });
  if (problems.length || !card) return { kind: 'invalid', problems };
  const payer = payerOf(session, { ip: input.payerIp, email: input.email, country, state: billingState });
  return attempt(deps, { session, version, paying: { card }, payer, correlationId, browser: input.browser });
}
