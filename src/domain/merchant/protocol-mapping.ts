/**
 * Protocol Mapping: per-merchant switches that add optional data to callbacks, status responses
 * and return URLs. Everything is off by default, because a merchant's callback parser was written
 * against the fields it was shown, and a field it never asked for is noise at best.
 *
 * Switch names are what an operator types (`--callback-fields brand,arn_rrn`); each one names the
 * form fields it adds in PROTOCOL_MAPPING_FIELDS.
 */
/** An operator named a switch that does not exist. */
export class ProtocolMappingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolMappingError';
  }
}

/** Field switches, in the order their fields appear in a callback or status response. */
export const CALLBACK_FIELD_SWITCHES = [
  'card',
  'brand',
  'arn_rrn',
  'card_on_file',
  'checkout_payment_method',
  'three_ds',
  'browser',
  'wallet',
  'payer_first_name',
  'payer_last_name',
  'payer_birth_date',
  'payer_address',
  'payer_address2',
  'payer_house_number',
  'payer_phone_country_code',
  'payer_country',
  'payer_state',
  'payer_city',
  'payer_district',
  'payer_zip',
  'payer_email',
  'payer_phone',
  'payer_ip',
] as const;

export type CallbackFieldSwitch = (typeof CALLBACK_FIELD_SWITCHES)[number];

/** The form fields each switch adds. */
export const PROTOCOL_MAPPING_FIELDS: Readonly<Record<CallbackFieldSwitch, readonly string[]>> = {
  // Callbacks always carry these two (spec Events item 2); the switch adds them to status responses.
  card: ['card', 'card_expiration_date'],
  brand: ['brand'],
  arn_rrn: ['arn', 'rrn'],
  card_on_file: ['initiator', 'source', 'sequence'],
  checkout_payment_method: ['checkout_payment_method'],
  three_ds: [
    'threeDSServerTransID',
    'dsTransID',
    'acsTransID',
    'xid',
    'transStatus',
    'transStatusReason',
    'eci',
    'protocolVersion',
    'authenticationFlow',
  ],
  browser: [
    'browser_color_depth',
    'browser_screen_height',
    'browser_screen_width',
    'browser_java_enabled',
    'browser_javascript_enabled',
    'browser_language',
    'browser_timezone_offset',
    'browser_user_agent',
    'browser_accept_headers',
    'browser_platform',
  ],
  wallet: ['digital_wallet', 'pan_type'],
  payer_first_name: ['payer_first_name'],
  payer_last_name: ['payer_last_name'],
  payer_birth_date: ['payer_birth_date'],
  payer_address: ['payer_address'],
  payer_address2: ['payer_address2'],
  payer_house_number: ['payer_house_number'],
  payer_phone_country_code: ['payer_phone_country_code'],
  payer_country: ['payer_country'],
  payer_state: ['payer_state'],
  payer_city: ['payer_city'],
  payer_district: ['payer_district'],
  payer_zip: ['payer_zip'],
  payer_email: ['payer_email'],
  payer_phone: ['payer_phone'],
  payer_ip: ['payer_ip'],
};

/** "Return additional parameters": query parameters appended to the payer's return URL. */
export const RETURN_PARAMETERS = ['payment_method', 'brand'] as const;

export type ReturnParameter = (typeof RETURN_PARAMETERS)[number];

/**
 * S2S SALE fields that are optional unless the merchant's mapping marks them Required (spec,
 * "S2S payer and card fields"): some acquirers need the payer's address for their risk checks.
 */
export const REQUIRABLE_SALE_FIELDS = ['payer_address', 'payer_country', 'payer_city', 'payer_zip'] as const;

export type RequirableSaleField = (typeof REQUIRABLE_SALE_FIELDS)[number];

export interface ProtocolMapping {
  /** Switched-on field groups, in CALLBACK_FIELD_SWITCHES order, no repeats. */
  fields: CallbackFieldSwitch[];
  /** Switched-on return parameters, in RETURN_PARAMETERS order, no repeats. */
  returnParameters: ReturnParameter[];
  /** SALE fields this merchant's requests must carry, in REQUIRABLE_SALE_FIELDS order. */
  requiredFields: RequirableSaleField[];
}

export const noProtocolMapping = (): ProtocolMapping => ({ fields: [], returnParameters: [], requiredFields: [] });

function canonical<T extends string>(all: readonly T[], chosen: readonly string[], what: string): T[] {
  const unknown = chosen.filter((name) => !(all as readonly string[]).includes(name));
  if (unknown.length) {
    throw new ProtocolMappingError(`Unknown ${what}: ${unknown.join(', ')} (known: ${all.join(', ')})`);
  }
  // One canonical order, so the same choice never shows up as a settings change.
  return all.filter((name) => chosen.includes(name));
}

/** Validates and orders a mapping; throws ProtocolMappingError on unknown names. */
export function protocolMapping(input: {
  fields?: readonly string[];
  returnParameters?: readonly string[];
  requiredFields?: readonly string[];
}): ProtocolMapping {
  return {
    fields: canonical(CALLBACK_FIELD_SWITCHES, input.fields ?? [], 'callback field switch'),
    returnParameters: canonical(RETURN_PARAMETERS, input.returnParameters ?? [], 'return parameter'),
    requiredFields: canonical(REQUIRABLE_SALE_FIELDS, input.requiredFields ?? [], 'requirable SALE field'),
  };
}

/**
 * Whatever a stored event or row holds, as a mapping: merchants registered before Protocol Mapping
 * existed have none (all off), and a name a later version dropped is ignored rather than fatal.
 */
export function protocolMappingOf(stored: unknown): ProtocolMapping {
  if (!stored || typeof stored !== 'object') return noProtocolMapping();
  const s = stored as { fields?: unknown; returnParameters?: unknown; requiredFields?: unknown };
  const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    fields: CALLBACK_FIELD_SWITCHES.filter((n) => names(s.fields).includes(n)),
    returnParameters: RETURN_PARAMETERS.filter((n) => names(s.returnParameters).includes(n)),
    requiredFields: REQUIRABLE_SALE_FIELDS.filter((n) => names(s.requiredFields).includes(n)),
  };
}

/** Parses an operator's list: `brand,arn_rrn`, `all` or `none`. */
export function parseSwitchList<T extends string>(text: string, all: readonly T[]): string[] {
  const trimmed = text.trim();
  if (trimmed === 'none' || trimmed === '') return [];
  if (trimmed === 'all') return [...all];
  return trimmed.split(',').map((s) => s.trim()).filter(Boolean);
}
