/**
 * A merchant's wallet settings and their rules, checked before anything is stored. Private keys are
 * pasted as ONE line between BEGIN and END (the way the settings form takes them) and are stored
 * encrypted; everything else here is public.
 */

export class WalletSettingsInvalid extends Error {
  constructor(
    /** The setting, as the merchant knows it (`Processing Private Key`, `domains`, ...). */
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = 'WalletSettingsInvalid';
  }
}

export const MAX_WALLET_DOMAINS = 99;
export const MAX_DOMAIN_ASSOCIATION_CHARS = 100 * 1024;

export const MERCHANT_CAPABILITIES = ['supports3DS', 'supportsCredit', 'supportsDebit', 'supportsEMV'] as const;
export const SUPPORTED_NETWORKS = [
  'amex',
  'bancomat',
  'bancontact',
  'cartesBancaires',
  'chinaUnionPay',
  'dankort',
  'discover',
  'eftpos',
  'electron',
  'elo',
  'girocard',
  'interac',
  'jcb',
  'mada',
  'maestro',
  'masterCard',
  'mir',
  'privateLabel',
  'visa',
  'vPay',
] as const;
export const GOOGLE_ENVIRONMENTS = ['TEST', 'PRODUCTION'] as const;
export type GoogleEnvironment = (typeof GOOGLE_ENVIRONMENTS)[number];

/** Apple Pay settings as stored: keys only as ciphertext. */
export interface AppleWalletSettings {
  merchantIdentifier: string | null;
  /** The merchant identity certificate (PEM), for merchant validation sessions. */
  certificate: string | null;
  /** The merchant identity certificate's private key, encrypted. */
  privateKeyCiphertext: string | null;
  /** The Processing Private Key that decrypts tokens, encrypted. */
  processingPrivateKeyCiphertext: string | null;
  /** Base64 SHA-256 of the processing public key: what tokens name in `header.publicKeyHash`. */
  processingPublicKeyHash: string | null;
  country: string | null;
  shopName: string | null;
  merchantCapabilities: string[];
  supportedNetworks: string[];
}

export interface GoogleWalletSettings {
  environment: GoogleEnvironment;
  /** Recipient `gateway:<gateway>` of the tokens. */
  gateway: string | null;
  /** What tokens must carry as `gatewayMerchantId`; null means the merchant's client_key. */
  gatewayMerchantId: string | null;
  /** The key tokens are encrypted to, encrypted here. */
  privateKeyCiphertext: string | null;
  /** Base64 uncompressed point of that key: what is registered with the wallet. */
  publicKey: string | null;
}

export const emptyAppleSettings = (): AppleWalletSettings => ({
  merchantIdentifier: null,
  certificate: null,
  privateKeyCiphertext: null,
  processingPrivateKeyCiphertext: null,
  processingPublicKeyHash: null,
  country: null,
  shopName: null,
  merchantCapabilities: [],
  supportedNetworks: [],
});

export const emptyGoogleSettings = (): GoogleWalletSettings => ({
  environment: 'TEST',
  gateway: null,
  gatewayMerchantId: null,
  privateKeyCiphertext: null,
  publicKey: null,
});

const KEY_LINE = /^-----BEGIN (PRIVATE KEY|EC PRIVATE KEY)-----([A-Za-z0-9+/]+={0,2})-----END (PRIVATE KEY|EC PRIVATE KEY)-----$/;

/**
 * A private key pasted as one line: `-----BEGIN PRIVATE KEY-----<base64>-----END PRIVATE KEY-----`
 * (PKCS#8) or the same with `EC PRIVATE KEY` (SEC1), nothing before or after, no spaces, no line
 * breaks. Returns it as an ordinary PEM for the crypto; whether it is a P-256 key is the crypto's
 * to say.
 */
