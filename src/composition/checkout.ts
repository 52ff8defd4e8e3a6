/** Checkout: hosted payment sessions, the hosted page and the hosted fields. */
import { CheckoutService } from '../application/checkout/checkout-service';
import type { MerchantService } from '../application/merchant-service';
import type { PaymentService } from '../application/payments';
import type { ScheduleService } from '../application/schedules/schedule-service';
import type { CardData } from './card-data';
import type { Core } from './core';
import { derivedSecret } from './keys';

export interface CheckoutParts {
  payments: PaymentService;
  merchants: MerchantService;
  schedules: ScheduleService;
  cards: CardData;
}

export function wireCheckout({ config, store, clock, key }: Core, { payments, merchants, schedules, cards }: CheckoutParts): CheckoutService {
  return new CheckoutService({
    store,
    payments,
    merchants,
    vault: cards.vault,
    clock,
    baseUrl: config.publicBaseUrl,
    // Derived, so every API process verifies every other's tokens.
    tokenSecret: derivedSecret(key, 'hosted-fields-tokens'),
    pendingCards: cards.pendingCards,
    schedules,
  });
}
