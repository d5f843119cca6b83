import fs from 'node:fs';
import { BUS_PERMISSIONS, BUS_PRINCIPALS, chatEvents, identityEvents, mediaEvents } from '@app/schema';
import { z } from 'zod';
import { EVENT_CATALOG_PATH, describeEvents, fieldsOf, renderEventCatalogFile } from '../src/event-catalog';

describe('event catalog', () => {
  it('keeps docs/events.md as the contracts say (npm run events:catalog)', async () => {
    const checkedIn = fs.existsSync(EVENT_CATALOG_PATH) ? fs.readFileSync(EVENT_CATALOG_PATH, 'utf8') : '';
    expect(checkedIn).toBe(await renderEventCatalogFile());
  });

  it('lists every event a principal publishes, once, with its publisher', () => {
    const catalog = describeEvents();
    const keys = catalog.map((event) => `${event.subject}@${event.version}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const principal of BUS_PRINCIPALS) {
      for (const event of BUS_PERMISSIONS[principal].publishesEvents) {
        expect(catalog.find((entry) => entry.subject === event.type)?.emittedBy).toContain(principal);
      }
    }
  });

  it("reads each event's fields from its zod schema and its consumers from BUS_PERMISSIONS", () => {
    const catalog = describeEvents();
    const entry = (subject: string) => catalog.find((event) => event.subject === subject)!;

    const messageCreated = entry(chatEvents.messageCreated.type);
    expect(messageCreated).toMatchObject({ version: 1, emittedBy: ['chat'] });
    expect(messageCreated.consumedBy).toEqual(['identity-stats (identity)']);
    expect(messageCreated.fields.map((field) => field.name)).toEqual(['conversationId', 'messageId', 'role', 'length']);
    expect(messageCreated.fields[2]).toMatchObject({ type: 'one of `user`, `assistant`', nullable: false, optional: false });

    const interest = entry(identityEvents.interestRecorded.type);
    expect(interest.fields.find((field) => field.name === 'userId')).toMatchObject({ type: 'string (uuid)', nullable: true });

    const queued = entry(mediaEvents.generationQueued.type);
    expect(queued.fields.map((field) => field.name)).toContain('settings.size');
    expect(entry(mediaEvents.imageDeleted.type).consumedBy).toEqual(['identity-stats (identity)', 'media-image-files (media)']);
  });

  it('shows what a schema says of a field: optional, nullable, nested, and its description', () => {
    const fields = fieldsOf(
      z.object({
        reason: z.string().describe('Why, in a few words.'),
        count: z.number().int().nullish().meta({ description: 'How many, when known.' }),
        targets: z.array(z.object({ id: z.string().uuid() })),
      }),
    );
    expect(fields).toEqual([
      { name: 'reason', type: 'string', nullable: false, optional: false, description: 'Why, in a few words.' },
      { name: 'count', type: 'integer', nullable: true, optional: true, description: 'How many, when known.' },
      { name: 'targets', type: 'array of object', nullable: false, optional: false, description: null },
      { name: 'targets[].id', type: 'string (uuid)', nullable: false, optional: false, description: null },
    ]);
  });
});
