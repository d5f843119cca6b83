import type { Bus } from '@app/kit';
import type { ContentPolicy } from '@app/policy';
import { type MemberPersona, MemberPersonaInput, identityRpc } from '@app/schema';
import type { ChatStore } from '../chat.store';
import { parseInput } from '../conversations/conversations.service';
import { DEFAULT_MEMBER, type MemberPersona as PromptPersona } from '../generation/prompt-builder';

/** Where a member's first name comes from when their persona names none (identity owns names). */
export interface MemberNames {
  firstNameOf(userId: string): Promise<string | null>;
}

/** Reads first names from identity's public profiles. */
export const identityNames = (bus: Bus): MemberNames => ({
  async firstNameOf(userId) {
    const { profiles } = await bus.request(identityRpc.getPublicProfiles, { userIds: [userId] }, { userId });
    return profiles[0]?.firstName?.trim() || null;
  },
});

/** The member's chat persona: who `{{user}}` is, and what characters are told about them. */
export class PersonasService {
  constructor(
    private readonly store: ChatStore,
    private readonly names: MemberNames,
    private readonly policy: ContentPolicy,
  ) {}

  async get(userId: string): Promise<MemberPersona> {
    const row = await this.store.run(({ personas }) => personas.find(userId));
    return this.describe(userId, row?.name ?? '', row?.description ?? '');
  }

  async update(userId: string, raw: unknown): Promise<MemberPersona> {
    const input = parseInput(MemberPersonaInput, raw);
    // A persona is read into every prompt, as a character's fields are.
    await this.policy.assertAllowed([input.name, input.description], { path: 'character', userId });
    const row = await this.store.run(({ personas }) => personas.save(userId, input.name, input.description));
    return this.describe(userId, row.name, row.description);
  }

  /** What a prompt uses: the persona's name, else the member's first name, else "User". */
  async forPrompt(userId: string): Promise<PromptPersona> {
    const persona = await this.get(userId);
    return { name: persona.displayName, description: persona.description };
  }

  private async describe(userId: string, name: string, description: string): Promise<MemberPersona> {
    const displayName = name || (await this.names.firstNameOf(userId).catch(() => null)) || DEFAULT_MEMBER.name;
    return { name, description, displayName };
  }
}
