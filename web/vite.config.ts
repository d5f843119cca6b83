import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { env } from 'node:process';
import { fileURLToPath } from 'node:url';
import { createServer, defineConfig, type Plugin, type Rolldown, type UserConfig } from 'vite';
import { pickFirstPaint } from './src/i18n/first-paint-catalog';
import { APP_CONFIG_DEFAULTS } from './src/lib/app-config';
import { languageGateScript } from './src/prerender/language-gate';
import { landingGraph } from './src/prerender/landing-graph';
import type { renderLanding } from './src/prerender/render-landing';
import { STATIC_LANDING_ID, STATIC_LANDING_OFF_CLASS } from './src/prerender/static-landing';
import { landingTokensCss } from './src/theme/landing-tokens';

type LandingRenderer = { renderLanding: typeof renderLanding };

// The gateway (npm start) listens on 3000; the dev server forwards API and
// GraphQL (HTTP and graphql-ws) to it so cookies stay same-origin.
const GATEWAY_URL = env['GATEWAY_URL'] ?? 'http://127.0.0.1:3000';

/** What the tiny entry (src/main.tsx) imports: it must stay out of the app's chunks. */
const ENTRY_MODULES = /[\\/]src[\\/](main\.tsx|lib[\\/]session-api\.ts|routes[\\/]screen-loaders\.ts|prerender[\\/]static-landing\.ts)$/;

/** The landing's own start and every source file it imports statically (decision 046): one chunk, with no UI kit or router. */
const LANDING_START = '/src/features/landing/landing-start.tsx';
const LANDING_FILES = landingGraph(fileURLToPath(new URL(`.${LANDING_START}`, import.meta.url))).files;
const isLandingModule = (id: string) => LANDING_FILES.has(id.split('?')[0]!);
/** The landing page itself; the rest of its files (i18n, the footer, the kit...) are shared with the app. */
const isLandingPageModule = (id: string) => isLandingModule(id) && /[\\/]src[\\/]features[\\/]landing[\\/]/.test(id);

/** The app proper, which the tiny entry (src/main.tsx) imports once it has started the first requests. */
const APP_ENTRY = 'app';

/** The GraphQL explorer (GraphiQL): a page of its own, built by `vite build --mode explorer`, which the gateway serves at EXPLORER_PATH. */
const EXPLORER_MODE = 'explorer';
const EXPLORER_HTML = 'explorer.html';
const EXPLORER_PATH = '/developers/explorer';

/**
 * index.html loads only the tiny entry; this adds `<link rel="modulepreload">` for the app entry and for the landing's
 * start, each with every chunk it imports statically, so they download from the start, in parallel with the entry.
 * They are marked `data-preload="app"` or `"landing"`: the gateway keeps on each page only those it needs
 * (gateway/src/http/web-app.ts).
 */
function preloadAppEntry(): Plugin {
  return {
    name: 'preload-app-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk: htmlEntry }) {
        if (!bundle) return;
        const app = Object.values(bundle).find((output) => output.type === 'chunk' && output.isEntry && output.name === APP_ENTRY);
        if (!app || app.type !== 'chunk') throw new Error(`preload-app-entry: no "${APP_ENTRY}" entry chunk in the bundle`);
        const landing = Object.values(bundle).find(
          (output) => output.type === 'chunk' && output.moduleIds.some((id) => id.endsWith(LANDING_START)),
        );
        if (!landing || landing.type !== 'chunk') throw new Error('preload-app-entry: no chunk holds the landing start');
        // Vite already preloads the HTML entry's own imports.
        const alreadyLoaded = new Set([htmlEntry?.fileName, ...(htmlEntry?.imports ?? [])]);
        const preloads = (start: string, kind: 'app' | 'landing') => {
          const files: string[] = [];
          const visit = (fileName: string) => {
            if (alreadyLoaded.has(fileName) || files.includes(fileName)) return;
            files.push(fileName);
            const output = bundle[fileName];
            if (output?.type === 'chunk') output.imports.forEach(visit);
          };
          visit(start);
          return files.map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}`, 'data-preload': kind },
            injectTo: 'head' as const,
          }));
        };
        return [...preloads(landing.fileName, 'landing'), ...preloads(app.fileName, 'app')];
      },
    },
  };
}

const SRC_DIR = fileURLToPath(new URL('./src', import.meta.url));
const KIT_CSS = /[\\/]src[\\/]styles[\\/]kit\.css$/;

/** The files that may name a colour: CSS, and TSX passing one as a prop. */
function colourSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return colourSources(full);
    return /\.(css|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/**
 * The plain-CSS pages (the landing, the footer) use `var(--lp-colors-…)` (in CSS, or a TSX prop); this puts, at the top of src/styles/kit.css,
 * the value of each one used anywhere in src, read from the app's Chakra theme (src/theme/landing-tokens.ts), so both
 * kinds of page show the same colours and a colour that does not exist fails the build.
 */
function landingTokens(): Plugin {
  return {
    name: 'landing-tokens',
    enforce: 'pre',
    transform(code, id) {
      if (!KIT_CSS.test(id.split('?')[0]!)) return null;
      const files = colourSources(SRC_DIR);
      // Under `vite dev`, a colour newly named in any of them reaches the kit.
      files.forEach((file) => this.addWatchFile(file));
      return { code: `${landingTokensCss(files.map((file) => readFileSync(file, 'utf8')))}\n${code}`, map: null };
    },
  };
}

const FIRST_PAINT_CATALOG = /[\\/]src[\\/]i18n[\\/]first-paint-catalog\.ts$/;
const ENGLISH_CATALOG = fileURLToPath(new URL('./src/i18n/locales/en.json', import.meta.url));

/**
 * src/i18n/first-paint-catalog.ts, which re-exports the whole English catalog for unit tests, becomes
 * only its FIRST_PAINT_KEYS here: the landing page then carries a few KB of English instead of every
 * screen's (the whole catalog is a chunk of its own, see loadFullEnglish in src/i18n/i18n.ts).
 */
function firstPaintCatalog(): Plugin {
  return {
    name: 'first-paint-catalog',
    enforce: 'pre',
    load(id) {
      if (!FIRST_PAINT_CATALOG.test(id)) return null;
      this.addWatchFile(ENGLISH_CATALOG);
      const english = JSON.parse(readFileSync(ENGLISH_CATALOG, 'utf8')) as Record<string, unknown>;
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(pickFirstPaint(english)))});\n`;
    },
  };
}

