/** Open scheduled chains by their next due date, for the scheduler and the sandbox test clock. */
export interface DueChain {
  chainId: string;
  /** YYYY-MM-DD */
  nextDueDate: string;
}

export interface DueChainsReadModel {
  /** Open chains due on or before `date` (YYYY-MM-DD), earliest first. */
  dueChains(date: string, limit: number): Promise<DueChain[]>;
  /** The earliest date after `date` (YYYY-MM-DD) that an open chain falls due, or null. */
  earliestDueDateAfter(date: string): Promise<string | null>;
}
