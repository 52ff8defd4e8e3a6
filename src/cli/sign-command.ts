/**
 * `sign <what> --password P ...`: the hash of a request a merchant sends, or of a callback a
 * merchant verifies, for trying the API with curl. Every formula comes from src/domain/signatures.ts,
 * the same functions the gateway checks with.
 */
import {
  apmCallbackBodyHash,
  apmCreditvoidHash,
  apmSaleHash,
  apmTransIdHash,
  checkoutCallbackHash,
  checkoutHash,
  createScheduleHash,
  credit2VirtualHash,
  orderIdHash,
  payoutCallbackHash,
  s2sCardCallbackHash,
  saleCardHash,
  saleTokenHash,
  scheduleIdHash,
  transIdHash,
  walletSaleHash,
} from '../domain/signatures';
import { flag, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';

/** Each subcommand: its synopsis (after `sign`), what it signs, and its formula. */
const SUBCOMMANDS: ReadonlyArray<{ name: string; synopsis: string; what: string; formula: string }> = [
  { name: 'sale', synopsis: 'sale --password P (--card PAN | --card-token T) [--email E]', what: 'S2S CARD SALE (also with recurring_init, schedule_id)', formula: 'md5(upper(strrev(email) + password + strrev(first6 + last4)))' },
  { name: 'wallet-sale', synopsis: 'wallet-sale --password P [--email E]', what: 'S2S CARD wallet SALE with payment_token (Formula 8)', formula: 'md5(upper(strrev(email) + password))' },
  { name: 'trans', synopsis: 'trans --password P --value TRANS_ID', what: 'S2S CARD GET_TRANS_STATUS, CAPTURE, VOID, CREDITVOID', formula: 'sha1(md5(upper(trans_id + password)))' },
  { name: 'order', synopsis: 'order --password P --value ORDER_ID', what: 'S2S CARD GET_TRANS_STATUS_BY_ORDER, RECURRING_SALE, RECURRING_DEBIT', formula: 'sha1(md5(upper(order_id + password)))' },
  { name: 'create-schedule', synopsis: 'create-schedule --password P', what: 'S2S CREATE_SCHEDULE on /post', formula: 'md5(upper(strrev(password)))' },
  { name: 'schedule', synopsis: 'schedule --password P --value SCHEDULE_ID', what: 'S2S UPDATE_SCHEDULE, DELETE_SCHEDULE', formula: 'sha1(md5(upper(schedule_id + password)))' },
  { name: 'checkout', synopsis: 'checkout --password P FIELD...', what: 'Checkout API requests: the fields in the order the request\'s formula lists them', formula: 'sha1(md5(upper(fields... + password)))' },
  { name: 'apm-sale', synopsis: 'apm-sale --password P --identifier I --order-id O --amount A --currency C', what: 'S2S APM SALE', formula: 'md5(upper(strrev(identifier + order_id + order_amount + order_currency + password)))' },
  { name: 'apm-trans', synopsis: 'apm-trans --password P --value TRANS_ID', what: 'S2S APM CAPTURE, VOID, GET_TRANS_STATUS', formula: 'md5(upper(strrev(trans_id)) + password)' },
  { name: 'apm-creditvoid', synopsis: 'apm-creditvoid --password P --value TRANS_ID', what: 'S2S APM CREDITVOID', formula: 'md5(upper(strrev(trans_id + password)))' },
  { name: 'credit2virtual', synopsis: 'credit2virtual --password P --order-id O --amount A --currency C', what: 'CREDIT2VIRTUAL (payouts)', formula: 'md5(upper(strrev(order_id + order_amount + order_currency)) + password)' },
  { name: 's2s-callback', synopsis: 's2s-callback --password P --trans-id T (--card PAN|MASK | --card-token T) [--email E]', what: 'the hash of an S2S CARD callback', formula: 'md5(upper(strrev(email) + password + trans_id + strrev(first6 + last4)))' },
  { name: 'checkout-callback', synopsis: 'checkout-callback --password P --id ID --order-number N --amount A --currency C --description D', what: 'the hash of a Checkout callback (and return URL)', formula: 'sha1(md5(upper(id + order_number + order_amount + order_currency + order_description + password)))' },
  { name: 'apm-callback', synopsis: 'apm-callback --password P --body RAW_FORM_BODY', what: 'the hash of an S2S APM callback', formula: 'md5(upper(values reversed, keys sorted as PHP ksort, + password))' },
  { name: 'payout-callback', synopsis: 'payout-callback --password P --trans-id T --order-id O --status S', what: 'the hash of a CREDIT2VIRTUAL callback', formula: 'md5(upper(strrev(trans_id + order_id + status)) + password)' },
];

const NOTE = 'Upper-casing is ASCII only and strrev reverses bytes, as PHP does; an optional field not sent is left out.';

export const signHelp: CommandHelp = {
  name: 'sign',
  summary: 'compute the hash of a request (SALE, follow-ups, schedules, APM, payouts) or of a callback',
  usage: [
    ...SUBCOMMANDS.map((s, i) => `${i === 0 ? 'usage: ' : '       '}npm run gateway -- sign ${s.synopsis}`),
    '',
    ...SUBCOMMANDS.map((s) => `  ${s.name.padEnd(18)} ${s.what}`),
    '',
    NOTE,
    'npm run gateway -- sign <what> --help shows the formula.',
  ].join('\n'),
  subcommands: Object.fromEntries(
    SUBCOMMANDS.map((s) => [s.name, [`usage: npm run gateway -- sign ${s.synopsis}`, '', `${s.what}:`, `  ${s.formula}`, '', NOTE].join('\n')]),
  ),
};

export function signCommand(p: Parsed): number {
  const sub = p.positional[1];
  if (!sub || !signHelp.subcommands?.[sub]) throw usageError(signHelp, sub ? `Unknown: sign ${sub}` : undefined);
  const need = (name: string): string => {
    const value = flag(p, name);
    if (value === undefined) throw usageError(signHelp, `sign ${sub} needs --${name}`, sub);
    return value;
  };
  const password = need('password');
  const email = flag(p, 'email');
  const hash = ((): string => {
    switch (sub) {
      case 'sale': {
        const card = flag(p, 'card');
        const token = flag(p, 'card-token');
        if (card) return saleCardHash({ payerEmail: email, password, cardNumber: card });
        if (token) return saleTokenHash({ payerEmail: email, password, cardToken: token });
        throw usageError(signHelp, 'sign sale needs --card or --card-token', sub);
      }
      case 'wallet-sale':
        return walletSaleHash({ payerEmail: email, password });
      case 'trans':
        return transIdHash(need('value'), password);
      case 'order':
        return orderIdHash(need('value'), password);
      case 'create-schedule':
        return createScheduleHash(password);
      case 'schedule':
        return scheduleIdHash(need('value'), password);
      case 'checkout': {
        // Checkout hashes concatenate their fields in order (the spec's Authentication; docs/reference/hashes.md#checkout).
        const parts = p.positional.slice(2);
        if (parts.length === 0) throw usageError(signHelp, 'sign checkout needs the hash input fields, in order', sub);
        return checkoutHash(parts, password);
      }
      case 'apm-sale':
        return apmSaleHash({ identifier: need('identifier'), orderId: need('order-id'), orderAmount: need('amount'), orderCurrency: need('currency'), password });
      case 'apm-trans':
        return apmTransIdHash(need('value'), password);
      case 'apm-creditvoid':
        return apmCreditvoidHash(need('value'), password);
      case 'credit2virtual':
        return credit2VirtualHash({ orderId: need('order-id'), orderAmount: need('amount'), orderCurrency: need('currency'), password });
      case 's2s-callback': {
        const card = flag(p, 'card');
        const token = flag(p, 'card-token');
        if (!card && !token) throw usageError(signHelp, 'sign s2s-callback needs --card (the number or the callback\'s mask) or --card-token', sub);
        // The callback's `card` is a mask (first6******last4): its digits are the ones the formula takes.
        const digits = card?.replace(/\*/g, '');
        return s2sCardCallbackHash({
          payerEmail: email,
          password,
          transId: need('trans-id'),
          cardNumberFirst6Last4: digits === undefined ? undefined : digits.slice(0, 6) + digits.slice(-4),
          cardToken: token,
        });
      }
      case 'checkout-callback':
        return checkoutCallbackHash({
          id: need('id'),
          orderNumber: need('order-number'),
          orderAmount: need('amount'),
          orderCurrency: need('currency'),
          orderDescription: need('description'),
          password,
        });
      case 'apm-callback':
        return apmCallbackBodyHash(need('body'), password);
      case 'payout-callback':
        return payoutCallbackHash({ transId: need('trans-id'), orderId: need('order-id'), status: need('status'), password });
      default:
        throw usageError(signHelp);
    }
  })();
  process.stdout.write(`${hash}\n`);
  return 0;
}
