/**
 * A merchant's `methods` setting: what it takes when never set (its environment's default), what
 * a list, `all` and `none` mean, and how operators write it.
 */
import { expect } from 'chai';
import { isWalletMethod, methodEnabled, methodsSettingOf, parseMethodsSetting } from '../../src/domain/merchant/methods';

describe('merchant methods setting', () => {
  it('Given a merchant that never set it, Then a sandbox one takes every method and a production one none', () => {
    expect(methodsSettingOf({ environment: 'sandbox' })).to.equal('all');
    expect(methodsSettingOf({ environment: 'production' })).to.deep.equal([]);
    expect(methodEnabled({ environment: 'sandbox' }, 'sb-qr')).to.equal(true);
    expect(methodEnabled({ environment: 'production' }, 'sb-qr')).to.equal(false);
  });

  it('Given a setting, Then it wins over the default in either environment', () => {
    expect(methodEnabled({ environment: 'production', methods: 'all' }, 'sb-qr')).to.equal(true);
    expect(methodEnabled({ environment: 'production', methods: ['sb-qr'] }, 'sb-qr')).to.equal(true);
    expect(methodEnabled({ environment: 'sandbox', methods: ['sb-qr'] }, 'sb-redirect')).to.equal(false);
    expect(methodEnabled({ environment: 'sandbox', methods: [] }, 'sb-qr')).to.equal(false);
  });

  it('Given what an operator writes, Then all, none and a list (trimmed, once each) are read; a list naming nothing is refused', () => {
    expect(parseMethodsSetting('all')).to.equal('all');
    expect(parseMethodsSetting('none')).to.deep.equal([]);
    expect(parseMethodsSetting(' sb-qr , sb-app,sb-qr ')).to.deep.equal(['sb-qr', 'sb-app']);
    expect(parseMethodsSetting(' , ')).to.equal(null);
  });

  it('Given the wallets, Then they are the only methods that may hold funds', () => {
    expect(isWalletMethod('applepay')).to.equal(true);
    expect(isWalletMethod('googlepay')).to.equal(true);
    expect(isWalletMethod('sb-redirect')).to.equal(false);
  });
});
