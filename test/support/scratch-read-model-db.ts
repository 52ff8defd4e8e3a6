/**
 * A read-model database of its own for each test, on SQLite (a temp file) or PostgreSQL (a schema),
 * prepared by `prepare` (say, with the tables of an earlier release). Call inside `describe`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReadModelDbConfig } from '../../projections/database';
import { createTestSchema, dropSchema } from './postgres';

export function scratchReadModelDb(
  dialect: 'sqlite' | 'postgres',
  prefix: string,
  prepare: (config: ReadModelDbConfig) => Promise<void>,
): () => ReadModelDbConfig {
  let config: ReadModelDbConfig | undefined;
  let cleanup: () => Promise<void> = async () => {};
  beforeEach(async () => {
    if (dialect === 'sqlite') {
      const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
      config = { kind: 'sqlite', file: path.join(dir, 'read-models.db') };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    } else {
      const { url, schema } = await createTestSchema(prefix);
      config = { kind: 'postgres', url };
      cleanup = () => dropSchema(schema);
    }
    await prepare(config);
  });
  afterEach(() => cleanup());
  return () => config!;
}
