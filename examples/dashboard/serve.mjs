// Serves the dashboard and the built client on 127.0.0.1 (npm run example).
// On 127.0.0.1 the page reaches axsnap through externally_connectable; served
// under any other name it uses the bridge the person enables from the panel.
//
//   npm run example [-- --port 8080]
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../tests/server.mjs';
import { buildClient, CLIENT_DIST } from '../../scripts/client.mjs';
import { setup } from '../../scripts/setup.mjs';

export const DASHBOARD = dirname(fileURLToPath(import.meta.url));

/** The dashboard at `/`, the client package's build at `/client/`. */
export function serveDashboard(port = 0) {
  if (!existsSync(join(CLIENT_DIST, 'index.js'))) buildClient({ quiet: true });
  return serve({ '/client/': CLIENT_DIST, '/': DASHBOARD }, port);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  setup();
  const i = process.argv.indexOf('--port');
  const server = await serveDashboard(i > 0 ? Number(process.argv[i + 1]) : 8080);
  console.log(`axsnap dashboard: ${server.url('/')} (Ctrl-C stops it)`);
}
