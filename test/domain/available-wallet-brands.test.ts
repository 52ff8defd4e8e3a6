/**
 * Which wallets the Checkout SDK may offer (docs/wallets.md#the-checkout-sdk): the merchant's enabled wallets a flow
 * can pay, in `methods` order (the session's, else the merchant's list, else the wallets' own).
 */
import { expect } from 'chai';
import { availableWalletBrands } from '../../src/domain/wallets/available-brands';

const payable = () => true;

describe('available wallet brands', () => {
  it('Given a session naming Google Pay before Apple Pay among other methods, Then both, in its order', () => {
    const brands = availableWalletBrands({ merchant: { environment: 'sandbox' }, sessionMethods: ['card', 'googlepay', 'sb-qr', 'applepay'], payable });
    expect(brands).to.deep.equal(['googlepay', 'applepay']);
  });

  it('Given a session that names no wallet, Then none', () => {
    expect(availableWalletBrands({ merchant: { environment: 'sandbox' }, sessionMethods: ['card', 'sb-qr'], payable })).to.deep.equal([]);
  });

  it('Given no session methods, Then the merchant\'s list order, else the wallets\' own', () => {
    expect(availableWalletBrands({ merchant: { environment: 'production', methods: ['googlepay', 'sb-qr', 'applepay'] }, payable })).to.deep.equal(['googlepay', 'applepay']);
    expect(availableWalletBrands({ merchant: { environment: 'sandbox' }, payable })).to.deep.equal(['applepay', 'googlepay']);
    expect(availableWalletBrands({ merchant: { environment: 'production' }, payable })).to.deep.equal([]);
  });

  it('Given a wallet the merchant does not take, or no flow can pay, or named twice, Then it is left out or listed once', () => {
    const merchant = { environment: 'production' as const, methods: ['applepay'] };
    expect(availableWalletBrands({ merchant, sessionMethods: ['googlepay', 'applepay', 'applepay'], payable })).to.deep.equal(['applepay']);
    expect(availableWalletBrands({ merchant: { environment: 'sandbox' }, sessionMethods: ['applepay', 'googlepay'], payable: (w) => w === 'googlepay' })).to.deep.equal(['googlepay']);
  });
});
