/**
 * The session's routes a page opens the payer's own wallet with (src/api/checkout-page/device-wallet-routes.ts
 * and the token route of src/api/checkout-page/routes.ts): credentialed by the session id alone,
 * readable from any origin.
 */

const sessionParameters = (withWallet: boolean) => [
  { name: 'sessionId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' }, description: "The Checkout session's id: the last part of its redirect_url." },
  ...(withWallet ? [{ name: 'wallet', in: 'path', required: true, schema: { type: 'string', enum: ['applepay', 'googlepay'] } }] : []),
];

const refusal = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

const REFUSED =
  'An unknown session (100000, session: The session does not exist.); 204018 Payment digital wallet not supported when the session does not offer the wallet or can no longer be paid, with a field error wallet: … naming what the merchant\'s wallet settings lack';

export const DEVICE_WALLET_PAYMENT_REQUEST = {
  type: 'object',
  required: ['wallet', 'payment_request'],
  properties: {
    wallet: { type: 'string', enum: ['applepay', 'googlepay'] },
    environment: { type: 'string', enum: ['TEST', 'PRODUCTION'], description: "Google Pay only: the PaymentsClient's environment" },
    payment_request: {
      type: 'object',
      description:
        "Apple Pay: an ApplePayPaymentRequest (countryCode, currencyCode, merchantCapabilities, supportedNetworks, total). Google Pay: a PaymentDataRequest (apiVersion 2, merchantInfo, allowedPaymentMethods with the PAYMENT_GATEWAY tokenization, transactionInfo). Built from the merchant's wallet settings and the session's amount.",
    },
  },
};

const TOKEN_PATH = {
  post: {
    operationId: 'checkoutWalletToken',
    tags: ['Checkout'],
    summary: "Pay a Checkout session with the token the payer's wallet made (what PaySession.pay() in /sdk/pay-session.js sends)",
    description:
      'The token is verified and decrypted as on S2S (the card flow where the merchant has the wallet\'s keys, else the virtual flow) and paid as the session\'s next attempt, under its rules. The answer says how the attempt stands and where the payer goes: the session\'s page, which sends them on. No hash: the session id is the credential.',
    parameters: sessionParameters(true),
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: { type: 'object', required: ['payment_token'], properties: { payment_token: { type: 'string', description: 'The token JSON exactly as the wallet gave it' } } },
        },
      },
    },
    responses: {
      '200': {
        description: 'The attempt',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['result', 'redirect_url', 'redirect_method'],
              properties: {
                result: { type: 'string', enum: ['success', 'decline', 'redirect', 'waiting', 'undefined'] },
                decline_message: { type: 'string' },
                public_id: { type: 'string', format: 'uuid' },
                redirect_url: { type: 'string', format: 'uri' },
                redirect_method: { type: 'string', enum: ['GET'] },
              },
            },
          },
        },
      },
      '400': refusal('No token (payment_token: This value should not be blank.), an unknown session, a wallet no flow can pay (204018), a token that fails a check (250003)'),
    },
  },
};

const REQUEST_PATH = {
  get: {
    operationId: 'checkoutWalletPaymentRequest',
    tags: ['Checkout'],
    summary: "The payment request a page opens the payer's wallet with for a session",
    description: 'Never cached. Apple Pay needs the Merchant Identifier and Country of the wallet settings; Google Pay its Gateway.',
    parameters: sessionParameters(true),
    responses: {
      '200': { description: 'The request', content: { 'application/json': { schema: DEVICE_WALLET_PAYMENT_REQUEST } } },
      '400': refusal(REFUSED),
    },
  },
};

const VALIDATION_PATH = {
  post: {
    operationId: 'checkoutApplePayMerchantValidation',
    tags: ['Checkout'],
    summary: "Apple Pay's merchant validation for a session: Apple's merchant session, for completeMerchantValidation()",
    description:
      "The gateway calls Apple's Payment Session endpoint (WALLET_APPLE_VALIDATION_URL) over mutual TLS with the merchant identity certificate and key of the wallet settings, for the gateway's own host or domain (one of the merchant's wallet domains), and answers Apple's merchant session as Apple gave it.",
    parameters: sessionParameters(false),
    requestBody: {
      required: false,
      content: {
        'application/x-www-form-urlencoded': {
          schema: { type: 'object', properties: { domain: { type: 'string', description: "The page's domain, one of the merchant's wallet domains; default the gateway's host" } } },
        },
      },
    },
    responses: {
      '200': { description: "Apple's merchant session (opaque)", content: { 'application/json': { schema: { type: 'object' } } } },
      '400': refusal(`${REFUSED}, or a domain that is not one of the merchant's wallet domains`),
      '502': refusal("Apple's endpoint gave no merchant session (502 Apple Pay merchant validation failed, try again.)"),
    },
  },
};

export function addDeviceWallets(doc: { paths: Record<string, unknown> }): void {
  doc.paths['/checkout/{sessionId}/wallet/{wallet}/token'] = TOKEN_PATH;
  doc.paths['/checkout/{sessionId}/wallet/{wallet}/request'] = REQUEST_PATH;
  doc.paths['/checkout/{sessionId}/wallet/applepay/validation'] = VALIDATION_PATH;
}
