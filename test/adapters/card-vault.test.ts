import { expect } from 'chai';
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { EncryptedCardVault, loadOrCreateVaultKey, VaultError } from '../../src/adapters/vault/card-vault';
import { decryptSecret, encryptSecret, SecretBoxCipher, SecretBoxError } from '../../src/adapters/vault/secret-box';

const PAN = '4111111111111111';
const CARD = { number: PAN, expMonth: '01', expYear: '2038', holder: 'Jane Doe' };
const M = 'merchant-a';

interface RawRow {
  token: string;
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
  created_at: string;
}

describe('EncryptedCardVault', () => {
  let db: Database.Database;
  let key: Buffer;
  let vault: EncryptedCardVault;

  beforeEach(() => {
    db = new Database(':memory:');
    key = randomBytes(32);
    vault = new EncryptedCardVault({ db, key });
  });

  afterEach(() => db.close());

  const rows = () => db.prepare('SELECT * FROM card_vault').all() as RawRow[];

  it('gives back the stored card for its token', async () => {
    const token = await vault.store(CARD, M);
    expect(await vault.retrieve(token, M)).to.deep.equal(CARD);
    const noHolder = await vault.store({ number: PAN, expMonth: '12', expYear: '2039' }, M);
    expect(await vault.retrieve(noHolder, M)).to.deep.equal({ number: PAN, expMonth: '12', expYear: '2039' });
  });

  it('issues opaque random tokens, a new one per store', async () => {
    const a = await vault.store(CARD, M);
    const b = await vault.store(CARD, M);
    expect(a).to.match(/^ct_[0-9a-f]{32}$/);
    expect(a).to.not.equal(b);
    expect(a).to.not.include('1111');
    expect(a).to.not.include('411111');
  });

  it('never writes the card number in clear, and uses a fresh IV per record', async () => {
    await vault.store(CARD, M);
    await vault.store(CARD, M);
    const stored = rows();
    expect(stored).to.have.length(2);
    for (const row of stored) {
      const all = Buffer.concat([Buffer.from(row.token), row.ciphertext, row.iv, row.tag, Buffer.from(row.created_at)]);
      expect(all.includes(Buffer.from(PAN))).to.equal(false);
      expect(all.includes(Buffer.from('Jane Doe'))).to.equal(false);
      expect(row.iv).to.have.length(12);
      expect(row.tag).to.have.length(16);
    }
    expect(stored[0].iv.equals(stored[1].iv)).to.equal(false);
    expect(stored[0].ciphertext.equals(stored[1].ciphertext)).to.equal(false);
  });

  it('refuses a tampered ciphertext or tag', async () => {
    const token = await vault.store(CARD, M);
    const row = rows()[0];
    const flipped = Buffer.from(row.ciphertext);
    flipped[0] ^= 0x01;
    db.prepare('UPDATE card_vault SET ciphertext = ? WHERE token = ?').run(flipped, token);
    await expectRejects(vault.retrieve(token, M), VaultError);

    db.prepare('UPDATE card_vault SET ciphertext = ?, tag = ? WHERE token = ?').run(row.ciphertext, randomBytes(16), token);
    await expectRejects(vault.retrieve(token, M), VaultError);
  });

  it('refuses a record moved onto another token', async () => {
    const a = await vault.store(CARD, M);
    const b = await vault.store({ number: '5555555555554444', expMonth: '02', expYear: '2038' }, M);
    const rowA = rows().find((r) => r.token === a)!;
    db.prepare('UPDATE card_vault SET ciphertext = ?, iv = ?, tag = ? WHERE token = ?').run(rowA.ciphertext, rowA.iv, rowA.tag, b);
    await expectRejects(vault.retrieve(b, M), VaultError);
  });

  it('cannot be read with another key', async () => {
    const token = await vault.store(CARD, M);
    const other = new EncryptedCardVault({ db, key: randomBytes(32) });
    await expectRejects(other.retrieve(token, M), VaultError);
  });

  it('returns null for an unknown or malformed token', async () => {
    expect(await vault.retrieve('ct_' + '0'.repeat(32), M)).to.equal(null);
    expect(await vault.retrieve("ct_' OR 1=1 --", M)).to.equal(null);
  });

  it('refuses a CVV (and any other extra field) without echoing the card number', async () => {
    const withCvv = { ...CARD, cvv: '123' } as unknown as typeof CARD;
    const error = await expectRejects(vault.store(withCvv, M), VaultError);
    expect(error.message).to.not.include(PAN);
    expect(error.message).to.include('cvv');
    expect(rows()).to.have.length(0);
  });

  it('refuses malformed card data without echoing it', async () => {
    const error = await expectRejects(vault.store({ ...CARD, number: '4111-1111-1111-1111' }, M), VaultError);
    expect(error.message).to.not.include('4111');
    await expectRejects(vault.store({ ...CARD, expMonth: '1' }, M), VaultError);
    await expectRejects(vault.store({ ...CARD, expYear: '38' }, M), VaultError);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new EncryptedCardVault({ db, key: randomBytes(16) })).to.throw(VaultError);
  });
});

