import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ANY, type StoredEvent } from '../../src/application/ports/event-store';
import { UpcastingEventStore } from '../../src/application/upcasting';
import { MERCHANT_EVENT_SCHEMA_VERSION } from '../../src/domain/merchant/events';
import { ORDER_EVENT_SCHEMA_VERSION } from '../../src/domain/order/order-reservation';
import { PAYMENT_EVENT_TYPES, paymentEventSchemaVersion } from '../../src/domain/payment/events';
import { eventUpcasters } from '../../src/domain/upcasting/event-upcasters';
import { UpcasterRegistry, type Upcaster } from '../../src/domain/upcasting/registry';
import { MemoryEventStore } from '../support/memory-event-store';
import { waitFor } from '../event-store/contract';

const v1Declined = (stage: string, reason: string) => ({
  type: 'PaymentDeclined',
  schemaVersion: 1,
  data: { paymentId: 'p-1', reason, stage, declinedAt: '2024-01-01T00:00:00.000Z' },
});

describe('upcasting', function () {
  describe('the registry', function () {
    const rename: Upcaster = { type: 'Thing', fromVersion: 1, upcast: ({ name, ...rest }) => ({ ...rest, title: name }) };
    const addFlag: Upcaster = { type: 'Thing', fromVersion: 2, upcast: (data) => ({ ...data, flag: false }) };

    it('brings an old event through every later version, and leaves current, newer and unknown ones alone', function () {
      const registry = new UpcasterRegistry([addFlag, rename]);
      expect(registry.currentVersion('Thing')).to.equal(3);
      expect(registry.currentVersion('Other')).to.equal(1);
      expect(registry.upcast({ type: 'Thing', schemaVersion: 1, data: { name: 'a' } })).to.deep.equal({
        type: 'Thing',
        schemaVersion: 3,
        data: { title: 'a', flag: false },
      });
      const current = { type: 'Thing', schemaVersion: 3, data: { title: 'a', flag: true } };
      expect(registry.upcast(current)).to.equal(current);
      const newer = { type: 'Thing', schemaVersion: 4, data: {} };
      expect(registry.upcast(newer)).to.equal(newer);
      const other = { type: 'Other', schemaVersion: 1, data: {} };
      expect(registry.upcast(other)).to.equal(other);
    });

    it('refuses a gap or two upcasters from the same version', function () {
      expect(() => new UpcasterRegistry([addFlag])).to.throw(/no upcaster from version 1/);
      expect(() => new UpcasterRegistry([rename, { ...rename }])).to.throw(/two upcasters/);
    });
  });

  describe("the gateway's upcasters", function () {
    it('agree with the version every event type is written at', function () {
      for (const type of PAYMENT_EVENT_TYPES) {
        expect(eventUpcasters.currentVersion(type), type).to.equal(paymentEventSchemaVersion(type));
      }
      expect(eventUpcasters.currentVersion('MerchantRegistered')).to.equal(MERCHANT_EVENT_SCHEMA_VERSION);
      expect(eventUpcasters.currentVersion('MerchantSettingsChanged')).to.equal(MERCHANT_EVENT_SCHEMA_VERSION);
      expect(eventUpcasters.currentVersion('OrderIdReserved')).to.equal(ORDER_EVENT_SCHEMA_VERSION);
    });

    it('derive the decline code of a version 1 PaymentDeclined from its stage and reason', function () {
      const cases: Array<[string, string, string]> = [
        ['authorization', 'Declined by issuer', 'do_not_honor'],
        ['authorization', 'Insufficient funds', 'insufficient_funds'],
        ['authorization', 'Card has expired', 'expired_card'],
        ['authorization', 'Card number is not valid', 'invalid_card'],
        ['3ds', '3-D Secure authentication failed', '3ds_failed'],
        ['3ds', '3-D Secure authentication declined by payer', 'payer_cancelled'],
        ['redirect', 'Declined by payment provider after redirect', 'redirect_declined'],
        ['redirect', 'Payment cancelled by payer', 'payer_cancelled'],
        ['timeout', 'The payer did not return from the redirect in time', 'payer_timeout'],
      ];
      for (const [stage, reason, code] of cases) {
        const upcast = eventUpcasters.upcast(v1Declined(stage, reason));
        expect(upcast.schemaVersion, reason).to.equal(2);
        expect(upcast.data, reason).to.deep.equal({ ...v1Declined(stage, reason).data, code });
      }
    });
  });

  describe('the upcasting event store', function () {
    it('hands out current shapes from every read, keeps the stored shape and hash underneath', async function () {
      const raw = new MemoryEventStore();
      const store = new UpcastingEventStore(raw);
      const seen: StoredEvent[] = [];
      const subscription = store.subscribeToAll({ after: null, onEvent: (event) => void seen.push(event) });
      await store.append('payment-p-1', [{ id: randomUUID(), ...v1Declined('timeout', 'too slow') }], ANY);

      const [fromStream] = await store.readStream('payment-p-1');
      const [fromAll] = await store.readAll();
      const [stored] = await raw.readStream('payment-p-1');
      for (const event of [fromStream!, fromAll!]) {
        expect(event).to.include({ schemaVersion: 2, chainHash: stored!.chainHash });
        expect(event.data).to.include({ code: 'payer_timeout' });
      }
      expect(stored).to.include({ schemaVersion: 1 });
      expect(stored!.data).to.not.have.property('code');

      await waitFor(() => seen.length === 1, 'the subscription');
      await subscription.stop();
      expect(seen.map((event) => [event.schemaVersion, event.data.code])).to.deep.equal([[2, 'payer_timeout']]);
    });
  });
});
