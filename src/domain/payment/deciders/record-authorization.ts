/** RecordAuthorization: the connector's first answer, which may cascade a soft decline to the route's next connector. */
import { DomainError } from '../../errors';
import type { AuthorizationResult, RecordAuthorization } from '../commands';
import { declineCodeOf } from '../decline-code';
import type { PaymentEvent } from '../events';
import type { ExistingPayment } from '../payment-state';
import { authorizationEvents, referenceOf } from './authorization-events';

export function recordAuthorization(command: RecordAuthorization, s: ExistingPayment): PaymentEvent[] {
  const { result, now } = command.data;
  if (s.phase !== 'initiated' && s.phase !== 'outcome_unknown') {
    // A provider may notify before its own answer to the request is recorded: what it notified
    // stands, but a page it then names for the payer (a QR code) is still shown.
    if (s.method && s.phase === 'awaiting_provider' && result.outcome === 'redirect') return authorizationEvents(s, result, now, 'authorization');
    if (s.method) return [];
    throw new DomainError('unexpected_outcome', `Authorization already decided (${s.phase})`);
  }
  return cascadeOf(s, result, now) ?? authorizationEvents(s, result, now, 'authorization');
}

/**
 * A soft decline of the first answer goes on to the next connector of the payment's route, when
 * there is one: the payer is not involved yet. After a payer action it is final (the payer
 * authenticated with this connector), and a hard decline is final everywhere.
 */
function cascadeOf(s: ExistingPayment, result: AuthorizationResult, now: string): PaymentEvent[] | null {
  if (result.outcome !== 'declined' || !result.soft || !s.route || !s.connector) return null;
  const next = s.route[s.route.indexOf(s.connector) + 1];
  if (next === undefined || s.route.indexOf(s.connector) < 0) return null;
  return [
    {
      type: 'PaymentCascaded',
      data: {
        paymentId: s.paymentId,
        fromConnector: s.connector,
        toConnector: next,
        reason: result.reason,
        code: declineCodeOf('authorization', result.reason),
        ...referenceOf(result),
        cascadedAt: now,
      },
    },
  ];
}
