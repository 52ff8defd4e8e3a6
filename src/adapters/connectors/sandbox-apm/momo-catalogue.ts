/**
 * The sandbox's mobile-money methods (docs/payouts.md#mobile-money-sb-momo-in-the-sandbox), beside the catalogue of catalogue.ts:
 *
 * - `sb-momo`: a payout to a payee's mobile-money wallet (`CREDIT2VIRTUAL` only): the operator, the
 *   wallet's number and the customer's email; the numbers and amount bounds each operator takes
 *   are the gateway's payout rules (src/domain/payouts), checked before the provider is asked;
 * - `sb-payout-email`: the payout method variant paying to an email, with a security question;
 * - `sb-momo-collect`: a mobile-money collection (a SALE): the payer approves the prompt on their
 *   phone, so it is decided later; it carries the Kora-style sender reference of at least 8
 *   characters (spec Limits).
 *
 * Outcomes as for every sandbox method: `success@gmail.com` settles at once and `fail@gmail.com`
 * is declined (a payout reads `parameters[customer_email]`, the variant `parameters[Email]`);
 * anyone else waits for the simulated provider page, a payout at most 10 seconds.
 */
import { MOBILE_MONEY_OPERATORS } from '../../../domain/payouts/mobile-money';
import type { MethodField } from '../../../domain/payment/method-fields';
import type { SandboxMethod } from './sandbox-method';

const required = (name: string, more: Partial<MethodField> = {}): MethodField => ({ name, presence: 'required', ...more });
const optional = (name: string, more: Partial<MethodField> = {}): MethodField => ({ name, presence: 'optional', ...more });

/** Decided later, on the provider's side: the flow of a payer who confirms elsewhere. */
const later = (method: string, kind: string, fields: MethodField[], extra: Partial<SandboxMethod> = {}): SandboxMethod => ({
  method,
  kind,
  flow: 'app',
  page: 'plain',
  vocabulary: 'plain',
  fields,
  ...extra,
});

/** The Kora-style sender reference a mobile-money collection carries (spec Limits: at least 8 characters). */
export const SENDER_REFERENCE_MIN_LENGTH = 8;

export const SANDBOX_MOMO_METHODS: readonly SandboxMethod[] = [
  later(
    'sb-momo',
    'Mobile-money payout',
    [
      required('mobile_money_operator', { maxLength: 32 }),
      required('mobile_number', { maxLength: 16 }),
      required('customer_email', { maxLength: 254 }),
      optional('customer_name'),
    ],
    { payout: 'mobile_money' },
  ),
  later(
    'sb-payout-email',
    'Payout to an email, with a security question',
    [
      required('CustomerName'),
      required('Email', { maxLength: 254 }),
      required('SecurityQuestion', { minLength: 10, maxLength: 40 }),
      required('SecurityQuestionAnswer', { minLength: 3, maxLength: 40 }),
      required('account_uuid', { maxLength: 36 }),
      optional('fee_calculation_method', { enum: ['account_level', 'transaction_level'] }),
    ],
    { payout: 'email' },
  ),
  later('sb-momo-collect', 'Mobile-money collection (the payer approves on their phone)', [
    required('mobile_money_operator', { enum: MOBILE_MONEY_OPERATORS.map((o) => o.slug) }),
    required('mobile_number', { pattern: '\\+?[0-9]{7,15}' }),
    required('sender_reference', { minLength: SENDER_REFERENCE_MIN_LENGTH, maxLength: 64 }),
  ]),
];

export const SANDBOX_MOMO_METHOD_IDS: readonly string[] = SANDBOX_MOMO_METHODS.map((m) => m.method);
