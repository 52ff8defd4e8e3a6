/** How a session is reached: its hosted page, and the token of its hosted payment fields. */
import { sessionTokenFor } from '../../domain/checkout/session-token';
import type { CheckoutServiceDeps } from './deps';

export const pageUrl = (deps: Pick<CheckoutServiceDeps, 'baseUrl'>, sessionId: string): string => `${deps.baseUrl}/checkout/${sessionId}`;

/** The `Token` header of the merchant's processing request. */
export const tokenOf = (deps: Pick<CheckoutServiceDeps, 'tokenSecret'>, sessionId: string): string => sessionTokenFor(deps.tokenSecret, sessionId);
