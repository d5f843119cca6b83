import { z } from 'zod';
import { RelayWindow, foundId, pageSize, parseInput, queryNumber } from './input';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
};

describe('the id rule', () => {
  it('answers an id that cannot exist as NOT_FOUND, with the message an unknown id gets', () => {
    // A version-0 UUID has the shape but is no RFC 9562 id: the services' contracts refuse it, so it cannot exist.
    for (const id of ['not-a-uuid', '', '6f1c8a52-3c1e-0b8e-9a57-2f4de1c0a001', "1' OR '1'='1"]) {
      expect(refusal(() => foundId(id, 'Image not found'))).toMatchObject({ code: 'NOT_FOUND', message: 'Image not found' });
    }
    expect(foundId('6f1c8a52-3c1e-4b8e-9a57-2f4de1c0a001', 'Image not found')).toBe('6f1c8a52-3c1e-4b8e-9a57-2f4de1c0a001');
  });
});

describe('the page rule', () => {
  const Page = z.object({ limit: pageSize('limit').optional() });

  it('refuses 0, 101, fractions and non-numbers as VALIDATION_FAILED naming the field the client used', () => {
    for (const limit of [0, 101, 2.5, queryNumber('ten'), queryNumber('')]) {
      expect(refusal(() => parseInput(Page, { limit }))).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'limit must be between 1 and 100',
        details: { fieldErrors: { limit: 'limit must be between 1 and 100' } },
      });
    }
    expect(parseInput(Page, { limit: queryNumber('100') })).toEqual({ limit: 100 });
  });

  it('names first or last in a Relay window', () => {
    expect(refusal(() => parseInput(RelayWindow, { last: 0 }))).toMatchObject({ message: 'last must be between 1 and 100' });
    expect(refusal(() => parseInput(RelayWindow, { first: 500 }))).toMatchObject({ message: 'first must be between 1 and 100' });
  });
});

describe('parseInput', () => {
  it('refuses text the database cannot store, naming the field as the bus does', () => {
    const Form = z.object({ name: z.string(), traits: z.array(z.string()) });
    expect(refusal(() => parseInput(Form, { name: 'Nova', traits: ['Calm', 'x\u0000'] }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'traits.1 contains a null character (U+0000), which is not allowed.',
      details: { fieldErrors: { 'traits.1': 'traits.1 contains a null character (U+0000), which is not allowed.' } },
    });
  });
});