/** The landing is pre-rendered with the documented defaults; the gateway serves it only when its settings show the same page. */
const STATIC_LANDING_CONFIG = { ...APP_CONFIG_DEFAULTS, apiDocs: true };

/** The app's root stays hidden while the pre-rendered landing shows, and shows instead of it when the gate hid it. */
const STATIC_LANDING_STYLE = `#${STATIC_LANDING_ID}~#root{display:none}.${STATIC_LANDING_OFF_CLASS} #${STATIC_LANDING_ID}{display:none}.${STATIC_LANDING_OFF_CLASS} #${STATIC_LANDING_ID}~#root{display:block}`;

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The built CSS of the landing's chunks (the kit with its colours, the sections, the footer), for the pre-rendered copy. */
function landingCss(bundle: Rolldown.OutputBundle): string {
  const files = new Set<string>();
  for (const output of Object.values(bundle)) {
    if (output.type !== 'chunk' || !output.moduleIds.some(isLandingModule)) continue;
    output.viteMetadata?.importedCss.forEach((file) => files.add(file));
  }
  if (files.size === 0) throw new Error('prerender-landing: the landing chunks import no CSS');
  return [...files]
    .map((file) => {
      const asset = bundle[file];
      if (asset?.type !== 'asset') throw new Error(`prerender-landing: ${file} is not in the bundle`);
      return String(asset.source);
    })
    .join('');
}

/**
 * Writes the landing page's markup and styles (src/prerender/render-landing.tsx, rendered with react-dom/server)
 * into index.html, between `<!--static-landing-->` comments: the first paint then needs no JavaScript. The
 * gateway serves it on "/" to visitors and cuts it out everywhere else (gateway/src/http/web-app.ts).
 */
function prerenderLanding(): Plugin {
  const gateScript = languageGateScript();
  const gateFile = `assets/language-gate-${createHash('sha256').update(gateScript).digest('hex').slice(0, 8)}.js`;
  return {
    name: 'prerender-landing',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: gateFile, source: gateScript });
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, { bundle }) {
        if (!bundle) throw new Error('prerender-landing: no bundle to take the landing styles from');
        const server = await createServer({
          configFile: false,
          root: fileURLToPath(new URL('.', import.meta.url)),
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, watch: null },
          // No dependency scan: it would read every HTML entry (the explorer's included).
          optimizeDeps: { noDiscovery: true, entries: [] },
          plugins: [firstPaintCatalog(), react()],
        });
        try {
          const { renderLanding } = (await server.ssrLoadModule('/src/prerender/render-landing.tsx')) as LandingRenderer;
          const markup = renderLanding(STATIC_LANDING_CONFIG);
          const renderedWith = escapeAttribute(JSON.stringify(STATIC_LANDING_CONFIG));
          const styles = `<style>${landingCss(bundle)}</style>`;
          const landing = `<!--static-landing--><div id="${STATIC_LANDING_ID}" data-rendered-with="${renderedWith}">${styles}${markup}</div><!--/static-landing-->`;
          const head = `<script src="/${gateFile}"></script><style>${STATIC_LANDING_STYLE}</style>`;
          return html.replace('<head>', `<head>${head}`).replace('<div id="root">', `${landing}<div id="root">`);
        } finally {
          await server.close();
        }
      },
    },
  };
}

