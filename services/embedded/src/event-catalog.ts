/**
 * `npm run events:catalog`: writes docs/events.md, operators' catalog of the domain events, from the zod contracts
 * (`defineEvent` in schema/src/bus) and from who publishes and reads each (BUS_PERMISSIONS). A test
 * (services/embedded/test/event-catalog.test.ts) fails when the file and the contracts disagree.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as contracts from '@app/schema';
import { BUS_PERMISSIONS, BUS_PRINCIPALS, type BusPrincipal, type EventDef, EventEnvelope } from '@app/schema';
import { z } from 'zod';

export const EVENT_CATALOG_PATH = path.resolve(__dirname, '..', '..', '..', 'docs', 'events.md');

/**
 * What the contracts cannot say (yet): when an event is published and how to read it. Better kept as
 * `.meta({ description })` on the schemas, where it shows up as field descriptions; rendering fails for a
 * note on an event that no longer exists, so these cannot outlive their event.
 */
const EVENT_NOTES: Record<string, string> = {
  'evt.identity.interest.recorded': '`userId` is null for visitors; the client address never reaches the event.',
  'evt.identity.report.filed': "A member's report entered the moderation queue.",
  'evt.identity.takedown.filed': 'A takedown request (no account needed). Alert on it: the 48-hour removal clock is running.',
  'evt.identity.moderation.actioned': 'Media and chat apply hide, remove, restore and rating changes from it.',
  'evt.identity.member.suspended': "The member's sessions ended; media and chat hide the member's public content.",
  'evt.identity.role.granted': '`grantedBy` is null when the role came from the command line (`npm run admin -- grant-role`).',
  'evt.identity.member.age_assured': 'An age check was recorded (`npm run admin -- verify-age` on the command line).',
  'evt.chat.message.created': 'For each member message (`role: user`).',
  'evt.chat.reply.completed': 'Token counts are null when the provider sends none.',
  'evt.chat.reply.failed': '`cancelled` for a stopped reply; `refunded` is false when a stopped reply kept its text.',
  'evt.chat.content.refused':
    'A text refused by the content policy: what operators alert on. Never the member’s text, unless `POLICY_RETAIN_REFUSED_TEXT` keeps it in `text`.',
  'evt.media.generation.queued': 'Once the job is charged and queued.',
  'evt.media.generation.progressed':
    'Published directly, not through the outbox: `running` when an attempt starts and at each quarter of reported progress, `storing`, and `queued` before a retry.',
  'evt.media.generation.failed': '`refunded` true: the charge goes back.',
  'evt.media.image.generated':
    '`latencyMs` runs from the start of the attempt to the image recorded, `renditionMs` is making and storing its files, `bytes` the stored PNG.',
  'evt.media.image.visibility_changed': 'Only when the visibility changed.',
  'evt.media.image.liked': 'Only for a new like; `likes` is the new count.',
  'evt.media.image.unliked': 'Only when a like was removed; `likes` is the new count.',
  'evt.media.image.deleted': '`likes` is the count it had, so projections can take it back; media removes the files on it.',
  'evt.media.content.refused':
    'A text refused by the content policy: what operators alert on. Never the member’s text, unless `POLICY_RETAIN_REFUSED_TEXT` keeps it in `text`.',
};

/** The envelope's schema carries no descriptions; what each field means to someone reading the stream. */
const ENVELOPE_DESCRIPTIONS: Record<string, string> = {
  id: 'Unique; consumers are idempotent on it.',
  type: 'The subject, `evt.<service>.<entity>.<verb>`.',
  version: "The version of the event's contract.",
  occurredAt: 'When it happened (ISO 8601, UTC).',
  actorId: 'Who acted: a member, or null when no member did (the command line, the platform itself).',
  data: 'The fields listed under each event.',
};

export interface CatalogField {
  /** Dotted for nested objects (`settings.size`), `[]` for the items of an array (`targets[].id`). */
  name: string;
  type: string;
  nullable: boolean;
  optional: boolean;
  description: string | null;
}

export interface CatalogEvent {
  subject: string;
  version: number;
  fields: CatalogField[];
  emittedBy: BusPrincipal[];
  /** Durable consumers as `name (principal)`, and principals that follow it live as `principal (live tail)`. */
  consumedBy: string[];
  note: string | null;
}

/** A JSON Schema node as `z.toJSONSchema` writes it, as far as the catalog reads it. */
interface SchemaNode {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  anyOf?: SchemaNode[];
  description?: string;
}

const eventKey = (event: EventDef) => `${event.type}@${event.version}`;

const isEventDef = (value: unknown): value is EventDef => {
  const candidate = value as Partial<EventDef> | null;
  return (
    typeof candidate?.type === 'string' &&
    candidate.type.startsWith('evt.') &&
    typeof candidate.version === 'number' &&
    candidate.data instanceof z.ZodType
  );
};

