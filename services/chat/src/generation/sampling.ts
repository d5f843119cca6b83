import type { SamplerSettings } from '@app/schema';

/** Settings with nothing set are no settings: stored as null, so "none of its own" reads the same everywhere. */
export function withoutEmptySettings(settings: SamplerSettings | null | undefined): SamplerSettings | null {
  if (!settings) return null;
  const kept = Object.fromEntries(
    Object.entries(settings).filter(
      ([, value]) => value !== null && value !== undefined && !(typeof value === 'object' && Object.keys(value).length === 0),
    ),
  ) as SamplerSettings;
  return Object.keys(kept).length ? kept : null;
}

/**
 * The settings a reply is sampled with: the conversation's over the character's, field by field (a conversation that
 * sets only the temperature keeps the character's top_p); extras merge the same way.
 */
export function effectiveSampling(
  character: SamplerSettings | null | undefined,
  conversation: SamplerSettings | null | undefined,
): SamplerSettings | null {
  const base = withoutEmptySettings(character) ?? {};
  const own = withoutEmptySettings(conversation) ?? {};
  const extras = { ...(base.extras ?? {}), ...(own.extras ?? {}) };
  return withoutEmptySettings({ ...base, ...own, extras });
}
