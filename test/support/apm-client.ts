/**
 * What a merchant's S2S APM client sends: a signed APM SALE, its follow-ups signed with the APM
 * formulas, and (as the sandbox's provider would) signed notifications to the gateway.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { notificationStatus, signNotification } from '../../src/adapters/connectors/sandbox-apm/transformers';
import type { NotificationVocabulary } from '../../src/adapters/connectors/sandbox-apm/sandbox-method';
import { apmCreditvoidHash, apmSaleHash, apmTransIdHash } from '../../src/domain/signatures';
import type { Fields, HttpResult, TestGateway, TestMerchant } from './gateway-harness';

export const RETURN_URL = 'https://merchant.example/apm-return';

/** An APM SALE's fields, signed (an explicit `hash` wins); `undefined` values are not sent. */
export function apmSaleFields(merchant: TestMerchant, overrides: Fields = {}): Fields {
  const fields: Fields = {
    action: 'SALE',
    client_key: merchant.client_key,
    brand: 'sb-redirect',
    order_id: `apm-${randomUUID()}`,
    order_amount: '10.00',
    order_currency: 'USD',
    order_description: 'APM test order',
    identifier: 'payer-42',
    payer_ip: '198.51.100.7',
    return_url: RETURN_URL,
    ...overrides,
  };
  if (!('hash' in overrides)) {
    fields.hash = apmSaleHash({
      identifier: fields.identifier ?? '',
      orderId: fields.order_id ?? '',
      orderAmount: fields.order_amount ?? '',
      orderCurrency: fields.order_currency ?? '',
      password: merchant.password,
    });
  }
  return fields;
}

export const apmSale = (g: TestGateway, merchant: TestMerchant, overrides: Fields = {}): Promise<HttpResult> => g.post(apmSaleFields(merchant, overrides));

/** CAPTURE, VOID, GET_TRANS_STATUS of an APM payment: `md5(upper(strrev(trans_id)) + password)`. */
export const apmByTransId = (g: TestGateway, action: string, merchant: TestMerchant, transId: string, extra: Fields = {}): Promise<HttpResult> =>
  g.post({ action, client_key: merchant.client_key, trans_id: transId, hash: apmTransIdHash(transId, merchant.password), ...extra });

/** APM CREDITVOID: `md5(upper(strrev(trans_id + password)))`. */
export const apmCreditVoid = (g: TestGateway, merchant: TestMerchant, transId: string, amount?: string): Promise<HttpResult> =>
  g.post({ action: 'CREDITVOID', client_key: merchant.client_key, trans_id: transId, hash: apmCreditvoidHash(transId, merchant.password), amount });

/** The sandbox APM provider's secret, derived from the vault key as the composition root does. */
export function sandboxApmSecret(g: TestGateway): Buffer {
  return createHmac('sha256', Buffer.from(g.gateway.config.vaultKeyHex!, 'hex')).update('sandbox-apm-provider').digest();
}

/** A notification as the sandbox APM provider sends it (signed with `secret`, by default its own). */
export function providerNotification(
  g: TestGateway,
  transId: string,
  decision: 'approve' | 'decline',
  options: { vocabulary?: NotificationVocabulary; status?: string; secret?: Buffer; reference?: string } = {},
): { body: string; headers: Record<string, string> } {
  const status = options.status ?? notificationStatus(options.vocabulary ?? 'plain', decision);
  return signNotification(options.secret ?? sandboxApmSecret(g), { paymentId: transId, reference: options.reference ?? 'sbapm_test', status }, Math.floor(Date.now() / 1000));
}

export const postNotification = (g: TestGateway, connector: string, raw: { body: string; headers: Record<string, string> }): Promise<HttpResult> =>
  g.request(`/notifications/${connector}`, { method: 'POST', body: raw.body, headers: raw.headers });

/** The payer (or a test) deciding on the sandbox provider's page. */
export const decideOnPage = (g: TestGateway, transId: string, fields: Fields): Promise<HttpResult> => g.postForm(`${g.baseUrl}/sandbox/provider/${transId}`, fields);