/**
 * Every event the contracts define: first those each principal publishes, in the order of BUS_PRINCIPALS and of
 * their definitions, then any `defineEvent` exported from @app/schema that no principal may publish.
 */
function definedEvents(): EventDef[] {
  const found = new Map<string, EventDef>();
  for (const principal of BUS_PRINCIPALS) {
    for (const event of BUS_PERMISSIONS[principal].publishesEvents) found.set(eventKey(event), event);
  }
  const unpublished: EventDef[] = [];
  for (const group of Object.values(contracts)) {
    if (typeof group !== 'object' || group === null || group instanceof z.ZodType) continue;
    for (const candidate of Object.values(group)) {
      if (isEventDef(candidate) && !found.has(eventKey(candidate))) unpublished.push(candidate);
    }
  }
  for (const event of unpublished.sort((a, b) => eventKey(a).localeCompare(eventKey(b)))) found.set(eventKey(event), event);
  return [...found.values()];
}

const sameEvent = (a: EventDef, b: EventDef) => eventKey(a) === eventKey(b);

function consumersOf(event: EventDef): string[] {
  const consumers: string[] = [];
  for (const principal of BUS_PRINCIPALS) {
    const grant = BUS_PERMISSIONS[principal];
    for (const [name, events] of Object.entries(grant.durableConsumers)) {
      if (events.some((candidate) => sameEvent(candidate, event))) consumers.push(`${name} (${principal})`);
    }
    if (grant.tailsEvents.some((candidate) => sameEvent(candidate, event))) consumers.push(`${principal} (live tail)`);
  }
  return consumers;
}

/** The catalog as data: each event's fields from its zod schema, its publishers and its readers. */
export function describeEvents(): CatalogEvent[] {
  const events = definedEvents();
  const subjects = new Set(events.map((event) => event.type));
  const orphanNotes = Object.keys(EVENT_NOTES).filter((subject) => !subjects.has(subject));
  if (orphanNotes.length > 0) throw new Error(`EVENT_NOTES names events the contracts no longer define: ${orphanNotes.join(', ')}`);
  return events.map((event) => ({
    subject: event.type,
    version: event.version,
    fields: fieldsOf(event.data),
    emittedBy: BUS_PRINCIPALS.filter((principal) =>
      BUS_PERMISSIONS[principal].publishesEvents.some((candidate) => sameEvent(candidate, event)),
    ),
    consumedBy: consumersOf(event),
    note: EVENT_NOTES[event.type] ?? null,
  }));
}

/** The fields of an object schema, nested objects and arrays of objects flattened under their parent's name. */
export function fieldsOf(schema: z.ZodType): CatalogField[] {
  // Output: what consumers receive, after defaults and transforms; a transform has no JSON Schema, so it reads as "any".
  const root = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as SchemaNode;
  return propertiesOf(root, '');
}

function propertiesOf(node: SchemaNode, prefix: string): CatalogField[] {
  const required = new Set(node.required ?? []);
  return Object.entries(node.properties ?? {}).flatMap(([key, property]) => {
    const { base, nullable } = withoutNull(property);
    const name = `${prefix}${key}`;
    const field: CatalogField = {
      name,
      type: typeName(base),
      nullable,
      optional: !required.has(key),
      description: property.description ?? base.description ?? null,
    };
    return [field, ...nestedFields(base, name)];
  });
}

function nestedFields(node: SchemaNode, name: string): CatalogField[] {
  if (node.properties) return propertiesOf(node, `${name}.`);
  if (node.items) {
    const { base } = withoutNull(node.items);
    if (base.properties) return propertiesOf(base, `${name}[].`);
  }
  return [];
}

