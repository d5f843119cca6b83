import fs from 'node:fs';
import path from 'node:path';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';

const root = path.join(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The paths the changelog's Unreleased → Breaking section names in backticks. */
function recordedBreakingPaths(changelog: string): Set<string> {
  const unreleased = changelog.split(/^## /m).find((section) => section.startsWith('Unreleased')) ?? '';
  const breaking = unreleased.split(/^### /m).find((section) => section.startsWith('Breaking')) ?? '';
  return new Set([...breaking.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

/** Third-party clients rely on the released schema: a change that can break them must be recorded, never slip in. */
describe('GraphQL schema compatibility', () => {
  it('records every breaking change against the last released schema in schema/CHANGELOG.md', async () => {
    const changes = await diff(buildSchema(read('released/schema.graphql')), buildSchema(read('schema.graphql')));
    const recorded = recordedBreakingPaths(read('CHANGELOG.md'));
    const unrecorded = changes
      .filter((change) => change.criticality.level === CriticalityLevel.Breaking)
      .filter((change) => !change.path || !recorded.has(change.path))
      .map((change) => `${change.path ?? '(schema)'}: ${change.message}`);
    expect(unrecorded).toEqual([]);
  });

  it('finds a removed field, so the check above can fail', async () => {
    const released = buildSchema('type Query { images: [String!]! deleteImage: Boolean }');
    const changes = await diff(released, buildSchema('type Query { images: [String!]! }'));
    expect(changes.filter((change) => change.criticality.level === CriticalityLevel.Breaking).map((change) => change.path)).toEqual([
      'Query.deleteImage',
    ]);
    expect(recordedBreakingPaths('## Unreleased\n### Breaking\n- `Query.deleteImage` now returns its id\n## 0.1.0\n')).toEqual(
      new Set(['Query.deleteImage']),
    );
  });
});
