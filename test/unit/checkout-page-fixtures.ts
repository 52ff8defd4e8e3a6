/** Page models of the hosted payment page for tests of its rendering and routes, without a store. */
import type { CheckoutPageModel } from '../../src/application/checkout/checkout-service';
import type { ExistingSession } from '../../src/domain/checkout/session-state';

export const SESSION_ID = '6f1c2b9e-4d3a-4c8e-9a7b-2f5e8d1c0a93';
export const NOW = new Date('2030-05-01T12:00:00.000Z');

export function sessionOf(overrides: Partial<ExistingSession> = {}): ExistingSession {
  return {
    exists: true,
    sessionId: SESSION_ID,
    merchantId: 'merchant-1',
    operation: 'purchase',
    auth: false,
    order: { number: 'ORDER-7', amount: 1050, amountText: '10.50', currency: 'USD', description: 'Two paperbacks' },
    urls: { success: 'https://shop.example/success', cancel: 'https://shop.example/cancel', expiry: null, error: null, return: null },
    urlTarget: null,
    methods: ['card'],
    parameters: null,
    customer: { name: 'John Doe', email: 'doe@example.com' },
    billingAddress: { country: 'GB' },
    customData: null,
    notificationUrl: null,
    recurringInit: false,
    reqToken: false,
    vatCalc: false,
    schedule: null,
    cardToken: null,
    payee: null,
    hostedFields: false,
    expiresAt: new Date(NOW.getTime() + 59 * 60_000 + 30_000).toISOString(),
    createdAt: NOW.toISOString(),
    status: 'open',
    attempts: [],
    updatedAt: NOW.toISOString(),
    ...overrides,
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
    ...overrides,
  };
}