/** A nullable field is `anyOf: [T, null]` or `type: [T, "null"]`; the catalog shows T and says "nullable". */
function withoutNull(node: SchemaNode): { base: SchemaNode; nullable: boolean } {
  if (Array.isArray(node.type) && node.type.includes('null')) {
    const rest = node.type.filter((type) => type !== 'null');
    return { base: { ...node, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  const members = node.anyOf ?? [];
  const nonNull = members.filter((member) => member.type !== 'null');
  if (nonNull.length === members.length) return { base: node, nullable: false };
  return { base: nonNull.length === 1 ? nonNull[0]! : { anyOf: nonNull }, nullable: true };
}

function typeName(node: SchemaNode): string {
  if (node.enum) return `one of ${node.enum.map((value) => code(String(value))).join(', ')}`;
  if (node.const !== undefined) return code(JSON.stringify(node.const));
  if (node.anyOf) return node.anyOf.map(typeName).join(' or ');
  if (Array.isArray(node.type)) return node.type.join(' or ');
  switch (node.type) {
    case 'string':
      return node.format ? `string (${node.format})` : 'string';
    case 'array':
      return node.items ? `array of ${typeName(withoutNull(node.items).base)}` : 'array';
    case undefined:
      return 'any';
    default:
      return node.type;
  }
}

const code = (text: string) => `\`${text}\``;
/** Anchors as GitHub makes them from a heading: lower case, punctuation dropped, spaces to dashes. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
const headingOf = (event: CatalogEvent) => `${code(event.subject)} v${event.version}`;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const listOrNone = (items: string[]) => (items.length > 0 ? items.join(', ') : 'none');
const yes = (flag: boolean) => (flag ? 'yes' : '');

function fieldTable(fields: CatalogField[]): string[] {
  if (fields.length === 0) return ['No fields.'];
  // Few schemas describe their fields yet; an empty column would only widen the table.
  const described = fields.some((field) => field.description);
  const header = ['Field', 'Type', 'Nullable', 'Optional', ...(described ? ['Description'] : [])];
  const row = (field: CatalogField) => [
    code(field.name),
    cell(field.type),
    yes(field.nullable),
    yes(field.optional),
    ...(described ? [cell(field.description ?? '')] : []),
  ];
  return [header, header.map(() => '---'), ...fields.map(row)].map((cells) => `| ${cells.join(' | ')} |`);
}

/** docs/events.md, unformatted: `renderEventCatalogFile` gives it prettier's layout. */
export function renderEventCatalog(): string {
  const events = describeEvents();
  const lines = [
    '# Domain events',
    '',
    '<!-- Generated by `npm run events:catalog` from schema/src/bus (the zod contracts and BUS_PERMISSIONS); do not edit by hand. -->',
    '',
    'Every domain event is stored in the event stream (`EVENTS` on NATS JetStream, `DATA_DIR/events` in the embedded mode) as an envelope whose `type` is its subject, `evt.<service>.<entity>.<verb>`, and whose `data` holds the fields listed under the event. `npm run events -- tail` prints them (see "Watching the event stream" in the README).',
    '',
    '**Emitted by** is the bus principal that publishes the event (`publishesEvents` in `BUS_PERMISSIONS`); **consumed by** lists the durable consumers that read it, with their principal, and the principals that follow it live. Operators may read every event, with `npm run events -- tail` or, as admins, on the Operator screen of the web app (the `operatorEvents` subscription, which the gateway serves from one live tail of every event).',
    '',
    '## Envelope',
    '',
    ...fieldTable(
      fieldsOf(EventEnvelope).map((field) => ({ ...field, description: field.description ?? ENVELOPE_DESCRIPTIONS[field.name] ?? null })),
    ),
    '',
    '## Events',
    '',
    '| Event | Version | Emitted by | Consumed by |',
    '| --- | --- | --- | --- |',
    ...events.map(
      (event) =>
        `| [${code(event.subject)}](#${anchorOf(headingOf(event))}) | ${event.version} | ${listOrNone(event.emittedBy)} | ${listOrNone(event.consumedBy)} |`,
    ),
  ];
  for (const event of events) {
    lines.push(
      '',
      `### ${headingOf(event)}`,
      '',
      `Emitted by: ${event.emittedBy.length > 0 ? event.emittedBy.join(', ') : 'no principal (BUS_PERMISSIONS lets nobody publish it)'}. Consumed by: ${listOrNone(event.consumedBy)}.`,
    );
    if (event.note) lines.push('', event.note);
    lines.push('', ...fieldTable(event.fields));
  }
  return `${lines.join('\n')}\n`;
}

/** docs/events.md as it should be: the catalog formatted as prettier formats the rest of the repository. */
export async function renderEventCatalogFile(): Promise<string> {
  // prettier is a development tool: loaded only by this script and its test, never by the running product.
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(EVENT_CATALOG_PATH)) ?? {};
  return prettier.format(renderEventCatalog(), { ...options, parser: 'markdown' });
}

if (require.main === module) {
  void (async () => {
    const rendered = await renderEventCatalogFile();
    const current = fs.existsSync(EVENT_CATALOG_PATH) ? fs.readFileSync(EVENT_CATALOG_PATH, 'utf8') : null;
    const shown = path.relative(process.cwd(), EVENT_CATALOG_PATH);
    if (rendered === current) process.stdout.write(`${shown} is up to date\n`);
    else {
      fs.mkdirSync(path.dirname(EVENT_CATALOG_PATH), { recursive: true });
      fs.writeFileSync(EVENT_CATALOG_PATH, rendered);
      process.stdout.write(`Wrote ${shown}\n`);
    }
  })();
}
