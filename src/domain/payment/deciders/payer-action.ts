/** CompletePayerAction and ExpirePayerAction: the payer came back from the ACS or a provider's page, or never did. */
import { DomainError } from '../../errors';
import type { CompletePayerAction, ExpirePayerAction } from '../commands';
import { declineCodeOf } from '../decline-code';
import type { PayerReturnData, PaymentEvent } from '../events';
import type { ExistingPayment } from '../payment-state';
import { authorizationEvents } from './authorization-events';

export function completePayerAction(command: CompletePayerAction, s: ExistingPayment): PaymentEvent[] {
  if (s.phase !== 'awaiting_3ds' && s.phase !== 'awaiting_redirect') {
    throw new DomainError('unexpected_outcome', `No payer action is awaited (${s.phase})`);
  }
  const result = command.data.result;
  // The acquirer may not ask for a second challenge once the payer came back.
  if (result.outcome === 'challenge' || result.outcome === 'redirect') {
    throw new DomainError('unexpected_outcome', 'A completed payer action cannot start another one');
  }
  const returned: PayerReturnData = {
    ...(command.data.threeDS ? { threeDS: command.data.threeDS } : {}),
    ...(command.data.browser ? { browser: command.data.browser } : {}),
  };
  return authorizationEvents(s, result, command.data.now, s.phase === 'awaiting_3ds' ? '3ds' : 'redirect', returned);
}

export function expirePayerAction(command: ExpirePayerAction, s: ExistingPayment): PaymentEvent[] {
  if (s.phase !== 'awaiting_3ds' && s.phase !== 'awaiting_redirect' && s.phase !== 'awaiting_provider') {
    throw new DomainError('unexpected_outcome', `No payer action is awaited (${s.phase})`);
  }
  const { now, reason } = command.data;
  // A provider that gave the payer longer than the gateway's timeout is waited for.
  if (s.expiresAt !== undefined && Date.parse(now) < Date.parse(s.expiresAt)) {
    throw new DomainError('unexpected_outcome', `The payer's step lasts until ${s.expiresAt}`);
  }
  return [{ type: 'PaymentDeclined', data: { paymentId: s.paymentId, reason, code: declineCodeOf('timeout', reason), stage: 'timeout', declinedAt: now } }];
}
