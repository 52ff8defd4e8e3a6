import type { Logger } from '../../application/ports/logger';
import { currentLogFields } from './log-context';

export type LogLevel = 'silent' | 'error' | 'warn' | 'info';
const rank: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3 };

/**
 * One JSON object per line on stdout, so operators can ship logs as they are. A line written
 * during a request's work (or its callback's delivery) carries that request's `requestId`
 * (log-context.ts); fields the caller passes win over it.
 */
export function createJsonLogger(level: LogLevel = 'info', write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const emit = (lvl: Exclude<LogLevel, 'silent'>, message: string, fields?: Record<string, unknown>) => {
    if (rank[lvl] > rank[level]) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, message, ...currentLogFields(), ...fields })}\n`);
  };
  return {
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
