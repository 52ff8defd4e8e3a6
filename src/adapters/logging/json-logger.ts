import type { Logger } from '../../application/ports/logger';

export type LogLevel = 'silent' | 'error' | 'warn' | 'info';
const rank: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3 };

/** One JSON object per line on stdout, so operators can ship logs as they are. */
export function createJsonLogger(level: LogLevel = 'info', write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const emit = (lvl: Exclude<LogLevel, 'silent'>, message: string, fields?: Record<string, unknown>) => {
    if (rank[lvl] > rank[level]) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, message, ...fields })}\n`);
  };
  return {
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
