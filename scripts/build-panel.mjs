// Bundles the side panel (the agent loop and the AI SDK) into
// extension/panel/dist with esbuild: an MV3 extension may load no remote
// code. Run by scripts/build.mjs in its own process, because esbuild's
// plugins need its asynchronous API and the build is synchronous.
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { ROOT } from './lib.mjs';
import { PANEL_DIST } from './build.mjs';

const esbuild = createRequire(import.meta.url)('esbuild');

// zod re-exports every language's messages as one namespace (`z.locales`),
// which the AI SDK's `import * as z` keeps whole: about 260 KB the panel never
// uses. Its schemas register English themselves (locales/en.js), so the
// namespace is cut down to English.
const englishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]/.test(args.importer)
      ? { path: join(args.resolveDir, args.path), namespace: 'zod-locales' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: ROOT,
    }));
  },
};

// The Public Suffix List for protocol/site.js, which the worker loads as a plain module too; first, as the panel imports it.
await esbuild.build({
  entryPoints: [join(ROOT, 'node_modules/tldts/dist/es6/index.js')],
  outfile: join(ROOT, 'protocol/vendor/tldts.js'),
  bundle: true, format: 'esm', target: 'chrome116', platform: 'neutral', minify: true, legalComments: 'inline', logLevel: 'warning',
});
const r = await esbuild.build({
  entryPoints: [join(ROOT, 'extension/panel/panel.js')],
  outfile: join(PANEL_DIST, 'panel.js'),
  bundle: true, format: 'esm', target: 'chrome116', platform: 'browser',
  minify: true, sourcemap: 'external', legalComments: 'external', logLevel: 'warning', metafile: true,
  plugins: [englishOnly],
});
const bytes = Object.values(r.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`panel: ${statSync(join(PANEL_DIST, 'panel.js')).size} bytes (${bytes} with map and licenses)`);
