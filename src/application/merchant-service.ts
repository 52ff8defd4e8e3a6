/**
 * Merchant onboarding and settings, event-sourced like payments. Credentials are generated here
 * and shown once; the password is kept encrypted because requests are signed with it.
 */
import { merchantConnectors } from '../domain/merchant/connectors';
import { methodsSettingOf, type MethodsSetting } from '../domain/merchant/methods';
import { randomBytes, randomUUID } from 'node:crypto';
import { DomainError } from '../domain/errors';
import type { LinkTarget } from '../domain/checkout/session-events';
import type { Environment, MerchantSettings, PaymentMode } from '../domain/merchant/events';
import { merchantStreamId } from '../domain/merchant/events';
import { KEY_PREFIX } from '../domain/merchant/keys';
import { noProtocolMapping, protocolMapping, type ProtocolMapping } from '../domain/merchant/protocol-mapping';
import { handleCommand, loadState } from './command-handler';
import { merchantDecider } from '../domain/merchant/decider';
import type { Clock } from './ports/clock';
import type { EventStore } from './ports/event-store';
import type { MerchantLookup, MerchantRecord } from './ports/merchant-lookup';
import type { SecretCipher } from './ports/secret-cipher';

export interface MerchantCredentials {
  merchant_id: string;
  name: string;
  environment: Environment;
  client_key: string;
  merchant_key: string;
  password: string;
  payment_mode: PaymentMode;
  notification_url: string | null;
  ip_allowlist: string[];
  refunds_enabled: boolean;
  callback_fields: string[];
  return_params: string[];
  override_link_target: LinkTarget | null;
  card_on_file_support: boolean;
  /** Connectors in routing order. */
  connectors: readonly string[];
  /** Alternative payment methods it may take: `all` or their identifiers (its environment's default until set). */
  methods: MethodsSetting;
}

/** A merchant with its password decrypted, for request authentication only. */
export interface MerchantAccount extends Omit<MerchantRecord, 'passwordCiphertext'> {
  password: string;
  /**
   * The version of the merchant's stream these settings were read at: a write that must only
   * happen under current settings carries it as a version check (MerchantService.current).
   */
  settingsVersion: bigint;
}

export interface MerchantLookupOptions {
  /**
   * Default true: the cached settings are confirmed against the merchant's stream first. False
   * hands a cached account out unconfirmed, for a caller that confirms it itself (its write
   * carries `settingsVersion` as a check, or it asks `isCurrent` before answering a refusal).
   */
  verify?: boolean;
}

export interface RegisterMerchantInput {
  name: string;
  paymentMode?: PaymentMode;
  notificationUrl?: string | null;
  ipAllowlist?: string[];
  refundsEnabled?: boolean;
  /** Validated here (unknown switch names throw ProtocolMappingError); default all off. */
  protocolMapping?: { fields?: readonly string[]; returnParameters?: readonly string[]; requiredFields?: readonly string[] };
  /** Override Link Target; default unset (the session's `url_target` applies). */
  overrideLinkTarget?: LinkTarget | null;
  /** card_on_file_support; default off. */
  cardOnFileSupport?: boolean;
  /** Connectors in routing order; default the sandbox. Each must be one the deployment has. */
  connectors?: string[];
  /** Alternative methods it may take; default its environment's (sandbox: all; production: none). Each must be one the deployment offers. */
  methods?: MethodsSetting;
}

/** A merchant's connectors name one the deployment does not have, or none at all. */
export class UnknownConnectorError extends Error {
  constructor(
    readonly names: readonly string[],
    readonly configured: readonly string[],
  ) {
    super(
      names.length === 0
        ? 'A merchant needs at least one connector.'
        : `Unknown connector ${names.join(', ')} (this deployment has ${configured.join(', ')}).`,
    );
    this.name = 'UnknownConnectorError';
  }
}

/** A merchant's methods name one no connector of the deployment offers. */
export class UnknownMethodError extends Error {
  constructor(
    readonly names: readonly string[],
    readonly offered: readonly string[],
  ) {
    super(`Unknown payment method ${names.join(', ')} (this deployment offers ${offered.join(', ') || 'none'}).`);
    this.name = 'UnknownMethodError';
  }
}

/** Where a merchant's default notification URL may point, decided where every caller passes. */
export interface NotificationUrlRule {
  /** Why callbacks must not go to `url`, or null. */
  destinationProblem(url: string): Promise<string | null>;
}

/** A default notification URL refused by the rule (production: it points at a non-public address). */
export class NotificationUrlRefusedError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`notification URL ${url} refused: ${reason}`);
    this.name = 'NotificationUrlRefusedError';
  }
}

