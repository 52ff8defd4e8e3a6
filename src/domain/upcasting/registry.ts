/**
 * Schema evolution. An event type gains a version by changing what new events record and
 * registering one upcaster from the previous version; events already stored keep their shape
 * forever (their chain hashes cover it) and are brought to the current shape as they are read.
 * Upcasters are pure and chained: a v1 event passes v1→v2, then v2→v3, and so on.
 */

export interface Upcaster {
  type: string;
  /** The version this upcaster reads; it returns the data of `fromVersion + 1`. */
  fromVersion: number;
  upcast(data: Record<string, unknown>): Record<string, unknown>;
}

export interface VersionedEvent {
  type: string;
  schemaVersion: number;
  data: Record<string, unknown>;
}

export class UpcasterRegistry {
  private readonly byKey = new Map<string, Upcaster>();
  private readonly latest = new Map<string, number>();

  constructor(upcasters: readonly Upcaster[]) {
    for (const upcaster of upcasters) {
      if (!Number.isSafeInteger(upcaster.fromVersion) || upcaster.fromVersion < 1) {
        throw new Error(`upcaster of ${upcaster.type} must read a version from 1 on (got ${upcaster.fromVersion})`);
      }
      const key = keyOf(upcaster.type, upcaster.fromVersion);
      if (this.byKey.has(key)) throw new Error(`two upcasters of ${upcaster.type} read version ${upcaster.fromVersion}`);
      this.byKey.set(key, upcaster);
      this.latest.set(upcaster.type, Math.max(this.latest.get(upcaster.type) ?? 1, upcaster.fromVersion + 1));
    }
    // A gap would leave events of the missing version stuck in an old shape.
    for (const [type, latest] of this.latest) {
      for (let version = 1; version < latest; version += 1) {
        if (!this.byKey.has(keyOf(type, version))) throw new Error(`${type} has no upcaster from version ${version}`);
      }
    }
  }

  /** The version the registry upcasts `type` to: 1 for a type that never evolved. */
  currentVersion(type: string): number {
    return this.latest.get(type) ?? 1;
  }

  /**
   * The event in its current shape; the same object when nothing applies. A version newer than
   * the registry knows (written by a newer release) is handed on unchanged, not guessed at.
   */
  upcast<E extends VersionedEvent>(event: E): E {
    let upcaster = this.byKey.get(keyOf(event.type, event.schemaVersion));
    if (!upcaster) return event;
    let { data, schemaVersion } = event;
    while (upcaster) {
      data = upcaster.upcast(data);
      schemaVersion += 1;
      upcaster = this.byKey.get(keyOf(event.type, schemaVersion));
    }
    return { ...event, data, schemaVersion };
  }
}

const keyOf = (type: string, version: number): string => `${type}@${version}`;
