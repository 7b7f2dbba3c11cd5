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

// Parts of the AI SDK the panel cannot reach, each replaced by a module that
// says so if called: `ai` falls back to the AI Gateway (@ai-sdk/gateway, 77 KB)
// only for a model given as a string, and the panel always passes a provider's
// model object; @ai-sdk/anthropic builds its experimental decision and
// extraction models (50 KB) only when asked for them, which the agent never is.
const unreachable = (what) => `throw new Error(${JSON.stringify(`${what} is not part of axsnap's side panel`)})`;
const STUBS = {
  '@ai-sdk/gateway': `
    class GatewayError extends Error { static isInstance() { return false; } }
    export { GatewayError, GatewayError as GatewayAuthenticationError };
    export function createGateway() { ${unreachable('the AI Gateway')}; }
    export const gateway = new Proxy(createGateway, { get: createGateway });`,
  '@ai-sdk/provider-utils/experimental-decision': `
    export class Experimental_DecisionLanguageModel { constructor() { ${unreachable('a decision model')}; } }`,
  '@ai-sdk/provider-utils/experimental-extraction': `
    export class Experimental_ExtractionLanguageModel { constructor() { ${unreachable('an extraction model')}; } }`,
};
const unusedParts = {
  name: 'unused-ai-sdk-parts',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(STUBS).map((k) => k.replace(/[/@-]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'unused-ai-sdk-parts' }));
    b.onLoad({ filter: /.*/, namespace: 'unused-ai-sdk-parts' }, (args) => ({ contents: STUBS[args.path], resolveDir: ROOT }));
  },
};

// The Public Suffix List for protocol/site.js, which the worker loads as a plain module too
// (and the panel's bundle imports: made first).
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
  plugins: [englishOnly, unusedParts],
});
const bytes = Object.values(r.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`panel: ${statSync(join(PANEL_DIST, 'panel.js')).size} bytes (${bytes} with map and licenses)`);
