/**
 * What a merchant's payout client sends: a signed `CREDIT2VIRTUAL` (docs/reference/hashes.md#payouts) to a
 * mobile-money wallet (`sb-momo`) or the email variant (`sb-payout-email`), and how a test funds
 * the merchant's payout balance first (an operator's top-up).
 */
import { randomUUID } from 'node:crypto';
import { credit2VirtualHash } from '../../src/domain/signatures';
import type { Fields, HttpResult, TestGateway, TestMerchant } from './gateway-harness';

/** A Ghana payout of 10.00 GHS to an MTN number, decided at once by the sandbox (success@gmail.com). */
export function payoutFields(merchant: TestMerchant, overrides: Fields = {}): Fields {
  const fields: Fields = {
    action: 'CREDIT2VIRTUAL',
    client_key: merchant.client_key,
    brand: 'sb-momo',
    order_id: `payout-${randomUUID()}`,
    order_amount: '10.00',
    order_currency: 'GHS',
    order_description: 'Payout test',
    'parameters[mobile_money_operator]': 'mtn-gh',
    'parameters[mobile_number]': '233241234567',
    'parameters[customer_email]': 'success@gmail.com',
    payee_first_name: 'Ama',
    payee_last_name: 'Mensah',
    payee_email: 'ama@example.com',
    ...overrides,
  };
  for (const [name, value] of Object.entries(fields)) if (value === undefined) delete fields[name];
  if (!('hash' in overrides)) {
    fields.hash = credit2VirtualHash({
      orderId: fields.order_id ?? '',
      orderAmount: fields.order_amount ?? '',
      orderCurrency: fields.order_currency ?? '',
      password: merchant.password,
    });
  }
  return fields;
}

/** The payout variant paying to an email (`sb-payout-email`), every mandatory parameter valid. */
export function emailPayoutFields(merchant: TestMerchant, overrides: Fields = {}): Fields {
  return payoutFields(merchant, {
    brand: 'sb-payout-email',
    order_amount: '25.00',
    order_currency: 'USD',
    order_description: 'Refund of order 42',
    'parameters[mobile_money_operator]': undefined,
    'parameters[mobile_number]': undefined,
    'parameters[customer_email]': undefined,
    'parameters[CustomerName]': 'Ama Mensah',
    'parameters[Email]': 'success@gmail.com',
    'parameters[SecurityQuestion]': 'Name of your first pet?',
    'parameters[SecurityQuestionAnswer]': 'Kofi',
    'parameters[account_uuid]': '3f1c9a52-6d2e-4b7a-9c1e-2a4b6d8f0e13',
    'parameters[fee_calculation_method]': 'account_level',
    ...overrides,
  });
}

export const payout = (g: TestGateway, merchant: TestMerchant, overrides: Fields = {}): Promise<HttpResult> => g.post(payoutFields(merchant, overrides));

/** An operator's top-up of the merchant's payout balance (`minor` units of `currency`). */
export async function topUp(g: TestGateway, merchant: TestMerchant, currency: string, minor: number): Promise<void> {
  await g.gateway.payouts.topUp({ merchantId: merchant.merchant_id, currency, amount: minor, correlationId: randomUUID() });
}

export const balanceOf = (g: TestGateway, merchant: TestMerchant, currency: string) => g.gateway.payouts.balance(merchant.merchant_id, currency);
