import path from 'node:path';
import { landingGraph } from './landing-graph';

const SRC = path.resolve(__dirname, '..');

describe('the landing page’s own code (what a visitor on "/" loads before touching anything)', () => {
  const { files, packages } = landingGraph(path.join(SRC, 'features', 'landing', 'landing-start.tsx'));

  it('holds no UI kit, router, GraphQL client or member screen', () => {
    const heavy = [...packages].filter((name) => /^(@chakra-ui|@ark-ui|@zag-js|@emotion|react-router|@apollo|graphql)/.test(name));
    expect(heavy).toEqual([]);
    const memberCode = [...files]
      .map((file) => path.relative(SRC, file))
      .filter((file) => /^(app\.tsx|routes\/|auth\/|theme\/)/.test(file));
    expect(memberCode).toEqual([]);
  });

  it('is the landing page with its footer and styles', () => {
    const relative = new Set([...files].map((file) => path.relative(SRC, file)));
    for (const file of ['features/landing/page.tsx', 'components/public-footer.tsx', 'styles/kit.css']) expect(relative).toContain(file);
    expect([...packages].sort()).toEqual(expect.arrayContaining(['react', 'react-dom/client', 'react-i18next']));
  });
});
