import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityService } from '@app/identity';
import { mediaService } from '@app/media';
import { TestClient, registration } from '../../../gateway/test/http-client';
import { type TestTarget, eventually, testTargets } from '../../kit/test/test-infra';
import { createChatService } from '../src';
import { ScriptedProvider } from './scripted-provider';

jest.setTimeout(60_000);

/** A V2 card whose lorebook has a keyed entry, an always-on entry and a disabled one, and whose texts use the macros. */
const LORE_CARD = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Captain Ilse Varga',
    description: '{{char}} commands the airship Kestrel and owes {{user}} a favour.',
    personality: 'Stern, loyal',
    scenario: 'The Kestrel is docked at the sky-harbour.',
    first_mes: 'Welcome aboard, {{user}}. I am {{char}}.',
    mes_example: '',
    creator_notes: '',
    system_prompt: '{{original}} Never break the ship’s discipline.',
    post_history_instructions: '',
    alternate_greetings: [],
    tags: [],
    creator: 'tests',
    character_version: '1',
    extensions: {},
    character_book: {
      name: 'Kestrel lore',
      extensions: {},
      entries: [
        {
          keys: ['engine', 'engines'],
          content: 'The Kestrel runs on a captured storm-heart that {{user}} once helped steal.',
          extensions: {},
          enabled: true,
          insertion_order: 10,
          comment: 'Storm-heart engine',
        },
        {
          keys: [],
          content: 'Airships never fly over the Ashen Wastes.',
          extensions: {},
          enabled: true,
          constant: true,
          insertion_order: 1,
          comment: 'Wastes',
        },
        {
          keys: ['kestrel'],
          content: 'Secret: the Kestrel is stolen.',
          extensions: {},
          enabled: false,
          insertion_order: 20,
          comment: 'Off',
        },
      ],
    },
  },
};

describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('prompts on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  const provider = new ScriptedProvider();

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
      services: [identityService, createChatService({ provider, sweepIntervalMs: 200, flushIntervalMs: 50 }), mediaService],
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
  });
  beforeEach(() => {
    provider.words = ['Aye.'];
    provider.delayMs = 1;
  });

  async function member(firstName = 'Mira'): Promise<TestClient> {
    const client = new TestClient(platform.url);
    const response = await client.fetch('/api/auth/register', { method: 'POST', json: registration({ firstName }) });
    expect(response.status).toBe(201);
    return client;
  }

  async function gql<T>(client: TestClient, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const result = await client.graphql<T>(query, variables);
    if (result.errors?.length) throw new Error(`${result.errors[0]!.extensions?.code}: ${result.errors[0]!.message}`);
    return result.data!;
  }

  async function importLoreCard(client: TestClient): Promise<string> {
    const file = Buffer.from(JSON.stringify(LORE_CARD)).toString('base64');
    const { importCharacterCard } = await gql<{ importCharacterCard: { id: string } }>(
      client,
      'mutation($file: String!) { importCharacterCard(fileBase64: $file) { id } }',
      { file },
    );
    return importCharacterCard.id;
  }

  async function chatWith(client: TestClient, characterId: string | null): Promise<string> {
    const { createConversation } = await gql<{ createConversation: { id: string } }>(
      client,
      'mutation($c: ID) { createConversation(characterId: $c) { id } }',
      { c: characterId },
    );
    return createConversation.id;
  }

  const send = async (client: TestClient, conversationId: string, content: string) => {
    const response = await client.fetch(`/api/chat/${conversationId}`, { method: 'POST', json: { content } });
    expect(response.status).toBe(200);
    return (await response.json()) as { assistantMessage: { id: string } };
  };

  it("uses the member's first name for {{user}}, then the persona they set, in greetings and prompts", async () => {
    const client = await member('Mira');
    const characterId = await importLoreCard(client);
    const first = await chatWith(client, characterId);
    const greeting = (await (await client.fetch(`/api/conversations/${first}/messages`)).json()) as { content: string }[];
    expect(greeting[0]!.content).toBe('Welcome aboard, Mira. I am Captain Ilse Varga.');

    const persona = await gql<{ updatePersona: { name: string; displayName: string } }>(
      client,
      'mutation { updatePersona(input: { name: "  Corsair  ", description: "A smuggler with a price on {{user}}\'s head." }) { name displayName } }',
    );
    expect(persona.updatePersona).toEqual({ name: 'Corsair', displayName: 'Corsair' });
    expect(await (await client.fetch('/api/persona')).json()).toMatchObject({ name: 'Corsair', displayName: 'Corsair' });

    const second = await chatWith(client, characterId);
    const opening = (await (await client.fetch(`/api/conversations/${second}/messages`)).json()) as { content: string }[];
    expect(opening[0]!.content).toBe('Welcome aboard, Corsair. I am Captain Ilse Varga.');
    await send(client, second, 'Hello, captain.');
    const system = provider.prompts.at(-1)![0]!.content;
    expect(system).toContain('Never speak for Corsair. Never break the ship’s discipline.');
    expect(system).toContain('Captain Ilse Varga commands the airship Kestrel and owes Corsair a favour.');
    expect(system).toContain("About Corsair: A smuggler with a price on Corsair's head.");
    expect(system).not.toMatch(/\{\{(user|char|original)\}\}/);

    const refused = await client.graphql(
      'mutation { updatePersona(input: { name: "x", description: "' + 'y'.repeat(1001) + '" }) { name } }',
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('inserts lorebook entries when their keys come up, keeps disabled ones out, and reports it on the reply', async () => {
    const client = await member();
    const id = await chatWith(client, await importLoreCard(client));
    const quiet = await send(client, id, 'What is our heading?');
    expect(provider.prompts.at(-1)![0]!.content).not.toContain('storm-heart');
    expect(provider.prompts.at(-1)![0]!.content).toContain('Airships never fly over the Ashen Wastes.');

    const keyed = await send(client, id, 'How are the ENGINES holding up?');
    const system = provider.prompts.at(-1)![0]!.content;
    expect(system).toContain('The Kestrel runs on a captured storm-heart that Mira once helped steal.');
    expect(system).not.toContain('Secret: the Kestrel is stolen.');

    const reports = await gql<{ a: { promptReport: Report }; b: { promptReport: Report } }>(
      client,
      `query($a: ID!, $b: ID!) {
        a: message(id: $a) { promptReport { ...R } }
        b: message(id: $b) { promptReport { ...R } }
      }
      fragment R on PromptReport { messagesIncluded messagesTotal contextTokens lore { label keys } loreSkipped { label reason } }`,
      { a: quiet.assistantMessage.id, b: keyed.assistantMessage.id },
    );
    type Report = { messagesIncluded: number; messagesTotal: number; lore: { label: string; keys: string[] }[] };
    expect(reports.a.promptReport.lore.map((entry) => entry.label)).toEqual(['Wastes']);
    expect(reports.b.promptReport).toMatchObject({ contextTokens: 4096, messagesIncluded: 4, messagesTotal: 4 });
    expect(reports.b.promptReport.lore).toEqual(
      expect.arrayContaining([
        { label: 'Storm-heart engine', keys: ['engine'] },
        { label: 'Wastes', keys: [] },
      ]),
    );
  });

  it("samples with the conversation's settings over the character's, and with a model the provider lists", async () => {
    const client = await member();
    const { createCharacter } = await gql<{ createCharacter: { id: string; sampling: { temperature: number } } }>(
      client,
      'mutation { createCharacter(input: { name: "Quill", sampling: { temperature: 1.2, topP: 0.9, extras: { min_p: 0.05 } } }) { id sampling { temperature } } }',
    );
    expect(createCharacter.sampling.temperature).toBe(1.2);
    const id = await chatWith(client, createCharacter.id);
    const { chatModels } = await gql<{ chatModels: { models: string[]; defaultModel: string } }>(
      client,
      '{ chatModels { models defaultModel } }',
    );
    expect(chatModels).toEqual({ models: ['scripted-model', 'scripted-large'], defaultModel: 'scripted-model' });

    const settings = await gql<{ updateConversationSettings: { sampling: { temperature: number; topP: number | null }; model: string } }>(
      client,
      `mutation($id: ID!) { updateConversationSettings(id: $id, input: { sampling: { temperature: 0.4, stop: ["\\nQuill:"] }, model: "scripted-large" }) {
        sampling { temperature topP } model } }`,
      { id },
    );
    expect(settings.updateConversationSettings).toEqual({ sampling: { temperature: 0.4, topP: null }, model: 'scripted-large' });
    await send(client, id, 'Write me a line.');
    expect(provider.requests.at(-1)).toMatchObject({
      model: 'scripted-large',
      sampling: { temperature: 0.4, topP: 0.9, stop: ['\nQuill:'], extras: { min_p: 0.05 } },
    });
    const reply = (await (await client.fetch(`/api/conversations/${id}/messages`)).json()) as { model: string }[];
    expect(reply.at(-1)!.model).toBe('scripted-large');

    for (const input of ['{ model: "gpt-9" }', '{ sampling: { temperature: 3 } }', '{ sampling: { extras: { model: 1 } } }']) {
      const refused = await client.graphql(`mutation($id: ID!) { updateConversationSettings(id: $id, input: ${input}) { id } }`, { id });
      expect(refused.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    }
    const stranger = await member();
    const foreign = await stranger.fetch(`/api/conversations/${id}/settings`, { method: 'PUT', json: { model: null } });
    expect(foreign.status).toBe(404);

    // Back to the defaults over /api: the character's settings alone apply again.
    const cleared = await client.fetch(`/api/conversations/${id}/settings`, { method: 'PUT', json: { sampling: null, model: null } });
    expect(await cleared.json()).toMatchObject({ sampling: null, model: null });
    await send(client, id, 'Again.');
    await eventually(() => expect(provider.requests.at(-1)).toMatchObject({ sampling: { temperature: 1.2, topP: 0.9 } }));
    expect(provider.requests.at(-1)!.model ?? null).toBeNull();
  });
});