export function keyFromOneLine(setting: string, text: string): string {
  const match = KEY_LINE.exec(text);
  if (!match || match[1] !== match[3]) {
    throw new WalletSettingsInvalid(
      setting,
      `${setting} must be pasted as one line: -----BEGIN PRIVATE KEY----- (or EC PRIVATE KEY), the key, ` +
        `-----END PRIVATE KEY-----, without spaces or line breaks.`,
    );
  }
  const body = match[2].replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${match[1]}-----\n${body}\n-----END ${match[1]}-----\n`;
}

/** The one-line form of a PEM key, as the settings take it (what `wallet keys` prints). */
export function keyToOneLine(pem: string): string {
  return pem.replace(/\r?\n/g, '').trim();
}

export function certificateText(setting: string, text: string): string {
  const body = /^-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----\s*$/.exec(text.trim());
  if (!body || body[1].replace(/\s+/g, '') === '') {
    throw new WalletSettingsInvalid(setting, `${setting} must be a PEM certificate (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----).`);
  }
  const b64 = body[1].replace(/\s+/g, '').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`;
}

/** An Apple merchant identifier: `merchant.` then a reverse-domain name. */
export function merchantIdentifier(text: string): string {
  if (!/^merchant\.[A-Za-z0-9][A-Za-z0-9.-]{0,250}$/.test(text)) {
    throw new WalletSettingsInvalid('Merchant Identifier', 'Merchant Identifier must look like merchant.com.example.shop.');
  }
  return text;
}

export function country(text: string): string {
  if (!/^[A-Z]{2}$/.test(text)) throw new WalletSettingsInvalid('Country', 'Country must be an ISO 3166-1 alpha-2 code such as US.');
  return text;
}

export function shopName(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length < 1 || trimmed.length > 64) throw new WalletSettingsInvalid('Shop Name', 'Shop Name must be 1 to 64 characters.');
  return trimmed;
}

function subsetOf(setting: string, values: readonly string[], allowed: readonly string[]): string[] {
  const unknown = values.filter((v) => !allowed.includes(v));
  if (unknown.length > 0) throw new WalletSettingsInvalid(setting, `${setting}: unknown ${unknown.join(', ')} (known: ${allowed.join(', ')}).`);
  return [...new Set(values)];
}

export const merchantCapabilities = (values: readonly string[]): string[] =>
  subsetOf('Merchant Capabilities', values, MERCHANT_CAPABILITIES);

export const supportedNetworks = (values: readonly string[]): string[] => subsetOf('Supported Networks', values, SUPPORTED_NETWORKS);

export function googleEnvironment(text: string): GoogleEnvironment {
  if (!(GOOGLE_ENVIRONMENTS as readonly string[]).includes(text)) {
    throw new WalletSettingsInvalid('Environment', 'Environment must be TEST or PRODUCTION.');
  }
  return text as GoogleEnvironment;
}

export function googleGateway(text: string): string {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(text)) throw new WalletSettingsInvalid('Gateway', 'Gateway must be 1 to 64 letters, digits, dots, dashes or underscores.');
  return text;
}

export function gatewayMerchantId(text: string): string {
  if (!/^[\x21-\x7e]{1,128}$/.test(text)) {
    throw new WalletSettingsInvalid('Gateway Merchant ID', 'Gateway Merchant ID must be 1 to 128 printable characters without spaces.');
  }
  return text;
}

const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** Domains the merchant's wallet buttons run on: host names, lower-cased, each once, at most 99. */
export function walletDomains(values: readonly string[]): string[] {
  const domains = [...new Set(values.map((v) => v.trim().toLowerCase()).filter(Boolean))];
  const bad = domains.filter((d) => !HOSTNAME.test(d));
  if (bad.length > 0) throw new WalletSettingsInvalid('domains', `Not a domain name: ${bad.join(', ')}.`);
  if (domains.length > MAX_WALLET_DOMAINS) {
    throw new WalletSettingsInvalid('domains', `A merchant may register at most ${MAX_WALLET_DOMAINS} wallet domains (got ${domains.length}).`);
  }
  return domains;
}

export function domainAssociation(text: string): string {
  if (text.length === 0 || text.length > MAX_DOMAIN_ASSOCIATION_CHARS) {
    throw new WalletSettingsInvalid('domain association file', `The domain association file must be 1 to ${MAX_DOMAIN_ASSOCIATION_CHARS} characters.`);
  }
  return text;
}
