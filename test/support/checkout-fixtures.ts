/** What a Checkout session holds, for tests below the HTTP API: one shape, each test overriding what it is about. */
import type { CheckoutSessionCreated } from '../../src/domain/checkout/session-events';

export type SessionData = CheckoutSessionCreated['data'];

/** A purchase session of 10.50 USD that returns to https://shop.example, created at `createdAt`, valid for an hour. */
export function sessionData(overrides: Partial<SessionData> = {}): SessionData {
  const createdAt = overrides.createdAt ?? '2030-05-01T12:00:00.000Z';
  return {
    sessionId: '6f1c2b9e-4d3a-4c8e-9a7b-2f5e8d1c0a93',
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
    expiresAt: new Date(Date.parse(createdAt) + 60 * 60_000).toISOString(),
    createdAt,
    ...overrides,
  };
}
