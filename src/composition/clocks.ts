/** The gateway's clocks: real time, and the sandbox's clock that its test clock moves ahead. */
import { SandboxClock } from '../application/clock/sandbox-clock';
import { systemClock, type Clock } from '../application/ports/clock';
import type { GatewayConfig } from '../config';
import type { BuildOptions } from './gateway';

export interface Clocks {
  /** Business time: the sandbox's clock in the sandbox; production keeps real time. */
  clock: Clock;
  sandboxClock: SandboxClock;
  /** Real time, for what the sandbox's movable clock must not move (lockouts, sessions, signatures). */
  realClock: Clock;
}

export function wireClocks(config: GatewayConfig, options: BuildOptions): Clocks {
  const realClock = options.clock ?? systemClock;
  const sandboxClock = new SandboxClock(realClock);
  return { clock: config.environment === 'sandbox' ? sandboxClock : realClock, sandboxClock, realClock };
}