export class MerchantService {
  private readonly passwords = new Map<string, string>();
  /** Client key to merchant id never changes once registered, so it is safe to keep. */
  private readonly idByClientKey = new Map<string, string>();
  private readonly idByMerchantKey = new Map<string, string>();
  private readonly accounts = new Map<string, MerchantAccount>();

  constructor(
    private readonly deps: {
      store: EventStore;
      lookup: MerchantLookup;
      cipher: SecretCipher;
      clock: Clock;
      environment: Environment;
      /** Without it every URL is accepted (tests that build the service alone). */
      notificationUrls?: NotificationUrlRule;
      /** The deployment's connectors; without it any name is accepted. */
      connectorNames?: readonly string[];
      /** The alternative methods the deployment offers (and the wallets); without it any name is accepted. */
      methodNames?: readonly string[];
    },
  ) {}

  /** Every method a merchant's list names must be one the deployment offers. */
  private checkMethods(methods: MethodsSetting | undefined): void {
    if (methods === undefined || methods === 'all' || !this.deps.methodNames) return;
    const offered = this.deps.methodNames;
    const unknown = methods.filter((name) => !offered.includes(name));
    if (unknown.length > 0) throw new UnknownMethodError(unknown, offered);
  }

  /** Every connector a merchant routes to must be one this deployment has, and there must be one. */
  private checkConnectors(connectors: readonly string[] | undefined): void {
    if (connectors === undefined) return;
    const configured = this.deps.connectorNames;
    const unknown = configured ? connectors.filter((name) => !configured.includes(name)) : [];
    if (connectors.length === 0 || unknown.length > 0) throw new UnknownConnectorError(unknown, configured ?? []);
  }

  /** Refuses a default URL callbacks may not go to; URLs stored before the rule are the sender's to refuse. */
  private async checkNotificationUrl(url: string | null | undefined): Promise<void> {
    if (!url || !this.deps.notificationUrls) return;
    const problem = await this.deps.notificationUrls.destinationProblem(url);
    if (problem) throw new NotificationUrlRefusedError(url, problem);
  }

  async register(input: RegisterMerchantInput): Promise<MerchantCredentials> {
    await this.checkNotificationUrl(input.notificationUrl);
    this.checkConnectors(input.connectors);
    this.checkMethods(input.methods);
    const merchantId = randomUUID();
    const prefix = KEY_PREFIX[this.deps.environment];
    const clientKey = `${prefix}ck_${randomBytes(16).toString('hex')}`;
    const merchantKey = `${prefix}mk_${randomBytes(16).toString('hex')}`;
    const password = randomBytes(16).toString('hex');
    const settings: MerchantSettings = {
      name: input.name,
      paymentMode: input.paymentMode ?? 'SMS/DMS',
      notificationUrl: input.notificationUrl ?? null,
      ipAllowlist: input.ipAllowlist ?? [],
      refundsEnabled: input.refundsEnabled ?? true,
      protocolMapping: input.protocolMapping ? protocolMapping(input.protocolMapping) : noProtocolMapping(),
      // Recorded only when set, so registrations without it keep their earlier shape.
      ...(input.overrideLinkTarget ? { overrideLinkTarget: input.overrideLinkTarget } : {}),
      ...(input.cardOnFileSupport ? { cardOnFileSupport: true } : {}),
      ...(input.connectors ? { connectors: [...input.connectors] } : {}),
      ...(input.methods !== undefined ? { methods: input.methods === 'all' ? 'all' : [...input.methods] } : {}),
    };
    const mapping: ProtocolMapping = settings.protocolMapping ?? noProtocolMapping();
    await handleCommand(this.deps.store, merchantStreamId(merchantId), merchantDecider, {
      type: 'RegisterMerchant',
      data: {
        ...settings,
        merchantId,
        environment: this.deps.environment,
        clientKey,
        merchantKey,
        passwordCiphertext: this.deps.cipher.encrypt(password),
        now: this.deps.clock.now().toISOString(),
      },
    });
    return {
      merchant_id: merchantId,
      name: settings.name,
      environment: this.deps.environment,
      client_key: clientKey,
      merchant_key: merchantKey,
      password,
      payment_mode: settings.paymentMode,
      notification_url: settings.notificationUrl,
      ip_allowlist: settings.ipAllowlist,
      refunds_enabled: settings.refundsEnabled,
      callback_fields: mapping.fields,
      return_params: mapping.returnParameters,
      override_link_target: settings.overrideLinkTarget ?? null,
      card_on_file_support: settings.cardOnFileSupport === true,
      connectors: merchantConnectors(settings),
      methods: methodsSettingOf({ ...settings, environment: this.deps.environment }),
    };
  }

