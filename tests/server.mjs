// A static file server for fixture and corpus pages on 127.0.0.1. The same
// port answers as http://localhost too, which Chrome treats as another site:
// that is how tests get a cross-site (out-of-process) iframe.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml' };

/**
 * @param {Record<string, string>} roots  URL prefix → directory, e.g. {'/': fixtures, '/corpus/': pages}
 * @param {number} [listen]  the port (0: any free one)
 * @returns {Promise<{port:number, url:(p:string, host?:string)=>string, close:()=>Promise<void>}>}
 */
export async function serve(roots, listen = 0) {
  const prefixes = Object.keys(roots).sort((a, b) => b.length - a.length);
  let port = 0;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const path = decodeURIComponent(url.pathname);
    if (path === '/slow') {
      // A page whose load event comes only after `ms` milliseconds.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write('<!doctype html><title>Slow</title><p>Still loading');
      const timer = setTimeout(() => res.end('</p>'), Number(url.searchParams.get('ms')) || 5000);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    const prefix = prefixes.find((p) => path.startsWith(p));
    const rel = normalize(path.slice(prefix.length) || 'index.html');
    if (rel.startsWith('..') || rel.includes(`${sep}..`)) { res.writeHead(403).end(); return; }
    try {
      let body = await readFile(join(roots[prefix], rel));
      const type = TYPES[extname(rel)] || 'application/octet-stream';
      if (type.startsWith('text/html') && prefix === '/') body = Buffer.from(body.toString().replaceAll('{{PORT}}', String(port)));
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(listen, '127.0.0.1', resolve));
  port = /** @type {any} */ (server.address()).port;
  return {
    port,
    url: (p, host = '127.0.0.1') => `http://${host}:${port}${p}`,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}
