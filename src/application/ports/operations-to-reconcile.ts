/**
 * Payments a lost acquirer answer may have left open, for the reconciler: an authorization or sale
 * still initiated or of unknown outcome, or a capture, void, refund or reversal still pending or
 * unknown. Only candidates: the reconciler decides on the payment's stream.
 */
export interface OperationsToReconcile {
  /** Ids of payments with such an operation whose last change is older than `cutoffIso`, each once. */
  paymentsToReconcile(cutoffIso: string, limit: number): Promise<string[]>;
}