  async update(merchantId: string, changes: Partial<MerchantSettings>): Promise<void> {
    await this.checkNotificationUrl(changes.notificationUrl);
    this.checkConnectors(changes.connectors);
    this.checkMethods(changes.methods);
    // Canonical order, so re-sending the same switches records no change.
    if (changes.protocolMapping) changes = { ...changes, protocolMapping: protocolMapping(changes.protocolMapping) };
    await handleCommand(this.deps.store, merchantStreamId(merchantId), merchantDecider, {
      type: 'ChangeMerchantSettings',
      data: { changes, now: this.deps.clock.now().toISOString() },
    });
  }

  /** Finds a merchant by S2S client key; a merchant created a moment ago by another process is found too. */
  async byClientKey(clientKey: string, options: MerchantLookupOptions = {}): Promise<MerchantAccount | undefined> {
    let merchantId = this.idByClientKey.get(clientKey);
    if (merchantId === undefined) {
      let record = await this.deps.lookup.merchantByClientKey(clientKey);
      if (!record) {
        await this.deps.lookup.catchUpToHead(1000);
        record = await this.deps.lookup.merchantByClientKey(clientKey);
      }
      if (!record) return undefined;
      merchantId = record.merchantId;
      if (this.idByClientKey.size > 100_000) this.idByClientKey.clear();
      this.idByClientKey.set(clientKey, merchantId);
    }
    return this.current(merchantId, options.verify ?? true);
  }

  /** Finds a merchant by Checkout merchant key, like `byClientKey`. */
  async byMerchantKey(merchantKey: string): Promise<MerchantAccount | undefined> {
    let merchantId = this.idByMerchantKey.get(merchantKey);
    if (merchantId === undefined) {
      let record = await this.deps.lookup.merchantByMerchantKey(merchantKey);
      if (!record) {
        await this.deps.lookup.catchUpToHead(1000);
        record = await this.deps.lookup.merchantByMerchantKey(merchantKey);
      }
      if (!record) return undefined;
      merchantId = record.merchantId;
      if (this.idByMerchantKey.size > 100_000) this.idByMerchantKey.clear();
      this.idByMerchantKey.set(merchantKey, merchantId);
    }
    return this.current(merchantId);
  }

  /** The merchant's current settings and password, from its stream (cached while unchanged). */
  accountById(merchantId: string): Promise<MerchantAccount | undefined> {
    return this.current(merchantId);
  }

  /**
   * Settings do change: an operator who turns refunds off or narrows the IP allowlist expects the
   * very next request to obey, from whichever process changed them. So they come from the
   * merchant's stream, not a lagging read model; a cached copy is used only while the stream's
   * version says nothing was appended since.
   *
   * The version read costs a store round trip on every request. A caller that makes a write anyway
   * can skip it (`verify: false`) and carry the account's `settingsVersion` in that write as a
   * version check: the write then commits only if the settings it was decided under are still
   * current, and a refused check sends it back for the current ones.
   */
  private async current(merchantId: string, verify = true): Promise<MerchantAccount | undefined> {
    const cached = this.accounts.get(merchantId);
    if (cached && (!verify || (await this.isCurrent(cached)))) return cached;
    const { state, version } = await loadState(this.deps.store, merchantStreamId(merchantId), merchantDecider);
    if (!state.exists || version === null) return undefined;
    const { exists: _exists, ...settings } = state;
    const account = this.account(settings, version);
    if (this.accounts.size > 100_000) this.accounts.clear();
    this.accounts.set(merchantId, account);
    return account;
  }

  /** Whether nothing was appended to the merchant's stream since its account was read. */
  async isCurrent(account: MerchantAccount): Promise<boolean> {
    return (await this.deps.store.streamVersion(merchantStreamId(account.merchantId))) === account.settingsVersion;
  }

  async byId(merchantId: string): Promise<MerchantRecord | undefined> {
    await this.deps.lookup.catchUpToHead(2000);
    return this.deps.lookup.merchantById(merchantId);
  }

  async list(): Promise<MerchantRecord[]> {
    await this.deps.lookup.catchUpToHead(2000);
    return this.deps.lookup.listMerchants();
  }

  async requireById(merchantId: string): Promise<MerchantRecord> {
    const found = await this.byId(merchantId);
    if (!found) throw new DomainError('merchant_not_found', `Merchant ${merchantId} not found`);
    return found;
  }

  private account(record: MerchantRecord, settingsVersion: bigint): MerchantAccount {
    let password = this.passwords.get(record.passwordCiphertext);
    if (password === undefined) {
      password = this.deps.cipher.decrypt(record.passwordCiphertext);
      this.passwords.set(record.passwordCiphertext, password);
    }
    const { passwordCiphertext: _ciphertext, ...rest } = record;
    return { ...rest, password, settingsVersion };
  }
}
