/** Page models of the hosted payment page for tests of its rendering and routes, without a store. */
import type { CheckoutPageModel } from '../../src/application/checkout/checkout-service';
import type { ExistingSession } from '../../src/domain/checkout/session-state';
import { sessionData } from '../support/checkout-fixtures';

export const SESSION_ID = '6f1c2b9e-4d3a-4c8e-9a7b-2f5e8d1c0a93';
export const NOW = new Date('2030-05-01T12:00:00.000Z');

export function sessionOf(overrides: Partial<ExistingSession> = {}): ExistingSession {
  const { exists: _exists, status, attempts, updatedAt, ...data } = overrides;
  return {
    ...sessionData({
      sessionId: SESSION_ID,
      createdAt: NOW.toISOString(),
      expiresAt: new Date(NOW.getTime() + 59 * 60_000 + 30_000).toISOString(),
      ...data,
    }),
    exists: true,
    status: status ?? 'open',
    attempts: attempts ?? [],
    updatedAt: updatedAt ?? NOW.toISOString(),
  };
}

export function modelOf(overrides: Partial<CheckoutPageModel> = {}, session: Partial<ExistingSession> = {}): CheckoutPageModel {
  const s = sessionOf(session);
  return {
    session: s,
    merchantName: 'Corner Bookshop',
    view: 'form',
    lastDecline: null,
    attemptsLeft: 5,
    needs: { cardNumber: !s.cardToken, cvv: s.operation !== 'credit', billingState: ['CA', 'US', 'JP', 'AU', 'IN'].includes(s.billingAddress.country ?? '') },
    storedCardMask: null,
    holderName: 'John Doe',
    methods: [{ method: 'card', label: 'Card', collect: [] }],
    ...overrides,
  };
}
