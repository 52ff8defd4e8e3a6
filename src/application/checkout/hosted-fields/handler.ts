import { paymentRefusal } from '../../../domain/checkout/session-decide';
import { sessionIdOfToken } from '../../../domain/checkout/session-token';
import type { ExistingPayment } from '../../../domain/payment/state';
import type { SaleCard } from '../../payments';
import { attempt } from '../attempt/handler';
import { needsBillingState } from '../billing-state';
import type { CheckoutDeps } from '../deps';
import { latestPayment } from '../latest-payment';
import { payerOf } from '../payer-snapshot';
import { loadSession } from '../session-lookup';
import { HostedFieldsError, type ProcessingRequest } from './command';

/**
 * `POST /api/v1/processing/{purchase,debit}/card`: pays with the card the iframes handed over, and
 * answers with the attempt's payment (null: none was started). Throws HostedFieldsError for a
 * request that cannot be processed (bad token, wrong endpoint, no card data).
 */
export async function processHostedFields(
  deps: CheckoutDeps,
  token: unknown,
  operation: 'purchase' | 'debit',
  input: ProcessingRequest,
  correlationId: string,
): Promise<ExistingPayment | null> {
  const sessionId = sessionIdOfToken(deps.tokenSecret, token);
  const loaded = sessionId ? await loadSession(deps, sessionId) : null;
  if (!loaded?.session.hostedFields) throw new HostedFieldsError({ problem: 'invalid_token' });
  const { session, version } = loaded;
  if (session.operation !== operation) throw new HostedFieldsError({ problem: 'wrong_operation', operation: session.operation });
  const refusal = paymentRefusal(session, (await latestPayment(deps, session))?.phase ?? null, deps.clock.now().toISOString());
  if (refusal) throw new HostedFieldsError({ problem: 'session', code: refusal.code });
  const held = await deps.pendingCards.take(session.sessionId);
  if (!held) throw new HostedFieldsError({ problem: 'no_card_data' });
  const card: SaleCard = { kind: 'number', number: held.number, expMonth: held.expMonth, expYear: held.expYear, cvv: held.cvv, holder: input.name };
  const billing = { ...session.billingAddress, ...(input.billing ?? {}) };
  const payer = payerOf(
    { ...session, billingAddress: billing },
    { ip: input.callerIp, email: input.email, birthDate: input.birthDay, country: billing.country, state: needsBillingState(billing.country) ? billing.state : undefined },
  );
  const outcome = await attempt(deps, { session, version, paying: { card }, payer, correlationId, browser: input.browser });
  return outcome.kind === 'done' ? outcome.payment : null;
}
