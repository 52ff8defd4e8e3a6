/**
 * `wallet init|keys|mint|set|show`: Apple Pay and Google Pay for a merchant.
 *
 * - init: the sandbox's own trust material (Sandbox Wallet Root CA, intermediate and token signer;
 *   Google-shaped root signing keys) in the data directory. Refused in production.
 * - keys: new keys and a merchant identity for a sandbox merchant, set as its wallet settings.
 * - mint: a token for a card that the sandbox verifies and decrypts like a real one.
 * - set / show: the wallet settings (keys pasted as one line between BEGIN and END).
 */
import fs from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import type { Gateway } from '../composition';
import { loadConfig } from '../config';
import { WalletSettingsInvalid, keyToOneLine } from '../domain/wallets/settings';
import { isWallet } from '../domain/wallets/token-shape';
import type { WalletSettingsInput, WalletSettingsView } from '../application/wallets';
import { UsageError, flag, print, requireGatewayData, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';

const INIT = 'npm run gateway -- wallet init [--renew] [--json]';
const KEYS = 'npm run gateway -- wallet keys --merchant <merchant_key|client_key|id> [--merchant-identifier merchant.x] [--gateway NAME] [--json]';
const MINT =
  'npm run gateway -- wallet mint --wallet applepay|googlepay --merchant <key> --pan <pan> --exp MM/YYYY ' +
  '[--auth-method PAN_ONLY|CRYPTOGRAM_3DS] [--signed-at <ISO time>] [--holder NAME] [--payment-data]';
const SET = 'npm run gateway -- wallet set --merchant <key> [setting flags] [--json]';
const SHOW = 'npm run gateway -- wallet show --merchant <key> [--json]';

const SET_FLAGS = [
  '  Apple Pay:',
  '  --merchant-identifier ID        Merchant Identifier (merchant.com.example)',
  '  --certificate-file FILE         Certificate (PEM), the merchant identity certificate',
  '  --private-key-file FILE         Private Key of that certificate: one line, BEGIN...END, no spaces or breaks',
  '  --processing-key-file FILE      Processing Private Key, one line the same way (P-256, PKCS#8 or SEC1)',
  '  --country CC                    Country (ISO 3166-1 alpha-2)',
  '  --shop-name NAME                Shop Name',
  '  --capabilities a,b              Merchant Capabilities (supports3DS, supportsCredit, supportsDebit, supportsEMV)',
  '  --networks a,b                  Supported Networks (visa, masterCard, amex, discover, ...)',
  '  Google Pay:',
  '  --google-environment ENV        Environment: TEST or PRODUCTION',
  '  --gateway NAME                  Gateway: tokens are for recipient gateway:NAME',
  '  --gateway-merchant-id ID        Gateway Merchant ID; "none" for the default, the client_key',
  '  --google-key-file FILE          the private key tokens are encrypted to, one line like the others',
  '  Both:',
  '  --domains a.com,b.com|none      the domains the wallet buttons run on (at most 99)',
  '  --domain-association-file FILE  Apple Pay domain verification file ("none" removes it)',
].join('\n');

export const walletHelp: CommandHelp = {
  name: 'wallet',
  summary: 'Apple Pay and Google Pay: sandbox trust material, merchant keys and settings, test tokens',
  usage: [
    `usage: ${INIT}`,
    `       ${KEYS}`,
    `       ${MINT}`,
    `       ${SET}`,
    `       ${SHOW}`,
    '',
    'init makes the sandbox\'s own wallet roots (refused in production); keys gives a sandbox merchant',
    'new wallet keys; mint prints a token for a card that this sandbox verifies and decrypts; set and',
    'show are a merchant\'s wallet settings. See docs/wallets.md.',
  ].join('\n'),
  subcommands: {
    init: [
      `usage: ${INIT}`,
      '',
      'Makes the Sandbox Wallet Root CA, its intermediate CA and token signer (Apple Pay) and root signing',
      'keys in Google\'s keys.json shape (Google Pay) in DATA_DIR/wallet-sandbox, owner-only. The sandbox',
      'trusts these and never the wallets\' real roots. An existing set is kept; --renew replaces it',
      '(tokens minted before then stop verifying). Refused in production.',
    ].join('\n'),
    keys: [
      `usage: ${KEYS}`,
      '',
      'Generates a Processing Private Key and a merchant identity (certificate and key) for Apple Pay and a',
      'private key for Google Pay, sets them as the merchant\'s wallet settings, and prints what a merchant',
      'would configure. Sandbox only.',
      '',
      '  --merchant-identifier ID  Apple Pay Merchant Identifier (default merchant.sandbox.<merchant id>)',
      '  --gateway NAME            Google Pay Gateway (default sandbox)',
    ].join('\n'),
    mint: [
      `usage: ${MINT}`,
      '',
      'Prints a wallet token (compact JSON, to send as it is) for the card, encrypted to the merchant\'s',
      'keys and signed with the sandbox\'s trust material from wallet init. Sandbox only.',
      '',
      '  --auth-method     Google Pay: PAN_ONLY (the card number, FPAN) or CRYPTOGRAM_3DS (DPAN; default)',
      '  --signed-at       when the token was signed (default now); Apple Pay refuses tokens signed more',
      '                    than five minutes before they arrive',
      '  --payment-data    Google Pay: the whole PaymentData, the token at paymentMethodData.tokenizationData.token',
    ].join('\n'),
    set: [`usage: ${SET}`, '', 'Changes the merchant\'s wallet settings; a flag not given keeps its value.', '', SET_FLAGS].join('\n'),
    show: [`usage: ${SHOW}`, '', 'The merchant\'s wallet settings, without the keys themselves.'].join('\n'),
  },
};

function requireSandbox(what: string): void {
  if (loadConfig().environment === 'production') {
    throw new WalletCommandRefused(`wallet ${what} exists in the sandbox only; this gateway runs in production.`);
  }
}

class WalletCommandRefused extends Error {}

async function merchantOf(g: Gateway, key: string) {
  const found =
    (await g.merchants.byMerchantKey(key)) ?? (await g.merchants.byClientKey(key)) ?? (await g.merchants.accountById(key).catch(() => undefined));
  if (!found) throw new UsageError(`No merchant ${key}`);
  return found;
}

const list = (text: string): string[] => text.split(',').map((s) => s.trim()).filter(Boolean);

/** A file's text without its final line break (a one-line key saved by an editor has one). */
function fileText(name: string, path: string): string {
  try {
    return fs.readFileSync(path, 'utf8').replace(/\r?\n$/, '');
  } catch {
    throw new UsageError(`--${name}: cannot read ${path}`);
  }
}

function settingsInput(p: Parsed): WalletSettingsInput {
  const input: WalletSettingsInput = {};
  const apple: NonNullable<WalletSettingsInput['apple']> = {};
  const google: NonNullable<WalletSettingsInput['google']> = {};
  const file = (name: string) => {
    const path = flag(p, name);
    return path === undefined ? undefined : path === 'none' ? null : fileText(name, path);
  };
  const text = (name: string) => flag(p, name);
  if (text('merchant-identifier') !== undefined) apple.merchantIdentifier = text('merchant-identifier');
  const certificate = file('certificate-file');
  if (certificate !== undefined) apple.certificate = certificate;
  const privateKey = file('private-key-file');
  if (privateKey !== undefined) apple.privateKey = privateKey;
  const processing = file('processing-key-file');
  if (processing !== undefined) apple.processingPrivateKey = processing;
  if (text('country') !== undefined) apple.country = text('country') === 'none' ? null : text('country');
  if (text('shop-name') !== undefined) apple.shopName = text('shop-name') === 'none' ? null : text('shop-name');
  if (text('capabilities') !== undefined) apple.merchantCapabilities = list(text('capabilities')!);
  if (text('networks') !== undefined) apple.supportedNetworks = list(text('networks')!);
  if (text('google-environment') !== undefined) google.environment = text('google-environment');
  if (text('gateway') !== undefined) google.gateway = text('gateway');
  if (text('gateway-merchant-id') !== undefined) google.gatewayMerchantId = text('gateway-merchant-id') === 'none' ? null : text('gateway-merchant-id');
  const googleKey = file('google-key-file');
  if (googleKey !== undefined) google.privateKey = googleKey;
  if (Object.keys(apple).length > 0) input.apple = apple;
  if (Object.keys(google).length > 0) input.google = google;
  const domains = text('domains');
  if (domains !== undefined) input.domains = domains === 'none' ? [] : list(domains);
  const association = file('domain-association-file');
  if (association !== undefined) input.domainAssociation = association;
  return input;
}

function showView(view: WalletSettingsView, clientKey: string, json: boolean): void {
  print(view, json, () => {
    const lines = [`merchant ${view.merchantId}`];
    if (view.apple) {
      const a = view.apple;
      lines.push(
        'Apple Pay',
        `  merchant identifier      ${a.merchantIdentifier ?? '(none)'}`,
        `  certificate              ${a.certificateSet ? 'set' : '(none)'}`,
        `  private key              ${a.privateKeySet ? 'set' : '(none)'}`,
        `  processing private key   ${a.processingPrivateKeySet ? `set (publicKeyHash ${a.processingPublicKeyHash})` : '(none)'}`,
        `  country                  ${a.country ?? '(none)'}`,
        `  shop name                ${a.shopName ?? '(none)'}`,
        `  merchant capabilities    ${a.merchantCapabilities.join(',') || '(none)'}`,
        `  supported networks       ${a.supportedNetworks.join(',') || '(none)'}`,
      );
    }
    if (view.google) {
      const g = view.google;
      lines.push(
        'Google Pay',
        `  environment              ${g.environment}`,
        `  gateway                  ${g.gateway ?? '(none)'}`,
        `  gateway merchant id      ${g.gatewayMerchantId ?? `${clientKey} (the client_key)`}`,
        `  private key              ${g.privateKeySet ? `set (public key ${g.publicKey})` : '(none)'}`,
      );
    }
    lines.push(`domains                    ${view.domains.join(',') || '(none)'}`, `domain association file    ${view.domainAssociationSet ? 'set' : '(none)'}`);
    return lines.join('\n');
  });
}

function parseExpiry(text: string | undefined): { expMonth: string; expYear: string } {
  const match = /^(0[1-9]|1[0-2])\/(20\d\d)$/.exec(text ?? '');
  if (!match) throw usageError(walletHelp, `--exp must be MM/YYYY (got "${text ?? ''}")`, 'mint');
  return { expMonth: match[1], expYear: match[2] };
}

async function mint(p: Parsed): Promise<number> {
  requireSandbox('mint');
  const wallet = flag(p, 'wallet');
  if (!isWallet(wallet)) throw usageError(walletHelp, '--wallet must be applepay or googlepay', 'mint');
  const key = flag(p, 'merchant');
  if (!key) throw usageError(walletHelp, 'wallet mint needs --merchant', 'mint');
  const pan = flag(p, 'pan') ?? '';
  if (!/^\d{12,19}$/.test(pan)) throw usageError(walletHelp, '--pan must be 12 to 19 digits', 'mint');
  const expiry = parseExpiry(flag(p, 'exp'));
  const authMethod = flag(p, 'auth-method') ?? 'CRYPTOGRAM_3DS';
  if (authMethod !== 'PAN_ONLY' && authMethod !== 'CRYPTOGRAM_3DS') throw usageError(walletHelp, '--auth-method must be PAN_ONLY or CRYPTOGRAM_3DS', 'mint');
  if (wallet === 'applepay' && flag(p, 'auth-method') !== undefined) throw usageError(walletHelp, '--auth-method is for Google Pay tokens', 'mint');
  const signedAtText = flag(p, 'signed-at');
  const signedAtGiven = signedAtText === undefined ? null : new Date(signedAtText);
  if (signedAtGiven && Number.isNaN(signedAtGiven.getTime())) throw usageError(walletHelp, `--signed-at is not a time: ${signedAtText}`, 'mint');
  const holder = flag(p, 'holder');
  const card = { pan, ...expiry, ...(holder ? { holder } : {}) };
  const { loadSandboxWalletMaterial } = await import('../adapters/wallets/sandbox-trust');
  const { mintAppleToken, mintGoogleToken } = await import('../adapters/wallets/mint');
  const { p256PublicKeyFromPoint } = await import('../adapters/wallets/pki');
  const token = await withGateway(async (g) => {
    const material = loadSandboxWalletMaterial(g.config.dataDir);
    if (!material) throw new WalletCommandRefused('No sandbox wallet roots yet: run npm run gateway -- wallet init first.');
    const merchant = await merchantOf(g, key);
    const recipients = await g.wallets.settings.recipients(merchant.merchantId);
    // The gateway's own now, so a sandbox clock moved ahead still accepts a fresh token.
    const signedAt = signedAtGiven ?? g.clock.now();
    if (wallet === 'applepay') {
      if (!recipients.apple) throw new WalletCommandRefused(`Merchant ${key} has no Apple Pay Processing Private Key and Merchant Identifier: run wallet keys first.`);
      return mintAppleToken({
        material,
        processingKey: p256PublicKeyFromPoint(recipients.apple.processingPublicKey),
        merchantIdentifier: recipients.apple.merchantIdentifier,
        card,
        signedAt,
      });
    }
    if (!recipients.google) throw new WalletCommandRefused(`Merchant ${key} has no Google Pay key and Gateway: run wallet keys first.`);
    const ecv2 = mintGoogleToken({
      material,
      recipientKey: p256PublicKeyFromPoint(recipients.google.publicKey),
      recipientId: recipients.google.recipientId,
      gatewayMerchantId: recipients.google.gatewayMerchantId ?? merchant.clientKey,
      card,
      authMethod,
      signedAt,
    });
    if (p.flags.get('payment-data') !== true) return ecv2;
    return {
      apiVersion: 2,
      apiVersionMinor: 0,
      paymentMethodData: {
        type: 'CARD',
        description: `Card ${pan.slice(-4)}`,
        info: { cardNetwork: 'VISA', cardDetails: pan.slice(-4) },
        tokenizationData: { type: 'PAYMENT_GATEWAY', token: JSON.stringify(ecv2) },
      },
    };
  });
  // Compact: a token is sent exactly as it is printed, never pretty-printed.
  process.stdout.write(`${JSON.stringify(token)}\n`);
  return 0;
}

async function keys(p: Parsed): Promise<number> {
  requireSandbox('keys');
  const key = flag(p, 'merchant');
  if (!key) throw usageError(walletHelp, 'wallet keys needs --merchant', 'keys');
  const json = p.flags.get('json') === true;
  const { issueCertificate, OID_APPLE_MERCHANT_ID, certificateToPem, sha256 } = await import('../adapters/wallets/pki');
  const result = await withGateway(async (g) => {
    const merchant = await merchantOf(g, key);
    const merchantIdentifier = flag(p, 'merchant-identifier') ?? `merchant.sandbox.${merchant.merchantId}`;
    const gateway = flag(p, 'gateway') ?? 'sandbox';
    const pem = (k: ReturnType<typeof generateKeyPairSync>['privateKey']) => k.export({ format: 'pem', type: 'pkcs8' }).toString();
    const processing = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const identity = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const googleKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const now = g.clock.now();
    // Apple issues the identity certificate; in the sandbox it is self-signed, with Apple's field
    // for the merchant identifier's hash, so it has the shape a real one has.
    const certificate = await issueCertificate({
      subject: { commonName: `Merchant ID: ${merchantIdentifier}`, uid: merchantIdentifier, organization: merchant.name, country: 'US' },
      publicKey: identity.publicKey,
      selfSignKey: identity.privateKey,
      ca: false,
      notBefore: new Date(now.getTime() - 86_400_000),
      notAfter: new Date(now.getTime() + 2 * 365 * 86_400_000),
      markers: [{ oid: OID_APPLE_MERCHANT_ID, value: Buffer.concat([Buffer.from([0x0c, 0x40]), Buffer.from(sha256(Buffer.from(merchantIdentifier)).toString('hex').toUpperCase())]) }],
    });
    const processingLine = keyToOneLine(pem(processing.privateKey));
    const googleLine = keyToOneLine(pem(googleKey.privateKey));
    const view = await g.wallets.settings.update(merchant.merchantId, {
      apple: {
        merchantIdentifier,
        certificate: certificateToPem(certificate),
        privateKey: keyToOneLine(pem(identity.privateKey)),
        processingPrivateKey: processingLine,
        country: 'US',
        shopName: merchant.name.slice(0, 64),
        merchantCapabilities: ['supports3DS'],
        supportedNetworks: ['visa', 'masterCard', 'amex', 'discover'],
      },
      google: { environment: 'TEST', gateway, privateKey: googleLine },
    });
    return {
      merchant_id: merchant.merchantId,
      apple_pay: {
        merchant_identifier: merchantIdentifier,
        processing_private_key: processingLine,
        public_key_hash: view.apple?.processingPublicKeyHash,
      },
      google_pay: {
        environment: 'TEST',
        gateway,
        gateway_merchant_id: view.google?.gatewayMerchantId ?? merchant.clientKey,
        private_key: googleLine,
        public_key: view.google?.publicKey,
      },
    };
  });
  print(result, json, () =>
    [
      `Wallet keys set for merchant ${result.merchant_id} (sandbox).`,
      '',
      'Apple Pay',
      `  Merchant Identifier      ${result.apple_pay.merchant_identifier}`,
      `  Processing Private Key   ${result.apple_pay.processing_private_key}`,
      `  (tokens name it by publicKeyHash ${result.apple_pay.public_key_hash})`,
      'Google Pay',
      `  Environment              ${result.google_pay.environment}`,
      `  Gateway                  ${result.google_pay.gateway}   (tokenizationSpecification: gateway "${result.google_pay.gateway}")`,
      `  Gateway Merchant ID      ${result.google_pay.gateway_merchant_id}`,
      `  Private Key              ${result.google_pay.private_key}`,
      `  Public key               ${result.google_pay.public_key}`,
      '',
      'Make a test token: npm run gateway -- wallet mint --wallet applepay --merchant <key> --pan 4111111111111111 --exp 12/2030',
    ].join('\n'),
  );
  return 0;
}

async function init(p: Parsed): Promise<number> {
  const config = loadConfig();
  if (config.environment === 'production') {
    throw new WalletCommandRefused('wallet init makes the sandbox\'s own trust roots; production trusts only the wallets\' real roots.');
  }
  requireGatewayData(config);
  const { initSandboxWalletMaterial } = await import('../adapters/wallets/sandbox-trust');
  const { material, created } = await initSandboxWalletMaterial(config.dataDir, new Date(), p.flags.get('renew') === true);
  const shown = {
    created,
    directory: material.directory,
    apple_root_ca: { subject: material.appleRoot.subject.replace(/\n/g, ', '), sha256: material.appleRoot.fingerprint256 },
    google_root_signing_keys: material.googleRootKeys.keys.length,
  };
  print(shown, p.flags.get('json') === true, () =>
    [
      created ? `Sandbox wallet roots made in ${material.directory}.` : `Sandbox wallet roots already in ${material.directory} (--renew replaces them).`,
      `  Apple Pay root     Sandbox Wallet Root CA, SHA-256 ${shown.apple_root_ca.sha256}`,
      `  Google Pay roots   ${shown.google_root_signing_keys} root signing key(s), keys.json shape`,
      'Next: npm run gateway -- wallet keys --merchant <merchant_key>',
    ].join('\n'),
  );
  return 0;
}

export async function walletCommand(p: Parsed): Promise<number> {
  const sub = p.positional[1];
  try {
    switch (sub) {
      case 'init':
        return await init(p);
      case 'keys':
        return await keys(p);
      case 'mint':
        return await mint(p);
      case 'set': {
        const key = flag(p, 'merchant');
        if (!key) throw usageError(walletHelp, 'wallet set needs --merchant', 'set');
        const input = settingsInput(p);
        if (Object.keys(input).length === 0) throw usageError(walletHelp, 'wallet set: nothing to change', 'set');
        await withGateway(async (g) => {
          const merchant = await merchantOf(g, key);
          showView(await g.wallets.settings.update(merchant.merchantId, input), merchant.clientKey, p.flags.get('json') === true);
        });
        return 0;
      }
      case 'show': {
        const key = flag(p, 'merchant');
        if (!key) throw usageError(walletHelp, 'wallet show needs --merchant', 'show');
        await withGateway(async (g) => {
          const merchant = await merchantOf(g, key);
          showView(await g.wallets.settings.view(merchant.merchantId), merchant.clientKey, p.flags.get('json') === true);
        });
        return 0;
      }
      default:
        throw usageError(walletHelp, sub ? `Unknown: wallet ${sub}` : undefined);
    }
  } catch (error) {
    if (error instanceof WalletSettingsInvalid) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof WalletCommandRefused) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

