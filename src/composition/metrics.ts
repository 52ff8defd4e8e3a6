/** This process's metrics, with the gauges read when /metrics is scraped. */
import type { CallbackQueries } from '../../projections/callback-deliveries/queries';
import type { ReadModels } from '../../projections/read-models';
import { GatewayMetrics } from '../adapters/metrics/gateway-metrics';
import type { Notifier } from '../application/callbacks/notifier';
import type { Clock } from '../application/ports/clock';
import type { EventStore } from '../application/ports/event-store';
import type { Logger } from '../application/ports/logger';
import type { BuildOptions } from './gateway';

/**
 * What the scrape-time gauges read from. The metrics are built first, since the event store they
 * measure is wrapped with them; the parts they read are filled in as they are built.
 */
export interface MetricsSources {
  rawStore?: EventStore;
  readModels?: ReadModels;
  callbacks?: CallbackQueries;
  notifier?: Notifier;
  /** Where the blocked-URLs gauge reads from when callbacks are delivered on another thread. */
  blockedUrls?: () => number;
}

export function wireMetrics(options: BuildOptions, logger: Logger, clock: Clock): { metrics: GatewayMetrics; sources: MetricsSources } {
  const sources: MetricsSources = {};
  const metrics = new GatewayMetrics({
    processMetrics: options.processMetrics,
    onReadingError: (what, error) => logger.warn(`metrics: could not read ${what}`, { error: String(error) }),
    readings: {
      head: () => sources.rawStore!.headPosition(),
      checkpoints: () => sources.readModels!.checkpoints(),
      callbackBacklog: () => sources.callbacks!.backlog(clock.now().toISOString()),
      blockedUrls: () => sources.blockedUrls?.() ?? sources.notifier?.blockedUrls().length ?? 0,
      chainsDue: () => sources.readModels!.schedules.countChainsDue(clock.now().toISOString().slice(0, 10)),
    },
  });
  return { metrics, sources };
}