/** `vite` and `vite preview` answer the explorer's address with its page, as the gateway does. */
function serveExplorerPage(): Plugin {
  const rewrite = (req: { url?: string }, _res: unknown, next: () => void) => {
    if (req.url === EXPLORER_PATH || req.url?.startsWith(`${EXPLORER_PATH}?`)) req.url = `/${EXPLORER_HTML}`;
    next();
  };
  return {
    name: 'serve-explorer-page',
    configureServer: (server) => void server.middlewares.use(rewrite),
    configurePreviewServer: (server) => void server.middlewares.use(rewrite),
  };
}

/**
 * The explorer is bundled by a build of its own (after the app's, into the same dist/), so none of GraphiQL's
 * modules (Monaco, Radix, more of graphql-js) can land in the app's shared chunks, which the landing page loads.
 */
const explorerConfig: UserConfig = {
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    // Written for error reports, never referenced from the files nor served (the gateway refuses *.map).
    sourcemap: 'hidden',
    // Monaco alone is 2.8 MB (690 KB gzip); only this page loads it.
    chunkSizeWarningLimit: 3000,
    rolldownOptions: {
      input: { explorer: fileURLToPath(new URL(`./${EXPLORER_HTML}`, import.meta.url)) },
      onLog(level, log, defaultHandler) {
        // GraphiQL ships React Compiler hints ("use no memo"), which mean nothing to a bundler.
        if (log.code === 'MODULE_LEVEL_DIRECTIVE' && log.id?.includes('node_modules')) return;
        defaultHandler(level, log);
      },
    },
  },
};

const appConfig: UserConfig = {
  plugins: [landingTokens(), firstPaintCatalog(), react(), preloadAppEntry(), prerenderLanding(), serveExplorerPage()],
  server: {
    proxy: {
      '/graphql': { target: GATEWAY_URL, ws: true },
      '/api': { target: GATEWAY_URL },
    },
  },
  preview: {
    proxy: {
      '/graphql': { target: GATEWAY_URL, ws: true },
      '/api': { target: GATEWAY_URL },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Written for error reports, never referenced from the files nor served (the gateway refuses *.map).
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // The app is an entry of its own (not only a dynamic import of main.tsx) so that its static
      // imports are "initial" modules for the chunk groups below.
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        [APP_ENTRY]: fileURLToPath(new URL('./src/app-start.tsx', import.meta.url)),
      },
      output: {
        // Long-lived vendor chunks, so an app release does not invalidate them. The UI kit is split:
        // what the first screen needs (the styling system and its layout components) is one chunk, and
        // each other component (menus, toasts, dialogs, drawers, switches...) comes with what uses it,
        // the language menu and the toast region included. GraphQL (Apollo) is only ever loaded by the
        // signed-in screens.
        codeSplitting: {
          // Groups are filled in order, each with the dependencies of what it captures.
          groups: [
            {
              // The tiny entry's own imports, first, so no other chunk (which it would then wait for) takes them.
              name: 'boot',
              test: (id) => ENTRY_MODULES.test(id) || id.includes('vite/preload-helper'),
            },
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
            },
            {
              // Apart from React: the landing page has no router (decision 046).
              name: 'router',
              test: /node_modules[\\/]react-router[\\/]/,
            },
            {
              name: 'i18n',
              test: /node_modules[\\/](i18next|react-i18next)[\\/]/,
            },
            {
              // What the landing shares with the app (src/prerender/landing-graph.ts), before the app shell could take it.
              name: 'public',
              test: (id) => isLandingModule(id) && !isLandingPageModule(id),
            },
            {
              // The landing page's own modules, which the app loads only on "/".
              name: 'landing',
              test: isLandingPageModule,
            },
            {
              name: 'apollo',
              test: /node_modules[\\/](@apollo|graphql|graphql-ws|rxjs|@wry|optimism|tslib|ts-invariant)[\\/]/,
            },
            {
              name: 'ui',
              test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@emotion|@pandacss|@floating-ui|@internationalized|stylis|react-is|hoist-non-react-statics|@swc[\\/]helpers)[\\/]/,
              tags: ['$initial'],
            },
            {
              // The app's own start-up modules in one chunk, except what the tiny entry imports.
              name: 'app-shell',
              test: (id) => /[\\/]web[\\/]src[\\/]/.test(id) && !ENTRY_MODULES.test(id),
              tags: ['$initial'],
            },
          ],
        },
      },
    },
  },
};

export default defineConfig(({ mode }) => (mode === EXPLORER_MODE ? explorerConfig : appConfig));
