/**
 * The token shapes a merchant may send, before any cryptography: each accepted shape is found and
 * kept exactly as sent; anything else is `100000 Request data is invalid.`
 */
import { expect } from 'chai';
import { parseWalletToken } from '../../src/domain/wallets/token-shape';
import { WalletTokenMalformed } from '../../src/domain/wallets/refusals';
import { APPLE_VECTOR, GOOGLE_VECTOR } from './fixtures/published-vectors';

function malformed(run: () => unknown): WalletTokenMalformed {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(WalletTokenMalformed);
    const refusal = error as WalletTokenMalformed;
    expect([refusal.errorCode, refusal.errorMessage]).to.deep.equal([100000, 'Request data is invalid.']);
    return refusal;
  }
  throw new Error('expected the token to be refused');
}

describe('Wallet token shapes', function () {
  const paymentData = APPLE_VECTOR.token;
  const pkPaymentToken = { paymentData, paymentMethod: { displayName: 'Visa 0224', network: 'Visa', type: 'debit' }, transactionIdentifier: 'ABC' };

  it('Given an Apple PKPaymentToken as sent (a JSON string), then its paymentData is found and the string kept unchanged', () => {
    const text = JSON.stringify(pkPaymentToken);
    const parsed = parseWalletToken('applepay', text);
    expect(parsed.original).to.equal(text);
    expect(parsed.wallet === 'applepay' && parsed.paymentData.header.transactionId).to.equal(paymentData.header.transactionId);
  });

  it('Given the paymentData alone, then it is accepted too', () => {
    const parsed = parseWalletToken('applepay', paymentData);
    expect(parsed.wallet === 'applepay' && parsed.paymentData.version).to.equal('EC_v1');
  });

  it('Given another Apple version (RSA_v1) or fields of the wrong kind, then the token is refused', () => {
    malformed(() => parseWalletToken('applepay', { ...paymentData, version: 'RSA_v1' }));
    malformed(() => parseWalletToken('applepay', { ...paymentData, data: 'not base64!' }));
    malformed(() => parseWalletToken('applepay', { ...paymentData, header: { ...paymentData.header, transactionId: 'xyz' } }));
    malformed(() => parseWalletToken('applepay', { ...paymentData, header: undefined }));
  });

  it('Given a Google ECv2 token as a string, as an object, or inside PaymentData (string or object), then each is found', () => {
    const token = JSON.parse(GOOGLE_VECTOR.token) as object;
    for (const sent of [
      GOOGLE_VECTOR.token,
      token,
      { paymentMethodData: { tokenizationData: { type: 'PAYMENT_GATEWAY', token: GOOGLE_VECTOR.token } } },
      JSON.stringify({ paymentMethodData: { tokenizationData: { token } } }),
    ]) {
      const parsed = parseWalletToken('googlepay', sent);
      expect(parsed.original).to.equal(sent);
      expect(parsed.wallet === 'googlepay' && parsed.token.protocolVersion).to.equal('ECv2');
    }
  });

  it('Given Google ECv1, a PaymentData without its token, or fields of the wrong kind, then the token is refused', () => {
    const token = JSON.parse(GOOGLE_VECTOR.token) as Record<string, unknown>;
    malformed(() => parseWalletToken('googlepay', { ...token, protocolVersion: 'ECv1' }));
    malformed(() => parseWalletToken('googlepay', { paymentMethodData: { tokenizationData: {} } }));
    malformed(() => parseWalletToken('googlepay', { ...token, signedMessage: { not: 'a string' } }));
    malformed(() => parseWalletToken('googlepay', { ...token, intermediateSigningKey: { signedKey: 'x', signatures: [] } }));
  });

  it('Given what is no token at all (not JSON, an array, too long), then it is refused', () => {
    malformed(() => parseWalletToken('applepay', 'not json'));
    malformed(() => parseWalletToken('googlepay', '[1,2]'));
    malformed(() => parseWalletToken('googlepay', `"${'a'.repeat(40_000)}"`));
    // A Google token sent as Apple's is not an Apple token.
    malformed(() => parseWalletToken('applepay', GOOGLE_VECTOR.token));
  });
});
