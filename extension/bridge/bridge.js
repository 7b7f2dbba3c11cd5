// The bridge: a content script in the pages of a site the person answered.
// It relays the page's window.postMessage requests to the service worker
// over one long-lived port, and the answers back. It adds nothing of its
// own: the worker knows who asks from Chrome (the port's sender: origin, tab,
// frame), never from the message. Only messages the page's own window posts
// to itself count, so other frames and windows (iframes, window.open'ed
// pages, the opener) cannot speak through it.
//
// Chrome registers content scripts per host, not per origin (a match
// pattern has no port), so the bridge runs in pages of origins nobody
// answered too: it stays silent until the worker opens its port
// (`{axsnapBridge: 'open'}`), which it does only for an origin the person
// answered (policy.js bridgeServes). A refused bridge neither announces
// itself nor relays anything, so such a page can neither call nor ask.
//
// Page → bridge:  {axsnap: 'request', msg}   msg: a protocol request, with its own `id`
//                 {axsnap: 'probe'}           is a bridge there?
// Bridge → page:  {axsnap: 'answer', answer}  the protocol's answer (its `id` echoed)
//                 {axsnap: 'event', event}    on the port: `{ok:false, event:'closed', error}` when the person revoked
//                 {axsnap: 'bridge', protocol}  here I am (once the worker opened the port, and on probe)

(() => {
  // One bridge per document. Injected again (the person answered from this tab): it asks the worker again.
  if (typeof globalThis.__axsnapBridge === 'function') {
    globalThis.__axsnapBridge();
    return;
  }
  const PROTOCOL = 1;
  /** @type {chrome.runtime.Port|null} */
  let port = null;
  /** Whether the worker serves this page: false until it says so. */
  let serving = false;

  // The document's own origin: in a sandboxed frame it is opaque ("null", while location.origin still
  // names the URL's site) and postMessage takes no "null" target; the window is our own either way.
  const origin = self.origin;
  const post = (data) => window.postMessage(data, origin === 'null' ? '*' : origin);

  function connect() {
    if (port) return port;
    const p = chrome.runtime.connect({ name: 'axsnap-bridge' });
    port = p;
    let opened = false;
    p.onMessage.addListener((m) => {
      if (!opened && m && m.axsnapBridge === 'open') {
        opened = true;
        const announce = !serving;
        serving = true;
        if (announce) post({ axsnap: 'bridge', protocol: PROTOCOL });
        return;
      }
      post(m && m.event ? { axsnap: 'event', event: m } : { axsnap: 'answer', answer: m });
    });
    p.onDisconnect.addListener(() => {
      if (port === p) port = null;
      if (opened) post({ axsnap: 'event', event: { ok: false, event: 'disconnected' } });
      // Closed before it opened: the worker does not serve this page (now); silent from here on.
      else serving = false;
    });
    return p;
  }

  // On a fresh port (the last one was cut) the worker holds requests until it decides whether to serve.
  const send = (msg) => connect().postMessage(msg);

  window.addEventListener('message', (e) => {
    if (e.source !== window || e.origin !== origin) return;
    const d = e.data;
    if (!d || typeof d !== 'object') return;
    if (d.axsnap === 'probe' && serving) post({ axsnap: 'bridge', protocol: PROTOCOL });
    // Only a bridge the worker serves relays: a refused one does not even try the port again.
    if (d.axsnap !== 'request' || !serving) return;
    try {
      send(d.msg);
    } catch {
      // The extension was reloaded: one retry on a fresh port.
      port = null;
      try {
        send(d.msg);
      } catch { /* the page's request times out in its client */ }
    }
  });
  globalThis.__axsnapBridge = () => {
    if (!port) connect();
  };
  connect();
})();
