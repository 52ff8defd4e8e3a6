/**
 * One LISTEN connection per PostgreSQL event store, shared by its subscriptions: every append
 * transaction notifies on the channel, and the listener wakes them at once. If the connection
 * cannot be opened or drops, subscriptions keep working on polling alone and it is retried.
 */
import { Client } from 'pg';

const RETRY_MS = 1000;

export class NotificationListener {
  private client: Client | undefined;
  private starting = false;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  /** `wake` is called for every notification, and once the connection is (re)made. */
  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly wake: () => void,
    /** Whether anyone still wants notifications: no retry otherwise. */
    private readonly wanted: () => boolean,
  ) {}

  start(): void {
    if (this.closed || this.client || this.starting) return;
    this.starting = true;
    const client = new Client({ connectionString: this.connectionString });
    const drop = (): void => {
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      this.scheduleRetry();
    };
    client.on('notification', () => this.wake());
    client.on('error', drop);
    client.on('end', () => {
      if (this.client === client) drop();
    });
    client
      .connect()
      .then(() => client.query(`listen ${this.channel}`))
      .then(() => {
        this.starting = false;
        if (this.closed) {
          client.end().catch(() => undefined);
          return;
        }
        this.client = client;
        // Events committed while the connection was being set up raised no notification here.
        this.wake();
      })
      .catch(() => {
        this.starting = false;
        drop();
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry || !this.wanted()) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start();
    }, RETRY_MS);
    this.retry.unref();
  }
}
