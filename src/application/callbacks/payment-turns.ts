/**
 * Each payment's callbacks in the order of its events. The notifier takes a place in the payment's
 * line for every payment event as the log brings it, and finishes it once that event's callback has
 * had its first answer (or at once when the event calls for none); a send whose earlier places are
 * not all finished waits for them. Counters rather than a promise per event: most events need no
 * wait, and the notifier sees every payment event of the gateway.
 */
interface Line {
  /** Places handed out so far. */
  issued: number;
  /** Every place below this one is finished. */
  served: number;
  /** Places finished while an earlier one was not. */
  readonly early: Set<number>;
  /** Sends waiting for their place, by place. */
  readonly waiting: Map<number, () => void>;
}

export interface Turn {
  readonly paymentId: string;
  readonly place: number;
}

export class PaymentTurns {
  private readonly lines = new Map<string, Line>();

  /** The next place in the payment's line; take them in the payment's event order. */
  take(paymentId: string): Turn {
    let line = this.lines.get(paymentId);
    if (!line) {
      line = { issued: 0, served: 0, early: new Set(), waiting: new Map() };
      this.lines.set(paymentId, line);
    }
    return { paymentId, place: line.issued++ };
  }

  /** Null when every earlier place is finished; else resolves when they are. */
  whenReady(turn: Turn): Promise<void> | null {
    const line = this.lines.get(turn.paymentId)!;
    if (line.served === turn.place) return null;
    return new Promise((resolve) => line.waiting.set(turn.place, resolve));
  }

  /** Ends the place; each turn is finished exactly once. */
  finish(turn: Turn): void {
    const line = this.lines.get(turn.paymentId)!;
    line.early.add(turn.place);
    while (line.early.delete(line.served)) {
      line.served++;
      const wake = line.waiting.get(line.served);
      if (wake) {
        line.waiting.delete(line.served);
        wake();
      }
    }
    if (line.served === line.issued) this.lines.delete(turn.paymentId);
  }

  /** Payments with a place not finished yet. */
  get size(): number {
    return this.lines.size;
  }
}
