// Builds packages/client: its ESM bundle with esbuild, its declarations with
// tsc (the protocol's generated types beside them, so the package stands
// alone), then type-checks the package's type tests against what was built.
//
//   npm run client
import { join } from 'node:path';
import { step } from './lib.mjs';
import { setup } from './setup.mjs';
import { build, tsc, CLIENT, CLIENT_DIST } from '../packages/client/build.mjs';

export { CLIENT, CLIENT_DIST };

export function buildClient({ quiet = false } = {}) {
  build({ quiet });
  tsc(join(CLIENT, 'test/tsconfig.json'), { quiet });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  setup({ browser: false });
  step('building the client package (packages/client)');
  buildClient();
}
