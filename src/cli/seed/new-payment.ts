/** A new seeded payment: a scenario, an amount, a card and a payer drawn from the mix. */
import { randomUUID } from 'node:crypto';
import { newId } from '../../application/new-id';
import { detectBrand, maskPan } from '../../domain/card';
import { formatMinor } from '../../domain/money';
import type { PaymentKind } from '../../domain/payment/events';
import { initialPaymentState } from '../../domain/payment/state';
import { plan } from './plan';
import { expiryFor, SCENARIOS } from './scenarios';
import { weighted, type Dice } from './seeded-random';
import type { InitiatePayment, SeededPayment } from './seeded-payment';

const CARDS = ['4111111111111111', '5555555555554444', '4000056655665556', '5200828282828210', '378282246310005', '6011111111111117'];
const CURRENCIES: Array<{ code: string; weight: number; min: number; max: number }> = [
  { code: 'USD', weight: 40, min: 199, max: 45_000 },
  { code: 'EUR', weight: 30, min: 199, max: 40_000 },
  { code: 'GBP', weight: 15, min: 199, max: 35_000 },
  { code: 'JPY', weight: 10, min: 300, max: 60_000 },
  { code: 'KWD', weight: 5, min: 1_000, max: 150_000 },
];
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Radia', 'Ken'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus', 'Perlman', 'Thompson'];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'NL', 'JP', 'KW', 'ES'];

// The draws are made in one fixed order: a seed then gives the same mix on every run.
function payerOf({ pick, between }: Dice, first: string, last: string) {
  return {
    firstName: first,
    lastName: last,
    email: `${first}.${last}${between(1, 999)}@example.com`.toLowerCase(),
    phone: `+1555${String(between(0, 9_999_999)).padStart(7, '0')}`,
    country: pick(COUNTRIES),
    city: 'Springfield',
    address: `${between(1, 999)} Main Street`,
    zip: String(between(10_000, 99_999)),
    ip: `198.51.100.${between(1, 254)}`,
  };
}

/** A payment of `merchantId` arriving at simulated time `at`, with every request it will make. */
export function newPayment(dice: Dice, merchantId: string, at: number): SeededPayment {
  const { random, pick, between } = dice;
  const scenario = weighted(random, SCENARIOS);
  const currency = weighted(
    random,
    CURRENCIES.map((c) => [c, c.weight] as const),
  );
  const amount = between(currency.min, currency.max);
  const pan = pick(CARDS);
  const first = pick(FIRST_NAMES);
  const last = pick(LAST_NAMES);
  const id = newId();
  const kind: PaymentKind = scenario.startsWith('auth') ? 'authorization' : 'sale';
  const expiry = expiryFor(scenario, random);
  const payer = payerOf(dice, first, last);
  const initiate: InitiatePayment = {
    type: 'InitiatePayment',
    data: {
      paymentId: id,
      merchantId,
      channel: 's2s_card',
      kind,
      orderId: `order-${randomUUID()}`,
      orderDescription: `Order of ${between(1, 5)} items`,
      currency: currency.code,
      amount,
      amountText: formatMinor(amount, currency.code),
      card: { mask: maskPan(pan), brand: detectBrand(pan), expMonth: expiry.month, expYear: expiry.year, token: null },
      payer,
      termUrl3ds: 'https://shop.example/3ds-return',
      notificationUrl: null,
      customData: null,
      parameters: null,
      recurringInit: false,
      connector: 'sandbox',
      now: '',
    },
  };
  const steps = plan(scenario, at, amount, currency.code, initiate, { between, brand: detectBrand(pan) });
  return { id, state: initialPaymentState(), version: null, steps, next: 0 };
}
