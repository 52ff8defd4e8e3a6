/**
 * The OpenAPI 3.1 document of the gateway's HTTP APIs: the S2S form API, the Checkout JSON API
 * and hosted payment fields, the callbacks (as webhooks), the admin API and the operators'
 * endpoints. Request schemas are the ones the server validates with, so the document cannot
 * describe fields the server does not check; test/api/openapi.test.ts holds its paths to the
 * app's routes both ways.
 */
import type { S2sAction } from '../s2s/s2s-action';
import { addCheckout } from './checkout';
import { addDeviceWallets } from './device-wallets';
import { OPERATOR_PATHS } from './operators';
import { addS2s } from './s2s';
import { WEBHOOKS } from './webhooks';

export interface OpenApiOptions {
  baseUrl: string;
  environment: string;
  /** The live `/post` allowlist (src/api/s2s/actions/index.ts). */
  s2sActions: Record<string, Pick<S2sAction, 'validate'>>;
}

/**
 * Routes the document leaves out, by path prefix: pages and assets for browsers (payers,
 * operators), which no program integrates with.
 */
export const UNDOCUMENTED_ROUTES: ReadonlyArray<{ prefix: string; why: string }> = [
  { prefix: '/checkout/', why: 'the hosted payment page and its assets: the payer\'s browser opens the session\'s redirect_url' },
  { prefix: '/hosted-fields/', why: 'the card field frames and the card data they post, loaded by the hosted fields script' },
  { prefix: '/sdk/', why: 'the scripts merchants load (hosted fields, pay-session: docs/reference/checkout.md); the brands pay-session asks for are in the document' },
  { prefix: '/assets/', why: 'scripts of the payer-facing pages' },
  { prefix: '/favicon.', why: 'the icon of the payer-facing pages' },
  { prefix: '/payments/', why: "the payer's browser coming back from 3-D Secure or a provider's page" },
  { prefix: '/sandbox/', why: "the sandbox acquirer's own ACS and redirect pages" },
  { prefix: '/dashboard', why: "the operators' dashboard (pages behind a session)" },
  { prefix: '/docs/api', why: 'this reference rendered as a page' },
  { prefix: '/notifications/', why: "acquirers' and providers' own notifications to the gateway, in their formats, not this API's" },
  { prefix: '/.well-known/', why: 'files other services fetch to verify this domain (Apple Pay)' },
];

const errorSchema = {
  type: 'object',
  required: ['result', 'error_code', 'error_message'],
  properties: {
    result: { const: 'ERROR' },
    error_code: { type: ['integer', 'string'] },
    error_message: { type: 'string' },
    errors: {
      type: 'array',
      items: { type: 'object', required: ['error_code', 'error_message'], properties: { error_code: { type: 'integer' }, error_message: { type: 'string', description: '<field>: <message>' } } },
    },
  },
};

const errorResponse = (description: string, example?: Record<string, unknown>) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, ...(example ? { example } : {}) } },
});

export function buildOpenApiDocument(options: OpenApiOptions): Record<string, unknown> {
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'Ledger gateway',
      version: '1',
      summary: 'Payments by card, wallet and alternative method, and payouts, over a server-to-server form API and a Checkout JSON API, with callbacks and an operators\' API.',
      description: [
        'Amounts are decimal text in the currency\'s exponent (10.50 USD, 1500 JPY). Every refusal is `{result: "ERROR", error_code, error_message, errors?}`; field errors name the field (`order_id: This value should not be blank.`).',
        'Merchants sign each request with a hash of some fields and their password; each operation names its formula. docs/reference has the whole reference, with worked hash examples.',
        `This deployment: ${options.environment}.`,
      ].join('\n\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.baseUrl }],
    tags: [
      { name: 'S2S CARD', description: 'Server-to-server form API: POST /post with an action (S2S CARD, S2S APM with a brand, payouts with CREDIT2VIRTUAL)' },
      { name: 'Checkout', description: 'JSON API: hosted payment page sessions and payment operations' },
      { name: 'Checkout schedules', description: 'Schedules of automatic payments' },
      { name: 'Hosted payment fields', description: 'Paying with the card typed into the gateway\'s field frames' },
      { name: 'Admin', description: 'Operators, with Authorization: Bearer <admin token> (npm run gateway -- admin-token)' },
      { name: 'Gateway', description: 'Health, metrics and this document' },
      { name: 'Callbacks', description: 'What the gateway sends to merchants' },
    ],
    paths: {} as Record<string, unknown>,
    webhooks: WEBHOOKS,
    components: {
      schemas: { Error: errorSchema } as Record<string, unknown>,
      responses: {
        Invalid: errorResponse('Refused: invalid fields, a wrong hash, a rule of the payment', {
          result: 'ERROR',
          error_code: 100000,
          error_message: 'Request data is invalid.',
          errors: [{ error_code: 100000, error_message: 'order_id: This value should not be blank.' }],
        }),
        RouteNotSupported: errorResponse('No such action or route', { result: 'ERROR', error_code: 0, error_message: 'Route or parameters is not supported' }),
        TooManyFailures: errorResponse('Too many failed authentications from this address; see Retry-After', {
          result: 'ERROR',
          error_code: 429,
          error_message: 'Too many failed authentication attempts. Try again later.',
        }),
        Unavailable: errorResponse('The database is unreachable for a moment; see Retry-After'),
        AdminTokenInvalid: errorResponse('No admin token, or a wrong one', { result: 'ERROR', error_code: 401, error_message: 'Admin token is missing or not valid.' }),
        Unauthorized: errorResponse('No token, or a wrong one'),
        NotFound: errorResponse('Not found'),
        Forbidden: errorResponse('Not in this environment'),
      },
      securitySchemes: {
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN, or the token derived from the vault key (npm run gateway -- admin-token)' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, or the admin token while none is set' },
      },
    },
  };
  addS2s(doc, options.s2sActions);
  addCheckout(doc);
  addDeviceWallets(doc);
  Object.assign(doc.paths, OPERATOR_PATHS);
  return doc;
}
