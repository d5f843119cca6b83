import { ContentPolicy } from '@app/policy';
import type { ChatStore } from '../chat.store';
import type { PersonaRow } from './personas.repository';
import { type MemberNames, PersonasService } from './personas.service';

/** The personas table in memory, behind the store's `run`. */
function fakeStore(): { store: ChatStore; rows: Map<string, PersonaRow> } {
  const rows = new Map<string, PersonaRow>();
  const personas = {
    find: async (ownerId: string) => rows.get(ownerId) ?? null,
    save: async (ownerId: string, name: string, description: string) => {
      const row = { owner_id: ownerId, name, description };
      rows.set(ownerId, row);
      return row;
    },
  };
  const store = { run: (work: (repositories: { personas: typeof personas }) => Promise<unknown>) => work({ personas }) };
  return { store: store as unknown as ChatStore, rows };
}

const MIRA = '00000000-0000-4000-8000-000000000001';
const NAMELESS = '00000000-0000-4000-8000-000000000002';

describe('PersonasService', () => {
  const names: MemberNames = { firstNameOf: async (userId) => (userId === MIRA ? 'Mira' : null) };

  it('stands for the member by their first name until they name a persona, and by "User" when they have none', async () => {
    const { store } = fakeStore();
    const personas = new PersonasService(store, names, new ContentPolicy());
    expect(await personas.get(MIRA)).toEqual({ name: '', description: '', displayName: 'Mira' });
    expect(await personas.forPrompt(NAMELESS)).toEqual({ name: 'User', description: '' });
    expect(await personas.update(MIRA, { name: '  Corsair ', description: ' A smuggler. ' })).toEqual({
      name: 'Corsair',
      description: 'A smuggler.',
      displayName: 'Corsair',
    });
    expect(await personas.forPrompt(MIRA)).toEqual({ name: 'Corsair', description: 'A smuggler.' });
  });

  it('falls back to "User" when identity cannot say the first name, rather than failing the reply', async () => {
    const { store } = fakeStore();
    const unreachable: MemberNames = { firstNameOf: () => Promise.reject(new Error('identity is down')) };
    expect((await new PersonasService(store, unreachable, new ContentPolicy()).forPrompt(MIRA)).name).toBe('User');
  });

  it('refuses a persona past its limits or across the hard lines, keeping the one it had', async () => {
    const { store, rows } = fakeStore();
    const personas = new PersonasService(store, names, new ContentPolicy());
    await personas.update(MIRA, { name: 'Kai', description: '' });
    await expect(personas.update(MIRA, { name: 'x'.repeat(61), description: '' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(personas.update(MIRA, { name: 'Kai', description: 'I am 15 and naked.' })).rejects.toMatchObject({
      code: 'CONTENT_REJECTED',
    });
    expect(rows.get(MIRA)).toMatchObject({ name: 'Kai', description: '' });
  });
});
