/**
 * RecordProviderNotification. It decides a payment still waiting for its provider (or for its
 * answer); on a payment already decided, and for anything that is not a decision (still pending,
 * a page, no answer), it records nothing: duplicates and late or out-of-order notifications are
 * harmless. It never sends the payer anywhere and never cascades (the payer took part).
 */
import type { RecordProviderNotification } from '../commands';
import type { PaymentEvent } from '../events';
import type { ExistingPayment } from '../payment-state';
import { authorizationEvents } from './authorization-events';

export function recordProviderNotification(command: RecordProviderNotification, s: ExistingPayment): PaymentEvent[] {
  const { result, now } = command.data;
  switch (s.phase) {
    case 'initiated':
    case 'outcome_unknown':
      // Accepted or decided before the connector's own answer was recorded.
      if (result.outcome !== 'success' && result.outcome !== 'declined' && result.outcome !== 'pending') return [];
      return authorizationEvents(s, result, now, 'authorization');
    case 'awaiting_redirect':
    case 'awaiting_provider':
      if (result.outcome !== 'success' && result.outcome !== 'declined') return [];
      return authorizationEvents(s, result, now, s.phase === 'awaiting_redirect' ? 'redirect' : 'authorization');
    default:
      // Decided (or the payer is with the ACS, whose return decides): nothing changes.
      return [];
  }
}
