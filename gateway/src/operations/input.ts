import { findUnstorableText } from '@app/kit';
import { AppError, PAGE_SIZE_MAX, validationError } from '@app/schema';
import { z } from 'zod';

/** The ids the service contracts accept (RFC 9562 UUIDs); anything else names nothing that exists. */
const ContractId = z.string().uuid();

/**
 * The id rule: an id that cannot exist is NOT_FOUND, the same answer an unknown id or someone else's item gets,
 * on every GraphQL field and REST route (`node(id:)` answers null).
 */
export function foundId(raw: unknown, notFoundMessage: string): string {
  const parsed = ContractId.safeParse(raw);
  if (!parsed.success) throw new AppError('NOT_FOUND', notFoundMessage);
  return parsed.data;
}

export const isContractId = (raw: unknown): raw is string => ContractId.safeParse(raw).success;

/**
 * The page rule: a page holds 1 to 100 items; anything else is VALIDATION_FAILED naming the field the client used
 * (`first`, `last`, `limit`), on every listing.
 */
export function pageSize(field: string) {
  const message = `${field} must be between 1 and ${PAGE_SIZE_MAX}`;
  return z.number({ error: message }).int(message).min(1, message).max(PAGE_SIZE_MAX, message);
}

/** A Relay window as GraphQL connections take it; cursors are checked by the listing's own contract. */
export const RelayWindow = z.object({
  first: pageSize('first').nullish(),
  after: z.string().nullish(),
  last: pageSize('last').nullish(),
  before: z.string().nullish(),
});
export type RelayWindow = z.input<typeof RelayWindow>;

/** What a client may send for an input: its fields, each still to be validated. */
export type RawInput<T extends z.ZodType> = { [K in keyof z.input<T>]?: unknown };

/** A REST query parameter as a number: absent stays absent, anything that is not one fails the number check. */
export const queryNumber = (value: unknown): number | undefined =>
  value === undefined ? undefined : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;

/** A REST query parameter as text, or undefined (repeated parameters arrive as arrays, which are not text). */
export const queryText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Validates what a client sent with its contract, once, at the edge: text the database cannot store is refused
 * first (named as the bus would name it), then the schema's own messages, with the first one per field.
 */
export function parseInput<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const unstorable = findUnstorableText(raw);
  if (unstorable) {
    const field = unstorable.path.join('.');
    const message = `${field || 'The request'} ${unstorable.problem}.`;
    throw new AppError('VALIDATION_FAILED', message, { fieldErrors: { [field || '_']: message } });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}
