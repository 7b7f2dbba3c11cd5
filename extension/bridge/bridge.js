// The bridge: a content script in the pages of a site the person allowed.
// It relays the page's window.postMessage requests to the service worker
// over one long-lived port, and the answers back. It adds nothing of its
// own: the worker knows who asks from Chrome (the port's sender: origin, tab,
// frame), never from the message. Only messages the page's own window posts
// to itself count, so other frames and windows (iframes, window.open'ed
// pages, the opener) cannot speak through it.
//
// Page → bridge:  {axsnap: 'request', msg}   msg: a protocol request, with its own `id`
//                 {axsnap: 'probe'}           is a bridge there?
// Bridge → page:  {axsnap: 'answer', answer}  the protocol's answer (its `id` echoed)
//                 {axsnap: 'event', event}    on the port: `{ok:false, event:'closed', error}` when the person revoked
//                 {axsnap: 'bridge', protocol}  here I am (after injection, and on probe)

(() => {
  // One bridge per document, also when the tab that asked gets it injected and registered.
  if (globalThis.__axsnapBridge) return;
  globalThis.__axsnapBridge = true;
  const PROTOCOL = 1;
  /** @type {chrome.runtime.Port|null} */
  let port = null;

  // The document's own origin: in a sandboxed frame it is opaque ("null", while location.origin still
  // names the URL's site) and postMessage takes no "null" target; the window is our own either way.
  const origin = self.origin;
  const post = (data) => window.postMessage(data, origin === 'null' ? '*' : origin);

  function connect() {
    if (port) return port;
    port = chrome.runtime.connect({ name: 'axsnap-bridge' });
    port.onMessage.addListener((m) => post(m && m.event ? { axsnap: 'event', event: m } : { axsnap: 'answer', answer: m }));
    port.onDisconnect.addListener(() => {
      port = null;
      post({ axsnap: 'event', event: { ok: false, event: 'disconnected' } });
    });
    return port;
  }

  window.addEventListener('message', (e) => {
    if (e.source !== window || e.origin !== origin) return;
    const d = e.data;
    if (!d || typeof d !== 'object') return;
    if (d.axsnap === 'probe') post({ axsnap: 'bridge', protocol: PROTOCOL });
    if (d.axsnap !== 'request') return;
    try {
      connect().postMessage(d.msg);
    } catch {
      // The extension was reloaded or the worker refused the port: one retry on a fresh port.
      port = null;
      try {
        connect().postMessage(d.msg);
      } catch { /* the page's request times out in its client */ }
    }
  });
  post({ axsnap: 'bridge', protocol: PROTOCOL });
})();
