import { decideMerchant, type MerchantCommand } from '../../src/domain/merchant/decide';
import type { MerchantEvent, MerchantRegistered, MerchantSettings } from '../../src/domain/merchant/events';
import { evolveMerchant, initialMerchantState } from '../../src/domain/merchant/state';
import { DeciderSpecification } from '../support/decider-spec';

const spec = DeciderSpecification.for({ decide: decideMerchant, evolve: evolveMerchant, initialState: initialMerchantState });

const MERCHANT_ID = 'c0ffee00-1234-4abc-8def-0123456789ab';
const REGISTERED_AT = '2024-04-01T08:00:00.000Z';
const CHANGED_AT = '2024-04-02T08:30:00.000Z';
const LATER = '2024-04-03T12:00:00.000Z';

const settings: MerchantSettings = {
  name: 'Corner Bookshop',
  paymentMode: 'SMS/DMS',
  notificationUrl: 'https://shop.example.test/notify',
  ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'],
  refundsEnabled: true,
};

const register = (now = REGISTERED_AT): MerchantCommand => ({
  type: 'RegisterMerchant',
  data: {
    ...settings,
    merchantId: MERCHANT_ID,
    environment: 'sandbox',
    clientKey: 'test_client_5f1e',
    merchantKey: 'test_merchant_a9b8',
    passwordCiphertext: 'v1.bm9uY2U.Y2lwaGVydGV4dA.dGFn',
    now,
  },
});

const registered: MerchantRegistered = {
  type: 'MerchantRegistered',
  data: {
    ...settings,
    merchantId: MERCHANT_ID,
    environment: 'sandbox',
    clientKey: 'test_client_5f1e',
    merchantKey: 'test_merchant_a9b8',
    passwordCiphertext: 'v1.bm9uY2U.Y2lwaGVydGV4dA.dGFn',
    registeredAt: REGISTERED_AT,
  },
};

const change = (changes: Partial<MerchantSettings>, now = CHANGED_AT): MerchantCommand => ({
  type: 'ChangeMerchantSettings',
  data: { changes, now },
});

const changed = (changes: Partial<MerchantSettings>, at = CHANGED_AT): MerchantEvent => ({
  type: 'MerchantSettingsChanged',
  data: { merchantId: MERCHANT_ID, changes, changedAt: at },
});

describe('merchant decider', () => {
  describe('RegisterMerchant', () => {
    it('on an empty stream records MerchantRegistered with every field and `now` as registeredAt', () => {
      spec
        .given([])
        .when(register())
        .then([registered])
        .thenState({
          exists: true,
          merchantId: MERCHANT_ID,
          name: 'Corner Bookshop',
          paymentMode: 'SMS/DMS',
          ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'],
          refundsEnabled: true,
          environment: 'sandbox',
          registeredAt: REGISTERED_AT,
          updatedAt: REGISTERED_AT,
        });
    });

    it('twice is refused with merchant_exists', () => {
      spec.given([registered]).when(register(LATER)).thenThrows('merchant_exists');
    });

    it('after a settings change is still merchant_exists', () => {
      spec.given([registered, changed({ name: 'Renamed' })]).when(register(LATER)).thenThrows('merchant_exists');
    });
  });

  describe('ChangeMerchantSettings', () => {
    it('on an empty stream is merchant_not_found', () => {
      spec.given([]).when(change({ name: 'Anything' })).thenThrows('merchant_not_found');
    });

    it('records only the fields that really differ', () => {
      spec
        .given([registered])
        .when(
          change({
            name: 'Corner Bookshop', // same
            paymentMode: 'DMS', // differs
            notificationUrl: 'https://shop.example.test/notify', // same
            ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'], // same content, other array
            refundsEnabled: false, // differs
          }),
        )
        .then([changed({ paymentMode: 'DMS', refundsEnabled: false })])
        .thenState({
          name: 'Corner Bookshop',
          paymentMode: 'DMS',
          refundsEnabled: false,
          ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'],
          updatedAt: CHANGED_AT,
          registeredAt: REGISTERED_AT,
        });
    });

    it('records nothing when nothing changed', () => {
      spec
        .given([registered])
        .when(change({ ...settings, ipAllowlist: [...settings.ipAllowlist] }))
        .thenNothing()
        .thenState({ updatedAt: REGISTERED_AT });
    });

    it('records nothing for an empty change set or fields left undefined', () => {
      spec.given([registered]).when(change({})).thenNothing();
      spec.given([registered]).when(change({ name: undefined, refundsEnabled: undefined })).thenNothing();
    });

    it('compares against the latest settings, not the registered ones', () => {
      spec.given([registered, changed({ paymentMode: 'DMS' })]).when(change({ paymentMode: 'DMS' }, LATER)).thenNothing();
      spec
        .given([registered, changed({ paymentMode: 'DMS' })])
        .when(change({ paymentMode: 'SMS/DMS' }, LATER))
        .then([changed({ paymentMode: 'SMS/DMS' }, LATER)])
        .thenState({ paymentMode: 'SMS/DMS', updatedAt: LATER });
    });

    it('treats a reordered, emptied or cleared value as a real difference', () => {
      spec
        .given([registered])
        .when(change({ ipAllowlist: ['2001:db8::/32', '203.0.113.0/24'] }))
        .then([changed({ ipAllowlist: ['2001:db8::/32', '203.0.113.0/24'] })]);
      spec.given([registered]).when(change({ ipAllowlist: [] })).then([changed({ ipAllowlist: [] })]).thenState({ ipAllowlist: [] });
      spec
        .given([registered])
        .when(change({ notificationUrl: null }))
        .then([changed({ notificationUrl: null })])
        .thenState({ notificationUrl: null });
    });
  });
});