describe('loadOrCreateVaultKey', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-key-'));
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('uses the configured hex key and ignores the file', () => {
    const hex = 'ab'.repeat(32);
    const keyFile = path.join(dir, 'vault.key');
    expect(loadOrCreateVaultKey({ keyHex: hex, keyFile }).toString('hex')).to.equal(hex);
    expect(fs.existsSync(keyFile)).to.equal(false);
  });

  it('treats a null or empty configured key as not configured', () => {
    const keyFile = path.join(dir, 'vault.key');
    const created = loadOrCreateVaultKey({ keyHex: null, keyFile });
    expect(loadOrCreateVaultKey({ keyHex: '', keyFile }).equals(created)).to.equal(true);
  });

  it('refuses a configured key that is not 64 hex characters', () => {
    const keyFile = path.join(dir, 'vault.key');
    for (const keyHex of ['ab'.repeat(16), 'zz'.repeat(32), 'ab'.repeat(33)]) {
      expect(() => loadOrCreateVaultKey({ keyHex, keyFile })).to.throw(VaultError, /64 hexadecimal/);
    }
  });

  it('creates a 0600 key file (and its directory) and reads the same key back', function () {
    if (process.platform === 'win32') this.skip();
    const keyFile = path.join(dir, 'nested', 'deeper', 'vault.key');
    const key = loadOrCreateVaultKey({ keyFile });
    expect(key).to.have.length(32);
    expect(fs.statSync(keyFile).mode & 0o777).to.equal(0o600);
    expect(fs.readFileSync(keyFile, 'utf8').trim()).to.equal(key.toString('hex'));
    expect(loadOrCreateVaultKey({ keyFile }).equals(key)).to.equal(true);
    expect(fs.readdirSync(path.dirname(keyFile))).to.deep.equal(['vault.key']);
  });

  it('refuses a key file others can read', function () {
    if (process.platform === 'win32') this.skip();
    const keyFile = path.join(dir, 'vault.key');
    fs.writeFileSync(keyFile, 'cd'.repeat(32), { mode: 0o644 });
    fs.chmodSync(keyFile, 0o644);
    expect(() => loadOrCreateVaultKey({ keyFile })).to.throw(VaultError, /chmod 600/);
  });

  it('refuses a key file with malformed content', () => {
    const keyFile = path.join(dir, 'vault.key');
    fs.writeFileSync(keyFile, 'not a key', { mode: 0o600 });
    expect(() => loadOrCreateVaultKey({ keyFile })).to.throw(VaultError, /64 hexadecimal/);
  });
});

describe('secret box', () => {
  const key = randomBytes(32);

  it('round-trips a secret in the v1 format without showing it', () => {
    const sealed = encryptSecret(key, 'merchant-password-ü');
    expect(sealed).to.match(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(sealed).to.not.include('merchant');
    expect(decryptSecret(key, sealed)).to.equal('merchant-password-ü');
    expect(encryptSecret(key, 'same')).to.not.equal(encryptSecret(key, 'same'));
  });

  it('refuses tampering, a wrong key, a wrong context and malformed text', () => {
    const sealed = encryptSecret(key, 'pw', 'merchant-1');
    expect(decryptSecret(key, sealed, 'merchant-1')).to.equal('pw');
    expect(() => decryptSecret(key, sealed, 'merchant-2')).to.throw(SecretBoxError);
    expect(() => decryptSecret(randomBytes(32), sealed, 'merchant-1')).to.throw(SecretBoxError);
    const parts = sealed.split(':');
    const ct = Buffer.from(parts[3], 'base64');
    ct[0] ^= 1;
    const tampered = [parts[0], parts[1], parts[2], ct.toString('base64')].join(':');
    expect(() => decryptSecret(key, tampered, 'merchant-1')).to.throw(SecretBoxError);
    for (const text of ['', 'pw', 'v2:a:b:c', 'v1:a:b', 'v1:!!:b:c']) {
      expect(() => decryptSecret(key, text)).to.throw(SecretBoxError);
    }
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => encryptSecret(randomBytes(31), 'pw')).to.throw(SecretBoxError);
    expect(() => new SecretBoxCipher(randomBytes(16))).to.throw(SecretBoxError);
  });

  it('SecretBoxCipher keeps passwords usable yet unreadable at rest', () => {
    const cipher = new SecretBoxCipher(key);
    const stored = cipher.encrypt('13a4822c5907ed235f3a068c76184fc3');
    expect(stored).to.not.include('13a4822c');
    expect(cipher.decrypt(stored)).to.equal('13a4822c5907ed235f3a068c76184fc3');
    expect(decryptSecret(key, stored)).to.equal('13a4822c5907ed235f3a068c76184fc3');
  });
});

async function expectRejects<E extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(type);
    return error as E;
  }
  throw new Error('expected the promise to reject');
}
