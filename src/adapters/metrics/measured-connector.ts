/**
 * A connector, timed: every call that returns a promise (authorize, capture, status lookup, ...)
 * is observed by connector, operation (the method's name) and outcome (the answer's `outcome`, or
 * `error` when it threw). Wrapped around each configured connector in the composition root, so
 * acquirer latency is measured wherever a payment use case calls one, and no connector carries
 * metrics code.
 */
import type { Connector } from '../../application/ports/connector';
import type { GatewayMetrics } from './gateway-metrics';

const outcomeOf = (answer: unknown): string => {
  const outcome = (answer as { outcome?: unknown } | null)?.outcome;
  return typeof outcome === 'string' && /^[a-z_]{1,32}$/.test(outcome) ? outcome : 'answered';
};

export function measuredConnector<C extends Connector>(connector: C, metrics: Pick<GatewayMetrics, 'connectorCall'>): C {
  const timed = new Map<PropertyKey, unknown>();
  return new Proxy(connector, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || property === 'constructor') return value;
      let wrapper = timed.get(property);
      if (!wrapper) {
        const name = String(property);
        wrapper = function (this: unknown, ...args: unknown[]) {
          const started = process.hrtime.bigint();
          // Called on the connector itself, so its private state is where it expects it.
          const result: unknown = (Reflect.get(target, property, target) as (...a: unknown[]) => unknown).apply(target, args);
          if (!(result instanceof Promise)) return result;
          const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
          return result.then(
            (answer) => {
              metrics.connectorCall(target.name, name, outcomeOf(answer), seconds());
              return answer;
            },
            (error: unknown) => {
              metrics.connectorCall(target.name, name, 'error', seconds());
              throw error;
            },
          );
        };
        timed.set(property, wrapper);
      }
      return wrapper;
    },
  });
}
