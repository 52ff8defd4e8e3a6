/** The event store: the configured adapter, measured, and read in the events' current shape. */
import { createEventStore } from '../adapters/event-store/create-event-store';
import type { GatewayMetrics } from '../adapters/metrics/gateway-metrics';
import { MeasuredEventStore } from '../adapters/metrics/measured-event-store';
import type { EventStore } from '../application/ports/event-store';
import { withUpcasting } from '../application/upcasting';
import type { GatewayConfig } from '../config';
import { eventStoreTarget } from '../storage-targets';
import type { BuildOptions } from './gateway';

export interface EventLog {
  /** The adapter itself: a SQLite store hands its writer to other threads. */
  adapter: EventStore;
  /** Events exactly as stored, for the audit (chain hashes cover the stored shape). */
  rawStore: EventStore;
  /** Events in their current shape, for everything but the audit. */
  store: EventStore;
}

export async function wireEventLog(config: GatewayConfig, options: BuildOptions, metrics: GatewayMetrics): Promise<EventLog> {
  const adapter = await createEventStore({
    ...eventStoreTarget(config),
    writerThread: options.writerThread,
    writerPort: options.writerPort,
    commitSignal: options.commitSignal,
    commitSettleMs: options.eventCommitSettleMs,
    pollIntervalMs: options.eventPollIntervalMs,
  });
  const rawStore: EventStore = new MeasuredEventStore(options.wrapStore ? options.wrapStore(adapter) : adapter, metrics);
  return { adapter, rawStore, store: withUpcasting(rawStore) };
}
