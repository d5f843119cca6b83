import type { SqlSession } from './database';
import { AppError, EXPORT_PAGE_BYTES, type ExportPage } from '@app/schema';

type Row = Record<string, unknown>;

/** One part of a member's export: the rows of `table` (as `t`) that name the member, in the order of a unique key. */
export interface PartQuery {
  /** `"schema"."table"` */
  table: string;
  /** The row as JSON, from `t` (e.g. `to_jsonb(t) - 'secret'`). */
  select: string;
  /** Which rows are the member's; the member's id is $1. */
  where: string;
  /** Columns of `t` whose values, in this order, are unique: a page continues after the previous page's last row. */
  orderBy: string[];
}

const invalidCursor = () => new AppError('VALIDATION_FAILED', 'The export cursor does not fit this part.');

/**
 * A page of the member's rows after `after` (the last row's key, values as text): at most `limit` rows, and no more once
 * their JSON passes `maxBytes` (the first row always goes, so every page makes progress).
 */
export async function readPage(
  session: SqlSession,
  query: PartQuery,
  userId: string,
  after: string[] | null,
  limit: number,
  maxBytes = EXPORT_PAGE_BYTES,
): Promise<ExportPage & { bytes: number }> {
  if (after && after.length !== query.orderBy.length) throw invalidCursor();
  const columns = query.orderBy.map((column) => `t."${column}"`);
  const continues = after ? ` AND (${columns.join(', ')}) > (${after.map((_value, index) => `$${index + 2}`).join(', ')})` : '';
  const found = await session.query<{ row: Row; key: string[] }>(
    `SELECT ${query.select} AS "row", ARRAY[${columns.map((column) => `${column}::text`).join(', ')}] AS "key"
     FROM ${query.table} t WHERE (${query.where})${continues} ORDER BY ${columns.join(', ')} LIMIT ${limit + 1}`,
    [userId, ...(after ?? [])],
  );
  const rows: Row[] = [];
  let bytes = 0;
  let more = found.length > limit;
  for (const { row } of found.slice(0, limit)) {
    const size = Buffer.byteLength(JSON.stringify(row));
    if (rows.length > 0 && bytes + size > maxBytes) {
      more = true;
      break;
    }
    rows.push(row);
    bytes += size;
  }
  return { rows, next: more ? found[rows.length - 1]!.key : null, bytes };
}

/** Tables of `schema` with a `user_id` column, but for those the caller handles by name. */
export async function memberTables(session: SqlSession, schema: string, handled: ReadonlySet<string>): Promise<string[]> {
  const rows = await session.query<{ table_name: string }>(
    `SELECT c."table_name" FROM information_schema.columns c
     JOIN information_schema.tables t ON t."table_schema" = c."table_schema" AND t."table_name" = c."table_name" AND t."table_type" = 'BASE TABLE'
     WHERE c."table_schema" = $1 AND c."column_name" = 'user_id' ORDER BY c."table_name"`,
    [schema],
  );
  return rows.map((row) => row.table_name).filter((table) => !handled.has(table));
}

/** A table's primary key columns, in key order: the unique order its rows are paged in. */
async function primaryKey(session: SqlSession, schema: string, table: string): Promise<string[]> {
  const rows = await session.query<{ column: string }>(
    `SELECT a."attname" AS "column" FROM pg_index i
     JOIN pg_attribute a ON a."attrelid" = i."indrelid" AND a."attnum" = ANY(i."indkey")
     WHERE i."indrelid" = format('%I.%I', $1::text, $2::text)::regclass AND i."indisprimary"
     ORDER BY array_position(i."indkey"::int2[], a."attnum")`,
    [schema, table],
  );
  if (rows.length === 0) throw new Error(`${schema}.${table} keeps rows by member but has no primary key to page them by`);
  return rows.map((row) => row.column);
}

/**
 * Rows of the given tables that name the member, as `{ table, row }`, table after table; the cursor is the table's name
 * followed by the last row's key (the name alone: that table from its start).
 */
export async function readTablesPage(
  session: SqlSession,
  schema: string,
  tables: string[],
  select: string,
  userId: string,
  after: string[] | null,
  limit: number,
): Promise<ExportPage> {
  const start = after ? tables.indexOf(after[0]!) : 0;
  if (start < 0) throw invalidCursor();
  const rows: Row[] = [];
  let bytes = 0;
  for (let index = start; index < tables.length; index++) {
    const table = tables[index]!;
    if (rows.length >= limit || bytes >= EXPORT_PAGE_BYTES) return { rows, next: [table] };
    const resumeAt = index === start && after && after.length > 1 ? after.slice(1) : null;
    const page = await readPage(
      session,
      { table: `"${schema}"."${table}"`, select, where: 't."user_id" = $1', orderBy: await primaryKey(session, schema, table) },
      userId,
      resumeAt,
      limit - rows.length,
      EXPORT_PAGE_BYTES - bytes,
    );
    rows.push(...page.rows.map((row) => ({ table, row })));
    bytes += page.bytes;
    if (page.next) return { rows, next: [table, ...page.next] };
  }
  return { rows, next: null };
}
