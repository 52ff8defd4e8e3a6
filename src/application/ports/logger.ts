/**
 * Structured logging port. Callers pass identifiers and outcomes only; request bodies are never
 * logged, which is how a card number or CVV is kept out of the logs.
 */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}
