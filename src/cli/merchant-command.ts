/**
 * `npm run gateway -- merchant create|list|show|update`: the merchants' accounts and settings, as the
 * dashboard's merchant forms edit them.
 */
import path from 'node:path';
import { merchantConnectors } from '../domain/merchant/connectors';
import { methodsSettingOf } from '../domain/merchant/methods';
import { loadConfig } from '../config';
import type { Gateway } from '../composition';
import {
  MERCHANT_SETTINGS,
  parseMerchantSettings,
  registrationOf,
  withMappingChanges,
  type MerchantSettingsChanges,
  type MerchantSettingsInput,
} from '../application/merchant-settings-input';
import { decryptSecret } from '../adapters/vault/secret-box';
import { loadOrCreateVaultKey } from '../adapters/vault/card-vault';
import { UsageError, flag, print, withGateway, type Parsed } from './args';
import { usageError } from './help';
import { merchantHelp } from './merchant-help';

/**
 * The settings flags given (`--payment-mode DMS` is the setting `payment-mode`), read by the parser
 * the dashboard's merchant forms use too, so both accept and refuse the same things in the same words.
 */
function settingsFlags(p: Parsed, forUpdate: boolean): MerchantSettingsChanges {
  const input: MerchantSettingsInput = {};
  for (const name of MERCHANT_SETTINGS) {
    const value = flag(p, name);
    if (value !== undefined) input[name] = value;
  }
  const parsed = parseMerchantSettings(input, { forUpdate });
  if (!parsed.ok) throw new UsageError(`--${parsed.problems[0].setting} ${parsed.problems[0].message}`);
  return parsed.value;
}

function publicMerchant(m: Awaited<ReturnType<Gateway['merchants']['list']>>[number]) {
  return {
    merchant_id: m.merchantId,
    name: m.name,
    environment: m.environment,
    client_key: m.clientKey,
    merchant_key: m.merchantKey,
    payment_mode: m.paymentMode,
    notification_url: m.notificationUrl,
    ip_allowlist: m.ipAllowlist,
    refunds_enabled: m.refundsEnabled,
    callback_fields: m.protocolMapping.fields,
    return_params: m.protocolMapping.returnParameters,
    required_fields: m.protocolMapping.requiredFields,
    override_link_target: m.overrideLinkTarget ?? null,
    card_on_file_support: m.cardOnFileSupport === true,
    connectors: merchantConnectors(m),
    methods: methodsSettingOf(m),
    registered_at: m.registeredAt,
    updated_at: m.updatedAt,
  };
}

export async function merchantCommand(p: Parsed): Promise<void> {
  const sub = p.positional[1];
  const json = p.flags.get('json') === true;
  switch (sub) {
    case 'create': {
      const registration = registrationOf(settingsFlags(p, false));
      if (!registration) throw usageError(merchantHelp, 'merchant create needs --name', 'create');
      // The one command besides starting the gateway that may begin from an empty data directory.
      const created = await withGateway((g) => g.merchants.register(registration), { mayCreate: true });
      print(created, json, () =>
        Object.entries(created)
          .map(([k, v]) => `${k.padEnd(20)} ${Array.isArray(v) ? v.join(',') : String(v)}`)
          .join('\n'),
      );
      return;
    }
    case 'list': {
      const list = (await withGateway((g) => g.merchants.list())).map(publicMerchant);
      print(list, json, () =>
        list.length === 0
          ? 'No merchants yet. Create one with: npm run gateway -- merchant create --name "My shop"'
          : list.map((m) => `${m.merchant_id}  ${m.payment_mode.padEnd(7)}  ${m.client_key}  ${m.name}`).join('\n'),
      );
      return;
    }
    case 'show': {
      const id = p.positional[2];
      if (!id) throw usageError(merchantHelp, 'merchant show needs a merchant id', 'show');
      const found = await withGateway((g) => g.merchants.byId(id));
      if (!found) throw new UsageError(`No merchant ${id}`);
      const out: Record<string, unknown> = publicMerchant(found);
      if (p.flags.get('show-password') === true) {
        const config = loadConfig();
        const key = loadOrCreateVaultKey({ keyHex: config.vaultKeyHex ?? undefined, keyFile: path.join(config.dataDir, 'vault.key') });
        out.password = decryptSecret(key, found.passwordCiphertext, 'merchant-password');
      }
      print(out, json, () =>
        Object.entries(out)
          .map(([k, v]) => `${k.padEnd(20)} ${Array.isArray(v) ? v.join(',') : String(v)}`)
          .join('\n'),
      );
      return;
    }
    case 'update': {
      const id = p.positional[2];
      if (!id) throw usageError(merchantHelp, 'merchant update needs a merchant id', 'update');
      const { settings: changes, mapping } = settingsFlags(p, true);
      if (Object.keys(changes).length === 0 && !mapping) throw usageError(merchantHelp, 'merchant update: nothing to change', 'update');
      const updated = await withGateway(async (g) => {
        const current = await g.merchants.requireById(id);
        if (mapping) changes.protocolMapping = withMappingChanges(current.protocolMapping, mapping);
        await g.merchants.update(id, changes);
        await g.projector!.catchUp();
        return g.merchants.byId(id);
      });
      print(publicMerchant(updated!), json, () => `Merchant ${id} updated.`);
      return;
    }
    default:
      throw usageError(merchantHelp, sub ? `Unknown: merchant ${sub}` : undefined);
  }
}
