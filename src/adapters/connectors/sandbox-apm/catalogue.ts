/**
 * The sandbox's alternative payment methods: one per method kind of the spec's catalogue
 * (payment-gateway-api.md, "Method-specific parameters catalogue"), with the identifiers of
 * docs/reference/s2s-apm.md#sandbox-methods, as data. Each entry names what the method takes under `parameters[...]` (the
 * gateway validates requests against it exactly) and how the simulated provider behaves:
 *
 * - `flow`: `redirect` sends the payer to the provider's page (REDIRECT/REDIRECT); `qr` shows a QR
 *   code there (REDIRECT/PENDING with `qr_code`); `app` accepts the payment and lets the payer
 *   confirm elsewhere (INIT/PENDING), a crypto deposit with the address to pay to;
 * - `page`: what the provider's page shows beside Approve / Decline;
 * - `vocabulary`: the words of the provider's notifications (QR methods: executed / rejected /
 *   pending; bank methods: ACSC / RJCT; the others: approved / declined).
 *
 * Where the catalogue leaves a rule open, the sandbox decides: installments are one sub-brand that
 * requires the product's reference, name and quantity; a phone (OTP) is `parameters[phone]`, else
 * the SALE's `payer_phone`, else asked on the page; a country-bound id is asked from a payer of
 * that country, or from one of unknown country.
 */
import type { MethodField } from '../../../domain/payment/method-fields';
import { SANDBOX_MOMO_METHODS } from './momo-catalogue';
import type { SandboxFlow, SandboxMethod } from './sandbox-method';

/** The one-time code the sandbox's OTP method sends by "SMS" (shown on its page). */
export const SANDBOX_OTP = '123456';

const required = (name: string, more: Partial<MethodField> = {}): MethodField => ({ name, presence: 'required', ...more });
const optional = (name: string, more: Partial<MethodField> = {}): MethodField => ({ name, presence: 'optional', ...more });
const collected = (name: string, label: string, more: Partial<MethodField> = {}): MethodField => ({ name, presence: 'collected', label, ...more });

const method = (id: string, kind: string, flow: SandboxFlow, fields: MethodField[] = [], extra: Partial<SandboxMethod> = {}): SandboxMethod => ({
  method: id,
  kind,
  flow,
  page: flow === 'qr' ? 'qr' : 'plain',
  vocabulary: flow === 'qr' ? 'qr' : 'plain',
  fields,
  ...extra,
});

const METHODS: readonly SandboxMethod[] = [
  method('sb-redirect', 'Redirect to the provider', 'redirect'),
  method('sb-qr', 'QR code', 'qr'),
  method('sb-app', 'Confirmation in a phone app', 'app'),
  method('sb-otp', 'Phone number and a one-time code by SMS', 'redirect', [collected('phone', 'Phone number', { pattern: '\\+?[0-9]{7,15}', fallback: 'payer_phone' })], {
    page: 'otp',
  }),
  method('sb-details', 'Payment details shown to the payer', 'redirect', [], { page: 'details' }),
  method(
    'sb-crypto',
    'Crypto wallet deposit',
    'app',
    [
      optional('network_type', { enum: ['eth', 'tron'], onlyWhen: { field: 'crypto_type', values: ['USDT'] } }),
      optional('bech32', { format: 'boolean' }),
      required('crypto_type', { maxLength: 16, pattern: '[A-Za-z0-9]+' }),
      optional('accountId'),
    ],
    { page: 'crypto' },
  ),
  method('sb-bank', 'Bank account', 'redirect', [required('bank_code'), required('bank_account_number')], { vocabulary: 'bank' }),
  method('sb-document', 'Document-based redirect', 'redirect', [collected('document_number', 'Document number'), collected('document_type', 'Document type')]),
  method('sb-installment', 'Installment product', 'redirect', [
    required('product_reference_id', { maxLength: 64 }),
    required('product_name', { maxLength: 255 }),
    required('product_quantity', { format: 'digits', maxLength: 4 }),
    optional('product_sku'),
    optional('product_category'),
    optional('product_url', { format: 'url', maxLength: 1024 }),
    optional('product_image_url', { format: 'url', maxLength: 1024 }),
    optional('product_type'),
  ]),
  method('sb-member', 'Member id', 'redirect', [collected('memberId', 'Member id')]),
  method('sb-identity', 'Identity id', 'app', [collected('personal_id', 'Personal id', { countries: ['IN'] })]),
  method('sb-upi', 'Instant bank id (UPI)', 'app', [required('upi_id', { pattern: '[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9.-]{1,63}' })]),
  method('sb-trading-deposit', 'Trading account deposit', 'redirect', [required('paymentGatewayName'), required('paymentCurrency'), optional('tradingAccountLogin')]),
  method('sb-trading-withdrawal', 'Trading account withdrawal', 'redirect', [required('withdrawCurrency'), required('address'), optional('tradingAccountLogin')]),
  method('sb-crypto-convert', 'Crypto conversion', 'redirect', [required('toCurrency', { format: 'currency' })]),
  method('sb-crypto-buy', 'Crypto purchase', 'redirect', [required('cryptoCurrency')]),
  method('sb-country-id', 'Country id (Argentina CUIL, Mexico CURP)', 'redirect', [
    collected('bank_cuil', 'CUIL', { countries: ['AR'], pattern: '[0-9]{2}-?[0-9]{8}-?[0-9]' }),
    collected('bank_curp', 'CURP', { countries: ['MX'], pattern: '[A-Z]{4}[0-9]{6}[HM][A-Z]{5}[A-Z0-9][0-9]' }),
  ]),
  method(
    'sb-bank-pull',
    'Real-time bank pull',
    'app',
    [
      required('amount', { format: 'decimal', maxLength: 32 }),
      required('expiryDate', { format: 'date-time', maxLength: 40 }),
      required('callbackUrl', { format: 'url', maxLength: 1024 }),
      required('reference'),
      required('merchantType'),
      required('merchantName'),
      required('accountId'),
      required('market'),
      required('type', { enum: ['PULL'] }),
      required('currency', { format: 'currency' }),
      collected('bankDetails', 'Bank details', {
        fields: [
          optional('cbu', { format: 'digits', maxLength: 22, label: 'CBU' }),
          optional('alias', { maxLength: 64, label: 'Alias' }),
          optional('phoneNumber', { pattern: '\\+?[0-9]{7,15}', label: 'Phone number' }),
          optional('otp', { format: 'digits', maxLength: 8, label: 'One-time code' }),
        ],
        oneOf: [
          ['cbu', 'alias'],
          ['phoneNumber', 'otp'],
        ],
      }),
      optional('redirectUrl', { format: 'url', maxLength: 1024 }),
    ],
    { vocabulary: 'bank' },
  ),
];

/** Another name of a method, taken exactly as the method itself (docs/reference/s2s-apm.md#sandbox-methods: `vcard`). */
const ALIASES: Readonly<Record<string, string>> = { vcard: 'sb-redirect' };

// The mobile-money methods (momo-catalogue.ts) are found too, so the provider page decides them.
const BY_ID = new Map([...METHODS, ...SANDBOX_MOMO_METHODS].map((m) => [m.method, m]));

/** Every identifier the sandbox answers to: its methods, then their aliases. */
export const SANDBOX_METHOD_IDS: readonly string[] = [...METHODS.map((m) => m.method), ...Object.keys(ALIASES)];

/** The method an identifier (or alias) names, under the name it was asked by; null for none of ours. */
export function sandboxMethod(id: string): SandboxMethod | null {
  const found = BY_ID.get(ALIASES[id] ?? id);
  return found ? { ...found, method: id } : null;
}
