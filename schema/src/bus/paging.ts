import { z } from 'zod';

/** One page holds at most this many items: enough for a sidebar, small enough for one bus reply. */
export const PAGE_SIZE_MAX = 100;

/** Where a listing is at: the row's sort key values, its id last. Opaque to clients: base64url of a JSON array. */
export const encodePageCursor = (position: readonly (string | number)[]): string =>
  Buffer.from(JSON.stringify(position)).toString('base64url');

/** The values a cursor holds, or null when the text is not a cursor at all (each listing checks their kinds). */
export function decodePageCursor(cursor: string): unknown[] | null {
  try {
    const position: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(position) ? position : null;
  } catch {
    return null;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A timestamp as PostgreSQL prints it (microseconds kept, so rows a microsecond apart keep their order). */
export const isTimestampText = (value: unknown): value is string =>
  typeof value === 'string' && value.length < 64 && !Number.isNaN(Date.parse(value));

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** A row's place in a listing sorted by a timestamp, then id. */
export interface TimePosition {
  at: string;
  id: string;
}

export const encodeTimeCursor = (position: TimePosition): string => encodePageCursor([position.at, position.id]);

/** A cursor of a listing sorted by a timestamp then id; anything else is VALIDATION_FAILED. */
const TimeCursor = z
  .string()
  .max(200)
  .transform((cursor, context): TimePosition => {
    const [at, id, ...rest] = decodePageCursor(cursor) ?? [];
    if (rest.length === 0 && isTimestampText(at) && isUuid(id)) return { at, id };
    context.addIssue({ code: 'custom', message: 'The page cursor is not valid' });
    return z.NEVER;
  });

const PageSize = z.number().int().min(1, `Ask for 1 to ${PAGE_SIZE_MAX} items`).max(PAGE_SIZE_MAX, `Ask for 1 to ${PAGE_SIZE_MAX} items`);

/**
 * Relay paging: the `first` items after `after`, or the `last` items before `before` (both cursors may bound the
 * window). Neither `first` nor `last`: the listing's default page from the start.
 */
const PageWindow = z.object({
  first: PageSize.nullish(),
  after: TimeCursor.nullish(),
  last: PageSize.nullish(),
  before: TimeCursor.nullish(),
});
export type PageWindow = z.input<typeof PageWindow>;
export type PageRequest = z.output<typeof PageWindow>;

function countsFromOneEnd(window: object): boolean {
  const { first, last } = window as PageRequest;
  return first == null || last == null;
}

/** `request` with a page window; a page is counted from one end, never both. */
export const paged = <T extends z.ZodRawShape>(request: z.ZodObject<T>) =>
  request.extend(PageWindow.shape).refine(countsFromOneEnd, {
    message: 'Page with first or last, not both',
    path: ['last'],
  });

export const PageInfo = z.object({
  startCursor: z.string().nullable(),
  endCursor: z.string().nullable(),
  /** Items follow the page (after endCursor). */
  hasNextPage: z.boolean(),
  /** Items come before the page (before startCursor). */
  hasPreviousPage: z.boolean(),
});
export type PageInfo = z.infer<typeof PageInfo>;

/** A page of `item`s in listing order; `cursors[i]` is the place of `items[i]`. `totalCount`: null where counting is costly. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), cursors: z.array(z.string()), pageInfo: PageInfo, totalCount: z.number().int().nullable() });
