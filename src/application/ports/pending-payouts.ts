/** Payouts still waiting for their provider, for the sandbox's payout worker (src/workers/sandbox-payouts.ts). */
export interface PendingPayouts {
  /** Ids of payouts neither settled nor declined, initiated at or before `initiatedBefore` (ISO-8601), oldest first. */
  pendingPayouts(initiatedBefore: string, limit: number): Promise<string[]>;
}
