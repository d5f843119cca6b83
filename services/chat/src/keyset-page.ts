import type { SqlSession } from '@app/kit';
import { type PageInfo, type PageRequest, encodeTimeCursor } from '@app/schema';

/** A listing sorted newest first by a timestamp column, then by id (so rows with the same time keep one order). */
export interface Listing {
  /** The table, e.g. `"chat"."conversations"`. */
  table: string;
  columns: string;
  /** The timestamp column, quoted. */
  sortedBy: string;
  /** Which rows belong to the listing, with `$1`… for `params`. */
  where: string;
  params: unknown[];
}

/** A page of rows in listing order, and what the page info needs to know about the rows around it. */
export interface KeysetRows<Row> {
  rows: (Row & { cursor_at: string })[];
  /** The window (between the cursors) holds more rows than the page took, on the side the page was counted from. */
  hasMoreInWindow: boolean;
  /** Rows lie before `after` (at it included), or after `before`. */
  hasRowsBeforeWindow: boolean;
  hasRowsAfterWindow: boolean;
}

export interface Page<Item> {
  items: Item[];
  cursors: string[];
  pageInfo: PageInfo;
}

/**
 * Reads one page by keyset: the `first` rows after `after`, or the `last` rows before `before`, found through the
 * (timestamp, id) order rather than an offset, so a page costs the same wherever it is and concurrent inserts shift nothing.
 */
export async function readKeysetPage<Row>(
  session: SqlSession,
  listing: Listing,
  request: PageRequest,
  defaultSize: number,
): Promise<KeysetRows<Row>> {
  const params = [...listing.params];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const key = `(${listing.sortedBy}, "id")`;
  const after = request.after ? `(${param(request.after.at)}::timestamptz, ${param(request.after.id)}::uuid)` : null;
  const before = request.before ? `(${param(request.before.at)}::timestamptz, ${param(request.before.id)}::uuid)` : null;
  const window = [`(${listing.where})`, ...(after ? [`${key} < ${after}`] : []), ...(before ? [`${key} > ${before}`] : [])];
  const size = request.first ?? request.last ?? defaultSize;
  const isFromEnd = request.last != null;
  const direction = isFromEnd ? 'ASC' : 'DESC';

  const fetched = await session.query<Row & { cursor_at: string }>(
    `SELECT ${listing.columns}, ${listing.sortedBy}::text AS "cursor_at" FROM ${listing.table} WHERE ${window.join(' AND ')}
     ORDER BY ${listing.sortedBy} ${direction}, "id" ${direction} LIMIT $${params.length + 1}`,
    [...params, size + 1],
  );
  const rows = fetched.slice(0, size);
  if (isFromEnd) rows.reverse();
  const around = await readAround(session, listing, params, { key, after, before });
  return { rows, hasMoreInWindow: fetched.length > size, ...around };
}

/** Whether rows lie outside the window on either side (one query, only when a cursor bounds the window). */
async function readAround(
  session: SqlSession,
  listing: Listing,
  params: unknown[],
  bounds: { key: string; after: string | null; before: string | null },
): Promise<Pick<KeysetRows<unknown>, 'hasRowsBeforeWindow' | 'hasRowsAfterWindow'>> {
  if (!bounds.after && !bounds.before) return { hasRowsBeforeWindow: false, hasRowsAfterWindow: false };
  const rowsWhere = (condition: string) => `EXISTS (SELECT 1 FROM ${listing.table} WHERE (${listing.where}) AND ${condition})`;
  const [row] = await session.query<{ has_before: boolean; has_after: boolean }>(
    `SELECT ${bounds.after ? rowsWhere(`${bounds.key} >= ${bounds.after}`) : 'false'} AS "has_before",
       ${bounds.before ? rowsWhere(`${bounds.key} <= ${bounds.before}`) : 'false'} AS "has_after"`,
    params,
  );
  return { hasRowsBeforeWindow: Boolean(row?.has_before), hasRowsAfterWindow: Boolean(row?.has_after) };
}

/** The page as clients see it: items, their cursors and Relay's page info, in both directions. */
export function toPage<Row extends { id: string }, Item>(
  page: KeysetRows<Row>,
  request: PageRequest,
  toItem: (row: Row) => Item,
): Page<Item> {
  const cursors = page.rows.map((row) => encodeTimeCursor({ at: row.cursor_at, id: row.id }));
  const isFromEnd = request.last != null;
  return {
    items: page.rows.map(toItem),
    cursors,
    pageInfo: {
      startCursor: cursors[0] ?? null,
      endCursor: cursors[cursors.length - 1] ?? null,
      hasNextPage: page.hasRowsAfterWindow || (!isFromEnd && page.hasMoreInWindow),
      hasPreviousPage: page.hasRowsBeforeWindow || (isFromEnd && page.hasMoreInWindow),
    },
  };
}
