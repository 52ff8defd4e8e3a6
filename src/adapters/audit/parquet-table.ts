/**
 * Parquet for audit exports: one table written as one file, and read back for `export verify`.
 * Column types follow the read model's: text is STRING, integer INT32, bigint INT64 (amounts in
 * minor units and positions, written exactly, as 64-bit integers). Every column may hold nulls.
 *
 * Both libraries are ES modules only, which the compiled CommonJS loads with require() (Node 20.19
 * and later); the export commands import this file only when a Parquet file is written or read, so
 * nothing else the CLI does loads them.
 */
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';

export type ExportColumnType = 'text' | 'integer' | 'bigint';

export interface ExportColumn {
  name: string;
  type: ExportColumnType;
}

const PARQUET_TYPE = { text: 'STRING', integer: 'INT32', bigint: 'INT64' } as const;

/** A read model value as the column's Parquet type takes it; null stays null. */
function parquetValue(type: ExportColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'bigint') return BigInt(value as number | string | bigint);
  if (type === 'integer') return Number(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function toParquet(columns: readonly ExportColumn[], rows: ReadonlyArray<Record<string, unknown>>): Buffer {
  const bytes = parquetWriteBuffer({
    columnData: columns.map((c) => ({ name: c.name, type: PARQUET_TYPE[c.type], data: rows.map((row) => parquetValue(c.type, row[c.name])) })),
    createdBy: 'ledger-gateway export',
  });
  return Buffer.from(bytes);
}

/** The columns and rows of a Parquet file, or a sentence saying why it cannot be read as one. */
export async function readParquet(bytes: Buffer): Promise<{ columns: string[]; rowCount: number; rows: Array<Record<string, unknown>> } | string> {
  // The reader wants the file's own ArrayBuffer, not a view into Node's shared pool.
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  try {
    const metadata = parquetMetadata(file);
    const columns = parquetSchema(metadata).children.map((c) => c.element.name);
    const rows = await parquetReadObjects({ file, metadata });
    return { columns, rowCount: Number(metadata.num_rows), rows };
  } catch (error) {
    return `it is not a Parquet file that can be read (${error instanceof Error ? error.message : String(error)})`;
  }
}
