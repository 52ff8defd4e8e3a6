/** Recurring chains for operators: which exist and where they stand (the timeline comes from the streams). */

export interface ChainSummary {
  chainId: string;
  merchantId: string;
  scheduleId: string;
  /** open or ended. */
  status: string;
  nextDueDate: string | null;
  paymentsStarted: number;
  paymentsSkipped: number;
  endReason: string | null;
  startedAt: string;
}

export interface ChainListing {
  /** Newest first. */
  listChains(filter: { merchantId?: string; status?: 'open' | 'ended'; limit: number }): Promise<ChainSummary[]>;
  /** Open chains whose next due date is on or before `date` (YYYY-MM-DD). */
  countChainsDue(date: string): Promise<number>;
}
