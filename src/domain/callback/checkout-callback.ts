/**
 * The Checkout callback (decisions.md §3). Checkout payments do not exist yet: the Checkout issue
 * builds a CheckoutCallbackInput from its payment state and sends what this returns, encoded and
 * signed like every callback (callback-encoding.ts).
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
  recurringInitTransId?: string;
  recurringToken?: string;
  scheduleId?: string;
  /** Of the latest request that carried it (a recurring request's own, not the initial payment's). */
  customData?: Record<string, unknown> | null;
  /** Protocol Mapping fields, as protocolMappingFields(..., 'callback') gives them. */
  protocolMappingFields?: FormFields;
}

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
  if (input.recurringInitTransId) fields.push(['recurring_init_trans_id', input.recurringInitTransId]);
  if (input.recurringToken) fields.push(['recurring_token', input.recurringToken]);
  if (input.scheduleId) fields.push(['schedule_id', input.scheduleId]);
  if (input.customData) flattenField('custom_data', input.customData, fields);
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
