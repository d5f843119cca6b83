import { z } from 'zod';

/**
 * What a personal access token may do: `read` any query and subscription a member may; `chat` write
 * conversations, messages and characters; `generate` create and manage images. A token never signs in,
 * changes credentials, creates tokens, moderates or reports.
 */
export const TOKEN_SCOPES = ['read', 'chat', 'generate'] as const;
export const TokenScope = z.enum(TOKEN_SCOPES, { error: 'scopes are read, chat and generate' });
export type TokenScope = z.infer<typeof TokenScope>;

/** Recognisable in logs and to secret scanners; what follows is 32 random bytes, base64url. */
export const ACCESS_TOKEN_PREFIX = 'cpat_';

export const ACCESS_TOKEN_LIMITS = {
  /** Active (unrevoked, unexpired) tokens per member. */
  perMember: 20,
  nameMax: 60,
  maxDays: 365,
} as const;

export const AccessTokenInput = z.object({
  name: z
    .string({ error: 'Give the token a name' })
    .trim()
    .min(1, 'Give the token a name')
    .max(ACCESS_TOKEN_LIMITS.nameMax, `Names are at most ${ACCESS_TOKEN_LIMITS.nameMax} characters`),
  scopes: z
    .array(TokenScope, { error: 'Choose at least one scope' })
    .min(1, 'Choose at least one scope')
    .max(TOKEN_SCOPES.length)
    .transform((scopes) => [...new Set(scopes)]),
  /** Days until it stops working; null never expires. */
  expiresInDays: z
    .number()
    .int()
    .min(1, 'A token lasts at least 1 day')
    .max(ACCESS_TOKEN_LIMITS.maxDays, `A token lasts at most ${ACCESS_TOKEN_LIMITS.maxDays} days`)
    .nullable()
    .default(null),
});
export type AccessTokenInput = z.infer<typeof AccessTokenInput>;

/** A token as its owner sees it later: never the secret, only its first characters to tell tokens apart. */
export const AccessToken = z.object({
  id: z.string().uuid(),
  name: z.string(),
  scopes: z.array(TokenScope),
  /** `cpat_` and the secret's first 4 characters. */
  prefix: z.string(),
  createdAt: z.string().datetime(),
  lastUsedAt: z.string().datetime().nullable(),
  expiresAt: z.string().datetime().nullable(),
});
export type AccessToken = z.infer<typeof AccessToken>;

export const CreatedAccessToken = z.object({ token: AccessToken, secret: z.string() });
export type CreatedAccessToken = z.infer<typeof CreatedAccessToken>;

export const AccessTokenEvent = z.object({ userId: z.string().uuid(), tokenId: z.string().uuid() });
