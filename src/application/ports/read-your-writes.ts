/** Read models follow the event store a moment behind; a caller that must see its own writes waits. */
export interface ReadYourWrites {
  /**
   * Waits until the read models include every event appended so far (by any process). False when
   * `timeoutMs` passes first: the caller then knows it may be reading something older.
   */
  catchUpToHead(timeoutMs?: number): Promise<boolean>;
}
