/**
 * Which wallet roots this deployment trusts.
 *
 * - Sandbox: only its own, from `wallet init` in the data directory, re-read when `wallet init
 *   --renew` replaces them; never Apple's or Google's real roots.
 * - Production: Apple's real root (WALLET_APPLE_ROOT_CA_FILE, else the built-in Apple Root CA - G3)
 *   and Google's real root signing keys (WALLET_GOOGLE_ROOT_KEYS_FILE, Google's `keys.json`; none
 *   configured: Google Pay tokens cannot be opened). A sandbox root given to production is refused
 *   when the gateway starts.
 */
import fs from 'node:fs';
import { X509Certificate } from 'node:crypto';
import type { GoogleRootSigningKey } from './google-ec-v2';
import { appleRootCaG3 } from './apple-root-ca-g3';
import { SANDBOX_WALLET_ORGANIZATION, loadSandboxWalletMaterial, sandboxAppleRootFile, type SandboxWalletMaterial } from './sandbox-trust';

export interface WalletTrust {
  appleRoots(): readonly X509Certificate[];
  googleRootKeys(): readonly GoogleRootSigningKey[];
}

export class WalletTrustError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WalletTrustError';
  }
}

/** The sandbox's own roots, read from the data directory when they appear or change. */
export class SandboxWalletTrust implements WalletTrust {
  private loaded: { stamp: number; material: SandboxWalletMaterial } | null = null;

  constructor(private readonly dataDir: string) {}

  private material(): SandboxWalletMaterial | null {
    let stamp: number;
    try {
      stamp = fs.statSync(sandboxAppleRootFile(this.dataDir)).mtimeMs;
    } catch {
      return null;
    }
    if (this.loaded?.stamp !== stamp) {
      const material = loadSandboxWalletMaterial(this.dataDir);
      this.loaded = material ? { stamp, material } : null;
    }
    return this.loaded?.material ?? null;
  }

  appleRoots(): readonly X509Certificate[] {
    const material = this.material();
    return material ? [material.appleRoot] : [];
  }

  googleRootKeys(): readonly GoogleRootSigningKey[] {
    return this.material()?.googleRootKeys.keys ?? [];
  }
}

const isSandboxCertificate = (cert: X509Certificate): boolean =>
  cert.subject.includes(`O=${SANDBOX_WALLET_ORGANIZATION}`) || cert.issuer.includes(`O=${SANDBOX_WALLET_ORGANIZATION}`);

function parseRootKeys(text: string, file: string): { keys: GoogleRootSigningKey[]; sandbox?: unknown } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WalletTrustError(`${file} is not JSON (Google's keys.json shape: {"keys":[{"keyValue","protocolVersion","keyExpiration"}]})`);
  }
  const keys = (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'object' && k !== null && typeof k.keyValue === 'string' && typeof k.protocolVersion === 'string')) {
    throw new WalletTrustError(`${file} does not have Google's keys.json shape: {"keys":[{"keyValue","protocolVersion","keyExpiration"}]}`);
  }
  return parsed as { keys: GoogleRootSigningKey[]; sandbox?: unknown };
}

/** Production's roots, loaded once at start; refuses the sandbox's. */
export function productionWalletTrust(options: {
  appleRootCaFile: string | null;
  googleRootKeysFile: string | null;
  /** Where a sandbox's material would be, to recognise a copy of it. */
  dataDir: string;
}): WalletTrust {
  const sandbox = loadSandboxWalletMaterial(options.dataDir);
  let appleRoots: X509Certificate[];
  if (options.appleRootCaFile) {
    const pem = fs.readFileSync(options.appleRootCaFile, 'utf8');
    const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
    if (blocks.length === 0) throw new WalletTrustError(`${options.appleRootCaFile} holds no PEM certificate`);
    appleRoots = blocks.map((block) => new X509Certificate(block));
  } else {
    appleRoots = [appleRootCaG3()];
  }
  for (const root of appleRoots) {
    if (isSandboxCertificate(root) || (sandbox && root.fingerprint256 === sandbox.appleRoot.fingerprint256)) {
      throw new WalletTrustError(`production refuses the Sandbox Wallet Root CA as an Apple Pay root (${options.appleRootCaFile})`);
    }
  }
  let googleKeys: GoogleRootSigningKey[] = [];
  if (options.googleRootKeysFile) {
    const parsed = parseRootKeys(fs.readFileSync(options.googleRootKeysFile, 'utf8'), options.googleRootKeysFile);
    const sandboxValues = new Set(sandbox?.googleRootKeys.keys.map((k) => k.keyValue) ?? []);
    if (parsed.sandbox === true || parsed.keys.some((k) => sandboxValues.has(k.keyValue))) {
      throw new WalletTrustError(`production refuses the sandbox's Google Pay root signing keys (${options.googleRootKeysFile})`);
    }
    googleKeys = parsed.keys;
  }
  return { appleRoots: () => appleRoots, googleRootKeys: () => googleKeys };
}

/**
 * The deployment's wallet trust: the sandbox's own roots in the sandbox; in production the files
 * WALLET_APPLE_ROOT_CA_FILE and WALLET_GOOGLE_ROOT_KEYS_FILE name (Apple's built-in root without
 * the first). Naming those files in the sandbox is refused: it trusts nothing but its own roots.
 */
export function walletTrustFor(environment: 'sandbox' | 'production', dataDir: string, env: NodeJS.ProcessEnv): WalletTrust {
  const appleRootCaFile = env.WALLET_APPLE_ROOT_CA_FILE || null;
  const googleRootKeysFile = env.WALLET_GOOGLE_ROOT_KEYS_FILE || null;
  if (environment === 'sandbox') {
    if (appleRootCaFile || googleRootKeysFile) {
      throw new WalletTrustError(
        'WALLET_APPLE_ROOT_CA_FILE and WALLET_GOOGLE_ROOT_KEYS_FILE are for production: the sandbox trusts only its own wallet roots (npm run gateway -- wallet init).',
      );
    }
    return new SandboxWalletTrust(dataDir);
  }
  return productionWalletTrust({ appleRootCaFile, googleRootKeysFile, dataDir });
}
