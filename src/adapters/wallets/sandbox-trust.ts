/**
 * The sandbox's own wallet trust material, made by `gateway wallet init` in the data directory
 * (`wallet-sandbox/`, owner-only files): a Sandbox Wallet Root CA with an intermediate CA (OID
 * 1.2.840.113635.100.6.2.14) and a token signer (OID 1.2.840.113635.100.6.29) for Apple Pay, and
 * root signing keys in Google's `keys.json` shape for Google Pay. The sandbox trusts these and
 * nothing else; `wallet mint` signs with them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { X509Certificate, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { GoogleRootSigningKey } from './google-ec-v2';
import { OID_APPLE_INTERMEDIATE, OID_APPLE_LEAF, certificateFromDer, certificateToPem, issueCertificate, type pkijs } from './pki';

export const SANDBOX_WALLET_DIR = 'wallet-sandbox';
/** Every sandbox certificate names this organisation; production refuses any root that does. */
export const SANDBOX_WALLET_ORGANIZATION = 'Sandbox Wallet';
export const SANDBOX_ROOT_CA_NAME = 'Sandbox Wallet Root CA';

const FILES = {
  appleRoot: 'apple-root-ca.pem',
  appleIntermediate: 'apple-intermediate-ca.pem',
  appleSigner: 'apple-signer.pem',
  appleSignerKey: 'apple-signer.key',
  googleRootKeys: 'google-root-keys.json',
  googleRootSigningKey: 'google-root-signing.key',
} as const;

const DAY_MS = 86_400_000;

export interface SandboxWalletMaterial {
  directory: string;
  appleRoot: X509Certificate;
  appleIntermediate: pkijs.Certificate;
  appleSigner: pkijs.Certificate;
  appleSignerKey: KeyObject;
  /** `keys.json` shape, marked `"sandbox": true` so production can tell it apart. */
  googleRootKeys: { keys: GoogleRootSigningKey[]; sandbox: true };
  googleRootSigningKey: KeyObject;
}

export const sandboxWalletDirectory = (dataDir: string): string => path.join(dataDir, SANDBOX_WALLET_DIR);
export const sandboxAppleRootFile = (dataDir: string): string => path.join(sandboxWalletDirectory(dataDir), FILES.appleRoot);

const p256 = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const pemKey = (key: KeyObject): string => key.export({ format: 'pem', type: 'pkcs8' }).toString();

/** Written owner-only, through a temporary file, so a reader never sees half of it. */
function writePrivate(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

/** Makes (or, with `renew`, remakes) the material; an existing set is kept and returned as it is. */
export async function initSandboxWalletMaterial(dataDir: string, now: Date, renew = false): Promise<{ material: SandboxWalletMaterial; created: boolean }> {
  const existing = renew ? null : loadSandboxWalletMaterial(dataDir);
  if (existing) return { material: existing, created: false };
  const directory = sandboxWalletDirectory(dataDir);
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  fs.chmodSync(directory, 0o700);
  // Backdated a day, so a clock a little behind still finds them valid.
  const notBefore = new Date(now.getTime() - DAY_MS);
  const years = (n: number) => new Date(now.getTime() + n * 365 * DAY_MS);
  const organization = SANDBOX_WALLET_ORGANIZATION;

  const root = p256();
  const rootCert = await issueCertificate({
    subject: { commonName: SANDBOX_ROOT_CA_NAME, organization, country: 'US' },
    publicKey: root.publicKey,
    selfSignKey: root.privateKey,
    ca: true,
    notBefore,
    notAfter: years(20),
  });
  const intermediate = p256();
  const intermediateCert = await issueCertificate({
    subject: { commonName: 'Sandbox Wallet Application Integration CA', organization, country: 'US' },
    publicKey: intermediate.publicKey,
    issuer: { certificate: rootCert, privateKey: root.privateKey },
    ca: true,
    notBefore,
    notAfter: years(15),
    markers: [{ oid: OID_APPLE_INTERMEDIATE }],
  });
  const signer = p256();
  const signerCert = await issueCertificate({
    subject: { commonName: 'sandbox-wallet-token-signer', organizationalUnit: 'Sandbox Wallet Systems', organization, country: 'US' },
    publicKey: signer.publicKey,
    issuer: { certificate: intermediateCert, privateKey: intermediate.privateKey },
    ca: false,
    notBefore,
    notAfter: years(10),
    markers: [{ oid: OID_APPLE_LEAF }],
  });
  const google = p256();
  const googleRootKeys = {
    keys: [
      {
        keyValue: google.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
        protocolVersion: 'ECv2',
        keyExpiration: String(years(10).getTime()),
      },
    ],
    sandbox: true as const,
  };

  writePrivate(path.join(directory, FILES.appleRoot), certificateToPem(rootCert));
  writePrivate(path.join(directory, FILES.appleIntermediate), certificateToPem(intermediateCert));
  writePrivate(path.join(directory, FILES.appleSigner), certificateToPem(signerCert));
  writePrivate(path.join(directory, FILES.appleSignerKey), pemKey(signer.privateKey));
  writePrivate(path.join(directory, FILES.googleRootKeys), `${JSON.stringify(googleRootKeys, null, 2)}\n`);
  // The root private key of Apple's side is not kept: nothing needs it once the signer exists.
  writePrivate(path.join(directory, FILES.googleRootSigningKey), pemKey(google.privateKey));
  return { material: loadSandboxWalletMaterial(dataDir)!, created: true };
}

const derOfPem = (pem: string): Buffer =>
  Buffer.from(pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, ''), 'base64');

/** The material in `dataDir`, or null when `wallet init` has not made it (or it is incomplete). */
export function loadSandboxWalletMaterial(dataDir: string): SandboxWalletMaterial | null {
  const directory = sandboxWalletDirectory(dataDir);
  const read = (name: string): string | null => {
    try {
      return fs.readFileSync(path.join(directory, name), 'utf8');
    } catch {
      return null;
    }
  };
  const texts = Object.fromEntries(Object.entries(FILES).map(([key, name]) => [key, read(name)])) as Record<keyof typeof FILES, string | null>;
  if (Object.values(texts).some((text) => text === null)) return null;
  const googleRootKeys = JSON.parse(texts.googleRootKeys!) as SandboxWalletMaterial['googleRootKeys'];
  return {
    directory,
    appleRoot: new X509Certificate(texts.appleRoot!),
    appleIntermediate: certificateFromDer(derOfPem(texts.appleIntermediate!)),
    appleSigner: certificateFromDer(derOfPem(texts.appleSigner!)),
    appleSignerKey: createPrivateKey(texts.appleSignerKey!),
    googleRootKeys,
    googleRootSigningKey: createPrivateKey(texts.googleRootSigningKey!),
  };
}
