/**
 * The Checkout callback (docs/reference/callbacks.md#checkout-callbacks): the ordered fields of one notification, `hash` last.
 * checkout-callback-content.ts builds the input from a payment; callback-encoding.ts encodes and
 * signs what this returns. The chain fields sit after `date` and before `custom_data`, where §3
 * lists them; they are not hash input.
 */
import { checkoutCallbackHash } from '../signatures';
import { flattenField, formDate, type FormFields } from './form-fields';

export type CheckoutOrderStatus =
  | 'prepare'
  | 'settled'
  | 'pending'
  | '3ds'
  | 'redirect'
  | 'decline'
  | 'refund'
  | 'reversal'
  | 'void'
  | 'chargeback';

export type CheckoutCallbackType =
  | 'sale'
  | '3ds'
  | 'redirect'
  | 'capture'
  | 'refund'
  | 'void'
  | 'debit'
  | 'credit'
  | 'recurring'
  | 'reversal';

export type CheckoutCallbackStatus = 'success' | 'fail' | 'waiting' | 'undefined';

export interface CheckoutCustomer {
  name?: string;
  email?: string;
  birthDate?: string;
  country?: string;
  state?: string;
  city?: string;
  address?: string;
  zip?: string;
  phone?: string;
  /** The payer's IP (`customer.ip`, else the caller's); sent as `customer_ip`. */
  ip?: string;
}

export interface CheckoutCallbackInput {
  /** The payment id. */
  id: string;
  orderNumber: string;
  /** `order.amount` exactly as the merchant sent it: it is hash input. */
  orderAmount: string;
  orderCurrency: string;
  orderDescription: string;
  orderStatus: CheckoutOrderStatus;
  type: CheckoutCallbackType;
  status: CheckoutCallbackStatus;
  /** Sent with `status=fail`. */
  reason?: string;
  card?: { mask: string; expMonth: string; expYear: string };
  cardToken?: string;
  customer?: CheckoutCustomer;
  /** ISO-8601 instant of the state change; sent as `YYYY-MM-DD HH:MM:SS` UTC. */
  date: string;
  /** The chain's first payment (the payment itself once it succeeded as one). */
  recurringInitTransId?: string;
  recurringToken?: string;
  scheduleId?: string;
  scheduleStartDate?: string;
  /** Sent only when the merchant sent `payment_schedule_amount`. */
  paymentScheduleAmount?: string;
  /** Due date of the chain's first automatic charge. */
  firstRecurringDate?: string;
  /** Of the latest request that carried it (a recurring request's own, not the initial payment's). */
  customData?: Record<string, unknown> | null;
  /** `exchange_*` and `extended_data[...]` of a payment the connector settled in another currency (conversion-fields.ts). */
  conversionFields?: FormFields;
  /** Protocol Mapping fields, as protocolMappingFields(..., 'callback') gives them. */
  protocolMappingFields?: FormFields;
}

export type ChainFieldKey =
  | 'recurringInitTransId'
  | 'recurringToken'
  | 'scheduleId'
  | 'scheduleStartDate'
  | 'paymentScheduleAmount'
  | 'firstRecurringDate';

const CUSTOMER_FIELDS: ReadonlyArray<[keyof CheckoutCustomer, string]> = [
  ['name', 'customer_name'],
  ['email', 'customer_email'],
  ['birthDate', 'customer_birth_date'],
  ['country', 'customer_country'],
  ['state', 'customer_state'],
  ['city', 'customer_city'],
  ['address', 'customer_address'],
  ['zip', 'customer_zip'],
  ['phone', 'customer_phone'],
  ['ip', 'customer_ip'],
];

const CHAIN_FIELDS: ReadonlyArray<[ChainFieldKey, string]> = [
  ['recurringInitTransId', 'recurring_init_trans_id'],
  ['recurringToken', 'recurring_token'],
  ['scheduleId', 'schedule_id'],
  ['scheduleStartDate', 'schedule_start_date'],
  ['paymentScheduleAmount', 'payment_schedule_amount'],
  ['firstRecurringDate', 'first_recurring_date'],
];

/** The chain's fields as recurringFields(payment, 'checkout') names them, as callback input. */
export function chainInputOf(named: ReadonlyArray<[string, string]>): Pick<CheckoutCallbackInput, ChainFieldKey> {
  const input: Pick<CheckoutCallbackInput, ChainFieldKey> = {};
  for (const [key, name] of CHAIN_FIELDS) {
    const value = named.find(([n]) => n === name)?.[1];
    if (value !== undefined) input[key] = value;
  }
  return input;
}

/** Ordered form fields of a Checkout callback, `hash` last. Absent optional values are left out. */
export function checkoutCallbackFields(input: CheckoutCallbackInput, password: string): FormFields {
  const fields: FormFields = [
    ['id', input.id],
    ['order_number', input.orderNumber],
    ['order_amount', input.orderAmount],
    ['order_currency', input.orderCurrency],
    ['order_description', input.orderDescription],
    ['order_status', input.orderStatus],
    ['type', input.type],
    ['status', input.status],
  ];
  if (input.status === 'fail' && input.reason) fields.push(['reason', input.reason]);
  if (input.card) {
    fields.push(['card', input.card.mask], ['card_expiration_date', `${input.card.expMonth.padStart(2, '0')}/${input.card.expYear}`]);
  }
  if (input.cardToken) fields.push(['card_token', input.cardToken]);
  for (const [key, name] of CUSTOMER_FIELDS) {
    const value = input.customer?.[key];
    if (value) fields.push([name, value]);
  }
  fields.push(['date', formDate(input.date)]);
  for (const [key, name] of CHAIN_FIELDS) {
    const value = input[key];
    if (value) fields.push([name, value]);
  }
  if (input.customData) flattenField('custom_data', input.customData, fields);
  if (input.conversionFields) fields.push(...input.conversionFields);
  if (input.protocolMappingFields) fields.push(...input.protocolMappingFields);
  fields.push([
    'hash',
    checkoutCallbackHash({
      id: input.id,
      orderNumber: input.orderNumber,
      orderAmount: input.orderAmount,
      orderCurrency: input.orderCurrency,
      orderDescription: input.orderDescription,
      password,
    }),
  ]);
  return fields;
}
