// The site of a URL, as Chrome decides "same site": its registrable domain
// by the Public Suffix List, private suffixes included, so that
// `victim.github.io` and `attacker.github.io`, or two shops under `co.uk`,
// are different sites. Every judge of "does this leave the site" (the
// co-pilot's consent, the worker's checks of navigations and form
// submissions, desktop agents' reach) asks this one function.
//
// The list comes from the maintained `tldts` package, bundled at build time
// into ./vendor/tldts.js (scripts/build-panel.mjs): the service worker loads
// no bare module names and no remote code.

import { parse } from './vendor/tldts.js';

/**
 * `https://a.victim.github.io/x` → `victim.github.io`. An IP address, a
 * single-label host (`localhost`) or a host that is itself a public suffix is
 * its own site; a URL without a host (data:, file:, about:) or no URL is ''.
 * @param {string|URL|undefined|null} url
 */
export function siteOf(url) {
  let host;
  try {
    host = new URL(String(url)).hostname.toLowerCase();
  } catch {
    return '';
  }
  if (!host) return '';
  const p = parse(host, { allowPrivateDomains: true, extractHostname: false });
  return p.isIp || !p.domain ? host.replace(/^\[|\]$/g, '') : p.domain;
}

/** Whether two URLs are on the same site (both must have one). */
export const sameSite = (a, b) => {
  const s = siteOf(a);
  return s !== '' && s === siteOf(b);
};
