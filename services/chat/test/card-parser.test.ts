import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { AppError } from '@app/schema';
import { CardParser, type CardParserOptions, assertCardFileSize } from '../src/cards/card-parser';
import { parseCharacterCard } from '../src/cards/character-card';
import { stripPngMetadata } from '../src/cards/png-chunks';
import { FIXTURE_DIR } from './fixtures/cards/make-fixtures';
import { largeCardJson } from './fixtures/cards/large-card';
import { track } from '../../kit/test/test-infra';

jest.setTimeout(60_000);

const base64 = (bytes: Buffer) => bytes.toString('base64');
const LARGE_CARD = base64(largeCardJson(7.5 * 1024 * 1024));

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => null,
    (rejected: unknown) => rejected,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('card parser (worker threads)', () => {
  const parsers: CardParser[] = [];
  const parser = (options: Partial<CardParserOptions> = {}) => {
    const created = new CardParser({ threads: 1, queue: 1, timeoutMs: 30_000, ...options });
    parsers.push(created);
    return created;
  };
  afterAll(() => Promise.all(parsers.map((created) => created.close())));

  it('reads a PNG card in a worker thread as the parser does in place, with the avatar stripped of metadata', async () => {
    const file = readFileSync(join(FIXTURE_DIR, 'v2-chara.png'));
    const read = await parser().read(base64(file));
    const inPlace = parseCharacterCard(file);
    expect(read.data).toEqual(inPlace.data);
    expect(read.avatarPng).toEqual(stripPngMetadata(inPlace.image!));
  });

  it('answers with the card error or the content rule a card breaks', async () => {
    const reader = parser();
    const broken = await failure(reader.read(base64(Buffer.from('not a card'))));
    expect(broken).toMatchObject({ code: 'VALIDATION_FAILED', message: 'This file is not a valid character card.' });
    const card = { spec: 'chara_card_v2', data: { name: 'Mia', description: 'A shy schoolgirl', scenario: 'She undresses slowly.' } };
    const crossing = await failure(reader.read(base64(Buffer.from(JSON.stringify(card)))));
    expect(crossing.code).toBe('CONTENT_REJECTED');
  });

  it('refuses a card holding text the database cannot store, naming the field', async () => {
    const reader = parser();
    const withNull = '{"spec":"chara_card_v2","data":{"name":"No\\u0000va","description":"d"}}';
    expect(await failure(reader.read(base64(Buffer.from(withNull))))).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: "The card's name contains a null character (U+0000), which is not allowed.",
    });
    const withSurrogate = '{"spec":"chara_card_v2","data":{"name":"Nova","description":"d","tags":["ok","\\ud800"]}}';
    expect(await failure(reader.read(base64(Buffer.from(withSurrogate))))).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: "The card's tags.1 contains an unpaired surrogate (U+D800), which is not valid Unicode.",
    });
  });

  it('keeps the event loop serving while a large card is read', async () => {
    const server = http.createServer((_req, res) => res.end('served'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const reading = parser().read(LARGE_CARD);
      const progress = track(reading);
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(await response.text()).toBe('served');
      // Another request was answered from start to end while the card was still being read.
      expect(progress.settled).toBe(false);
      expect((await reading).data.alternate_greetings.length).toBeGreaterThan(100);
    } finally {
      server.close();
    }
  });

  it('refuses work beyond its threads and queue at once, with a time to retry', async () => {
    const reader = parser({ threads: 1, queue: 1 });
    const first = reader.read(LARGE_CARD);
    const second = reader.read(LARGE_CARD);
    const shed = await failure(reader.read(LARGE_CARD));
    expect(shed.code).toBe('UNAVAILABLE');
    expect(shed.details?.retryAfterSeconds).toBeGreaterThan(0);
    await Promise.all([first, second]);
    expect((await reader.read(base64(readFileSync(join(FIXTURE_DIR, 'v2-sillytavern.json'))))).data.name).toBeTruthy();
  });

  it('abandons a card that takes longer than its time limit, and keeps reading others', async () => {
    const reader = parser({ timeoutMs: 50 });
    const slow = await failure(reader.read(LARGE_CARD));
    expect(slow).toMatchObject({ code: 'TIMEOUT', message: 'Reading this card took too long. Please try again, or with a smaller file.' });
    expect(reader.pending).toBe(0);
    const small = base64(readFileSync(join(FIXTURE_DIR, 'v1-tavernai.json')));
    await expect(parser().read(small)).resolves.toMatchObject({ data: { name: expect.any(String) } });
  });

  it('gives up on a card whose caller has stopped waiting', async () => {
    const gone = await failure(parser().read(LARGE_CARD, Date.now() - 1));
    expect(gone.code).toBe('TIMEOUT');
  });

  it('refuses empty and oversized files by their size alone', () => {
    expect(() => assertCardFileSize('')).toThrow('This file is empty.');
    expect(() => assertCardFileSize('A'.repeat(Math.ceil((8 * 1024 * 1024 + 1) / 3) * 4))).toThrow(
      'This file is too large (the limit is 8 MB).',
    );
    expect(() => assertCardFileSize(base64(Buffer.alloc(8 * 1024 * 1024)))).not.toThrow();
  });
});
