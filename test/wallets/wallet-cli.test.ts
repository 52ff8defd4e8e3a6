/**
 * `gateway wallet init|keys|mint|set`: tokens minted by the CLI open in the gateway to the card
 * they were minted for (both wallets, both Google auth methods), Apple's signature also verifies
 * with `openssl cms -verify` against the Sandbox Wallet Root CA, and production refuses the
 * sandbox's trust material.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildGateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { appleSignedBytes } from '../../src/adapters/wallets/apple-ec-v1';
import { WalletTokenRefused } from '../../src/domain/wallets/refusals';
import { productionWalletTrust, walletTrustFor, WalletTrustError } from '../../src/adapters/wallets/trust';
import { inProcessCliWithDataDir, runCli } from '../support/cli-in-process';

describe('gateway wallet (CLI)', function () {
  this.timeout(120_000);
  const gateway = inProcessCliWithDataDir('gw-wallet-cli-');
  let dataDir: string;
  let merchant: { merchant_id: string; merchant_key: string; client_key: string };
  const env = () => ({ DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'silent', EVENT_STORE: 'sqlite', GATEWAY_ENV: 'sandbox', VAULT_KEY: undefined });
  const cli = async (...argv: string[]) => {
    const r = await gateway('wallet', ...argv);
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  };

  before(async () => {
    dataDir = gateway.dataDir;
    const created = await gateway('merchant', 'create', '--name', 'Wallet Shop', '--json');
    expect(created.code, created.stderr).to.equal(0);
    merchant = JSON.parse(created.stdout);
    const init = await cli('init');
    expect(init.code, init.stderr).to.equal(0);
    const keys = await cli('keys', '--merchant', merchant.merchant_key, '--json');
    expect(keys.code, keys.stderr).to.equal(0);
  });

  async function mint(...argv: string[]): Promise<string> {
    const r = await cli('mint', '--merchant', merchant.merchant_key, '--pan', '4111111111111111', '--exp', '09/2031', ...argv);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim().split('\n')).to.have.length(1);
    return r.stdout.trim();
  }

  async function open(wallet: 'applepay' | 'googlepay', token: string) {
    const g = await buildGateway(loadConfig({ DATA_DIR: dataDir, GATEWAY_LOG_LEVEL: 'silent', EVENT_STORE: 'sqlite' }), { withProjector: false });
    try {
      return await g.wallets.tokens.open({ merchantId: merchant.merchant_id, clientKey: merchant.client_key }, wallet, token);
    } finally {
      await g.close();
    }
  }

  it('Given wallet init, then the trust material is owner-only, and init again keeps it', async () => {
    const dir = path.join(dataDir, 'wallet-sandbox');
    expect(statSync(dir).mode & 0o777).to.equal(0o700);
    for (const file of readdirSync(dir)) expect(statSync(path.join(dir, file)).mode & 0o777, file).to.equal(0o600);
    const again = await cli('init', '--json');
    expect(JSON.parse(again.stdout)).to.include({ created: false });
  });

  it('Given an Apple Pay token minted by the CLI, when the gateway opens it, then it is the card', async () => {
    const card = await open('applepay', await mint('--wallet', 'applepay', '--holder', 'Jane Doe'));
    expect(card).to.include({ pan: '4111111111111111', expMonth: '09', expYear: '2031', holder: 'Jane Doe', panType: 'DPAN' });
  });

  it('Given Google Pay tokens minted with each auth method, when the gateway opens them, then FPAN and DPAN come back', async () => {
    const panOnly = await open('googlepay', await mint('--wallet', 'googlepay', '--auth-method', 'PAN_ONLY'));
    expect(panOnly).to.include({ pan: '4111111111111111', expMonth: '09', expYear: '2031', panType: 'FPAN' });
    const cryptogram = await open('googlepay', await mint('--wallet', 'googlepay', '--auth-method', 'CRYPTOGRAM_3DS', '--payment-data'));
    expect(cryptogram).to.include({ panType: 'DPAN' });
    expect(cryptogram.cryptogram).to.be.a('string');
  });

  it('Given an Apple Pay token minted by the CLI, when openssl verifies its detached CMS signature with the sandbox root, then it passes', async () => {
    const token = JSON.parse(await mint('--wallet', 'applepay')) as { paymentData: Parameters<typeof appleSignedBytes>[0] };
    const work = mkdtempSync(path.join(tmpdir(), 'gw-wallet-cms-'));
    try {
      const signature = path.join(work, 'signature.der');
      const content = path.join(work, 'content.bin');
      writeFileSync(signature, Buffer.from(token.paymentData.signature, 'base64'));
      writeFileSync(content, appleSignedBytes(token.paymentData));
      const verify = (contentFile: string) =>
        execFileSync(
          'openssl',
          ['cms', '-verify', '-binary', '-inform', 'DER', '-in', signature, '-content', contentFile, '-CAfile', path.join(dataDir, 'wallet-sandbox', 'apple-root-ca.pem'), '-purpose', 'any', '-out', path.join(work, 'out')],
          { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
        );
      verify(content); // throws when openssl exits non-zero
      // And openssl is really checking: other content fails.
      const altered = path.join(work, 'altered.bin');
      const bytes = appleSignedBytes(token.paymentData);
      bytes[bytes.length - 1] ^= 1;
      writeFileSync(altered, bytes);
      expect(() => verify(altered)).to.throw();
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('Given a token minted with --signed-at ten minutes ago, when the gateway opens it, then it is refused as stale', async () => {
    const token = await mint('--wallet', 'applepay', '--signed-at', new Date(Date.now() - 10 * 60_000).toISOString());
    const error = await open('applepay', token).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(WalletTokenRefused);
  });

  it('Given a key file with line breaks, when wallet set takes it, then it exits 2 saying how to paste the key', async () => {
    const file = path.join(dataDir, 'multi-line.key');
    writeFileSync(file, '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n');
    const r = await cli('set', '--merchant', merchant.merchant_key, '--processing-key-file', file);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/Processing Private Key must be pasted as one line/);
  });

  it('Given wallet set and show, then the settings are shown without their keys', async () => {
    const set = await cli('set', '--merchant', merchant.merchant_key, '--domains', 'shop.example.com', '--country', 'GB');
    expect(set.code, set.stderr).to.equal(0);
    const shown = await cli('show', '--merchant', merchant.client_key, '--json');
    const view = JSON.parse(shown.stdout);
    expect(view.domains).to.deep.equal(['shop.example.com']);
    expect(view.apple).to.include({ country: 'GB', processingPrivateKeySet: true });
    expect(shown.stdout).not.to.include('BEGIN');
  });

  it('Given usage mistakes, when mint is asked, then it exits 2 with the usage', async () => {
    const r = await cli('mint', '--wallet', 'applepay', '--merchant', merchant.merchant_key, '--pan', '4111111111111111', '--exp', '2031-09');
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/--exp must be MM\/YYYY/);
    const wallet = await cli('mint', '--wallet', 'samsungpay', '--merchant', merchant.merchant_key);
    expect(wallet.code).to.equal(2);
  });

  describe('production', function () {
    const production = (...argv: string[]) => runCli(['wallet', ...argv], { ...env(), GATEWAY_ENV: 'production' });

    it('Given production, when wallet init, keys or mint is asked, then each is refused', async () => {
      for (const argv of [['init'], ['keys', '--merchant', 'x'], ['mint', '--wallet', 'applepay', '--merchant', 'x', '--pan', '4111111111111111', '--exp', '09/2031']]) {
        const r = await production(...argv);
        expect(r.code, argv.join(' ')).to.equal(1);
        expect(r.stderr).to.match(/sandbox|production/);
      }
    });

    it('Given the sandbox root CA or the sandbox keys.json given to production, then production refuses to trust them', () => {
      const dir = path.join(dataDir, 'wallet-sandbox');
      expect(() => productionWalletTrust({ appleRootCaFile: path.join(dir, 'apple-root-ca.pem'), googleRootKeysFile: null, dataDir })).to.throw(WalletTrustError, /Sandbox Wallet Root CA/);
      expect(() => productionWalletTrust({ appleRootCaFile: null, googleRootKeysFile: path.join(dir, 'google-root-keys.json'), dataDir })).to.throw(WalletTrustError, /sandbox/);
      // A copy with the sandbox marker removed is still recognised by its keys.
      const copy = path.join(dataDir, 'copied-keys.json');
      writeFileSync(copy, JSON.stringify({ keys: JSON.parse(readFileSync(path.join(dir, 'google-root-keys.json'), 'utf8')).keys }));
      expect(() => productionWalletTrust({ appleRootCaFile: null, googleRootKeysFile: copy, dataDir })).to.throw(WalletTrustError);
    });

    it('Given production without configuration, then it trusts Apple Root CA - G3 and no Google keys; the sandbox takes no WALLET_* roots', () => {
      const trust = productionWalletTrust({ appleRootCaFile: null, googleRootKeysFile: null, dataDir });
      expect(trust.appleRoots().map((r) => r.subject)).to.deep.equal(['CN=Apple Root CA - G3\nOU=Apple Certification Authority\nO=Apple Inc.\nC=US']);
      expect(trust.googleRootKeys()).to.deep.equal([]);
      expect(() => walletTrustFor('sandbox', dataDir, { WALLET_APPLE_ROOT_CA_FILE: '/etc/apple.pem' })).to.throw(WalletTrustError, /only its own/);
      expect(walletTrustFor('sandbox', dataDir, {}).appleRoots()[0].subject).to.include('Sandbox Wallet Root CA');
    });
  });
});
