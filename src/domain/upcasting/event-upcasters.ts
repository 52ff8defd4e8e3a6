/**
 * Every upcaster of the gateway's events. An event type gains a version by recording the new
 * shape in its decider, raising its schema version (e.g. PAYMENT_EVENT_SCHEMA_VERSIONS) and adding
 * the upcaster from the previous version here; test/upcasting/upcasting.test.ts holds the written
 * versions and this registry to the same numbers.
 */
import { paymentDeclinedV1ToV2 } from './payment-declined-v2';
import { paymentInitiatedV1ToV2 } from './payment-initiated-v2';
import { UpcasterRegistry } from './registry';

export const eventUpcasters = new UpcasterRegistry([paymentDeclinedV1ToV2, paymentInitiatedV1ToV2]);
