import { paymentRefusal } from '../../../domain/checkout/session-decide';
import { cardOf, type CardInput } from '../card-input';
import type { CheckoutDeps } from '../deps';
import { latestPayment } from '../latest-payment';
import type { CardDataAnswer, FieldProblem } from '../problems';
import { sessionByToken } from '../session-lookup';

/** Hosted payment fields: the gateway's iframes hand over what the payer typed, held until the merchant's processing request. */
export async function holdCardData(deps: CheckoutDeps, token: unknown, input: CardInput): Promise<CardDataAnswer> {
  const session = await sessionByToken(deps, token);
  if (!session || !session.hostedFields) return { held: false, refusal: 'invalid_token' };
  const refusal = paymentRefusal(session, (await latestPayment(deps, session))?.phase ?? null, deps.clock.now().toISOString());
  if (refusal) return { held: false, refusal: 'session', code: refusal.code };
  const problems: FieldProblem[] = [];
  // The cardholder's name arrives later, as `name` of the merchant's processing request.
  const card = await cardOf(deps, session, input, problems, { holderRequired: false });
  if (!card || card.kind !== 'number' || problems.length) return { held: false, refusal: 'invalid_card', problems };
  await deps.pendingCards.hold(session.sessionId, {
    number: card.number,
    expMonth: card.expMonth,
    expYear: card.expYear,
    cvv: card.cvv,
    holder: card.holder,
  });
  return { held: true };
}
