/**
 * A merchant's settings as an operator types them, read once for every place that takes them:
 * the CLI's `merchant create|update` flags and the dashboard's merchant forms. Both hand in text
 * keyed by the setting's name (the CLI flag without its dashes), and both report a problem as
 * `<setting> <message>`, so they cannot disagree on what is valid or how it is worded.
 *
 * What needs the deployment (which connectors it has, whether callbacks may go to a URL's
 * address) is the merchant service's to check, when the settings are applied.
 */
import type { LinkTarget } from '../domain/checkout/session-events';
import { LINK_TARGETS } from '../domain/checkout/session-events';
import { parseCidr } from '../domain/merchant/ip-allowlist';
import { parseMethodsSetting } from '../domain/merchant/methods';
import type { MerchantSettings, PaymentMode } from '../domain/merchant/events';
import {
  CALLBACK_FIELD_SWITCHES,
  REQUIRABLE_SALE_FIELDS,
  RETURN_PARAMETERS,
  ProtocolMappingError,
  parseSwitchList,
  protocolMapping,
  type ProtocolMapping,
} from '../domain/merchant/protocol-mapping';
import type { RegisterMerchantInput } from './merchant-service';

export const PAYMENT_MODES: readonly PaymentMode[] = ['SMS', 'DMS', 'SMS/DMS'];

/** Every setting, in the order operators see them. */
export const MERCHANT_SETTINGS = [
  'name',
  'notification-url',
  'payment-mode',
  'ip-allowlist',
  'refunds',
  'callback-fields',
  'return-params',
  'required-fields',
  'link-target',
  'card-on-file',
  'connectors',
  'methods',
] as const;

export type MerchantSettingName = (typeof MERCHANT_SETTINGS)[number];

export type MerchantSettingsInput = Partial<Record<MerchantSettingName, string>>;

/** Reads as `<setting> <message>`: `payment-mode must be one of SMS, DMS, SMS/DMS`. */
export interface SettingProblem {
  setting: MerchantSettingName;
  message: string;
}

/** Protocol Mapping switches given; a list not given keeps the merchant's current one. */
export interface MappingChanges {
  fields?: string[];
  returnParameters?: string[];
  requiredFields?: string[];
}

export interface MerchantSettingsChanges {
  settings: Partial<MerchantSettings>;
  mapping?: MappingChanges;
}

export type ParsedSettings = { ok: true; value: MerchantSettingsChanges } | { ok: false; problems: SettingProblem[] };

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const onOff = (text: string): boolean | null => (text === 'on' ? true : text === 'off' ? false : null);

/**
 * The settings given, each checked; settings not given stay undefined. `forUpdate`: `none`
 * removes a notification URL (on create it is simply not given).
 */
export function parseMerchantSettings(input: MerchantSettingsInput, options: { forUpdate: boolean }): ParsedSettings {
  const problems: SettingProblem[] = [];
  const problem = (setting: MerchantSettingName, message: string) => problems.push({ setting, message });
  const settings: Partial<MerchantSettings> = {};

  const name = input.name;
  if (name !== undefined) {
    if (!name.trim()) problem('name', 'must not be empty');
    else settings.name = name.trim();
  }
  const url = input['notification-url'];
  if (url !== undefined) {
    if (options.forUpdate && url === 'none') settings.notificationUrl = null;
    else if (!isHttpUrl(url)) problem('notification-url', `must be an http(s) URL (got "${url}")`);
    else settings.notificationUrl = url;
  }
  const mode = input['payment-mode'];
  if (mode !== undefined) {
    if (!(PAYMENT_MODES as readonly string[]).includes(mode)) problem('payment-mode', `must be one of ${PAYMENT_MODES.join(', ')}`);
    else settings.paymentMode = mode as PaymentMode;
  }
  const allow = input['ip-allowlist'];
  if (allow !== undefined) {
    const entries = allow.trim() === 'none' ? [] : allow.split(/[,\s]+/).map((s) => s.trim()).filter(Boolean);
    const wrong = entries.filter((entry) => !parseCidr(entry));
    if (wrong.length) problem('ip-allowlist', `has "${wrong[0]}", which is not an IP address or CIDR block`);
    else settings.ipAllowlist = entries;
  }
  const refunds = input.refunds;
  if (refunds !== undefined) {
    const on = onOff(refunds);
    if (on === null) problem('refunds', 'must be on or off');
    else settings.refundsEnabled = on;
  }
  const target = input['link-target'];
  if (target !== undefined) {
    if (target === 'none') settings.overrideLinkTarget = null;
    else if (!(LINK_TARGETS as readonly string[]).includes(target)) problem('link-target', `must be one of ${LINK_TARGETS.join(', ')} or none`);
    else settings.overrideLinkTarget = target as LinkTarget;
  }
  const cardOnFile = input['card-on-file'];
  if (cardOnFile !== undefined) {
    const on = onOff(cardOnFile);
    if (on === null) problem('card-on-file', 'must be on or off');
    else settings.cardOnFileSupport = on;
  }
  const connectors = input.connectors;
  if (connectors !== undefined) {
    const names = connectors.split(',').map((s) => s.trim()).filter(Boolean);
    if (names.length === 0) problem('connectors', 'must name at least one connector');
    else settings.connectors = names;
  }
  const methods = input.methods;
  if (methods !== undefined) {
    // Whether each is one the deployment offers is the merchant service's to say.
    const setting = parseMethodsSetting(methods);
    if (setting === null) problem('methods', 'must be all, none or a comma-separated list of methods');
    else settings.methods = setting;
  }

  const mapping: MappingChanges = {};
  const switches = <T extends string>(setting: MerchantSettingName, all: readonly T[], key: keyof MappingChanges) => {
    const text = input[setting];
    if (text === undefined) return;
    const chosen = parseSwitchList(text, all);
    try {
      protocolMapping({ [key]: chosen });
      mapping[key] = chosen;
    } catch (error) {
      if (!(error instanceof ProtocolMappingError)) throw error;
      problem(setting, `is not valid: ${error.message}`);
    }
  };
  switches('callback-fields', CALLBACK_FIELD_SWITCHES, 'fields');
  switches('return-params', RETURN_PARAMETERS, 'returnParameters');
  switches('required-fields', REQUIRABLE_SALE_FIELDS, 'requiredFields');

  if (problems.length) return { ok: false, problems };
  return { ok: true, value: { settings, ...(Object.keys(mapping).length ? { mapping } : {}) } };
}

/** The merchant's mapping with the given lists applied; a list not given keeps its current value. */
export function withMappingChanges(current: ProtocolMapping, changes: MappingChanges): ProtocolMapping {
  return protocolMapping({
    fields: changes.fields ?? current.fields,
    returnParameters: changes.returnParameters ?? current.returnParameters,
    requiredFields: changes.requiredFields ?? current.requiredFields,
  });
}

/** What `MerchantService.register` takes; null when no name was given (it is required on create). */
export function registrationOf(parsed: MerchantSettingsChanges): RegisterMerchantInput | null {
  const s = parsed.settings;
  if (!s.name) return null;
  return {
    name: s.name,
    paymentMode: s.paymentMode,
    notificationUrl: s.notificationUrl,
    ipAllowlist: s.ipAllowlist,
    refundsEnabled: s.refundsEnabled,
    protocolMapping: parsed.mapping,
    overrideLinkTarget: s.overrideLinkTarget,
    cardOnFileSupport: s.cardOnFileSupport,
    connectors: s.connectors,
    methods: s.methods,
  };
}
