/**
 * Usage of `merchant create|list|show|update`: the one text that `--help` and the usage errors of
 * the merchant command print (its flags are read in index.ts).
 */
import { CALLBACK_FIELD_SWITCHES, REQUIRABLE_SALE_FIELDS, RETURN_PARAMETERS } from '../domain/merchant/protocol-mapping';
import { LINK_TARGETS } from '../domain/checkout/session-events';
import type { CommandHelp } from './help';

/** A long list of choices, wrapped under its flag. */
const choices = (values: readonly string[]) => {
  const lines: string[] = [];
  let line = '';
  for (const value of values) {
    const next = line ? `${line},${value}` : value;
    if (next.length > 62 && line) {
      lines.push(`${line},`);
      line = value;
    } else line = next;
  }
  lines.push(line);
  return lines.map((l) => `${' '.repeat(30)}${l}`);
};

const SETTINGS = [
  '  --name N                    the merchant\'s name (required on create)',
  '  --notification-url U        default callback URL (update: none removes it)',
  '  --payment-mode M            SMS, DMS or SMS/DMS',
  '  --ip-allowlist CIDR,...     addresses allowed to call the API (update: none removes it)',
  '  --refunds on|off            refunds allowed',
  '  --callback-fields F,...     optional callback and status fields, all or none; of:',
  ...choices(CALLBACK_FIELD_SWITCHES),
  `  --return-params P,...       added to the payer's return URL: ${RETURN_PARAMETERS.join(',')} | none`,
  `  --required-fields F,...     SALE address fields made required, all or none; of:`,
  ...choices(REQUIRABLE_SALE_FIELDS),
  `  --link-target T             where the payer's return opens: ${LINK_TARGETS.join('|')}|none`,
  '  --card-on-file on|off       a chain\'s first payment asks for a card-on-file reference',
  '  --connectors C,...          the acquirers a payment tries, in order (cascading after a soft decline)',
  '  --methods M,...|all|none    alternative methods and wallets the merchant takes (S2S APM brands,',
  '                              Checkout methods); unset: all in the sandbox, none in production',
];

const CREATE = 'npm run gateway -- merchant create --name N [settings...] [--json]';
const LIST = 'npm run gateway -- merchant list [--json]';
const SHOW = 'npm run gateway -- merchant show <merchant_id> [--show-password] [--json]';
const UPDATE = 'npm run gateway -- merchant update <merchant_id> [settings...] [--json]';

export const merchantHelp: CommandHelp = {
  name: 'merchant',
  summary: 'create, list, show and update merchants (keys, password, settings)',
  usage: [
    `usage: ${CREATE}`,
    `       ${LIST}`,
    `       ${SHOW}`,
    `       ${UPDATE}`,
    '',
    'settings:',
    ...SETTINGS,
    '',
    '  --show-password             show: print the merchant\'s password (it signs requests)',
    '  --json                      print JSON',
  ].join('\n'),
  subcommands: {
    create: [`usage: ${CREATE}`, '', 'Registers a merchant and prints its ids, keys and password.', '', 'settings:', ...SETTINGS, '  --json                      print JSON'].join('\n'),
    list: [`usage: ${LIST}`, '', 'Every merchant: id, payment mode, client key, name.'].join('\n'),
    show: [`usage: ${SHOW}`, '', '  --show-password  print the merchant\'s password too', '  --json           print JSON'].join('\n'),
    update: [`usage: ${UPDATE}`, '', 'Changes only the settings given.', '', 'settings:', ...SETTINGS, '  --json                      print JSON'].join('\n'),
  },
};
