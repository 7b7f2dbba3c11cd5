//! The bridge: a WebSocket server on 127.0.0.1 that the extension's service
//! worker connects to. The extension stays the only thing that touches the
//! browser; this side sends it protocol requests and waits for the answers.
//!
//! Messages, one JSON object per frame:
//! - server → extension, first and in the clear (a text frame): `{type:"hello", nonce, proof}`, the
//!   server's nonce and its proof bound to both nonces (`pairing.rs`);
//! - then, both ways, only sealed frames (binary, `channel.rs`); any other frame, or one that does not
//!   open, closes the connection with code 4004:
//! - server → extension: `{type:"welcome", server, version, agent:{id, name}}`, then `{id, request}`
//!   (a protocol request) and `{type:"agent", name}` when the agent says its name;
//! - extension → server: `{type:"ready"}` once it has checked the proof, `{id, response}`
//!   (the protocol's `{ok, …}` answer), and `{type:"ping"}` every 20 s (answered with
//!   `{type:"pong"}`), which keeps the MV3 service worker alive while connected.

use crate::channel::{self, Direction};
use crate::config::{DEFAULT_PORT, PORT_RANGE};
use crate::pairing::{self, NonceLog, Refusal, PROTOCOL};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot, watch};
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::{HeaderValue, StatusCode};
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

/// The close code of a refused pairing proof (an application code: 4000-4999).
pub const REFUSED: u16 = 4001;
/// The close code for a second browser while one is connected: one agent drives one browser.
pub const BUSY: u16 = 4003;
/// The close code for a frame that is not sealed for this connection: altered, replayed, reordered or forged.
pub const TAMPERED: u16 = 4004;
const TAMPERED_REASON: &str = "a frame failed authentication (altered, replayed or injected between the extension and the server)";
/// A connection silent this long is gone even if no close arrived (the extension pings every 20 s).
const SILENT: Duration = Duration::from_secs(45);
/// How long the extension has to finish the handshake and say it is ready.
const HANDSHAKE_DEADLINE: Duration = Duration::from_secs(10);

/// A failed call, with one of axsnap's stable error codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallError {
    pub code: String,
    pub message: String,
}

impl CallError {
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        CallError { code: code.to_string(), message: message.into() }
    }
}

type Reply = Result<Value, CallError>;

struct Connection {
    id: u64,
    out: mpsc::UnboundedSender<Message>,
    pending: HashMap<u64, oneshot::Sender<Reply>>,
    /// When the extension last said anything (it pings every 20 s).
    last_seen: Instant,
}

#[derive(Default)]
struct State {
    connection: Option<Connection>,
    next_id: u64,
    agent_name: Option<String>,
    /// Why the last connection ended, as the extension said it (`"turned off in the side panel"`).
    last_close: Option<String>,
}

pub struct Bridge {
    token: String,
    /// How long a call waits for the extension to (re)connect before failing.
    connect_timeout: Duration,
    /// This server's identity for the extension: the agent that owns the tabs it opens.
    agent_id: String,
    state: Mutex<State>,
    connected: watch::Sender<bool>,
    nonces: Mutex<NonceLog>,
}

/// Binds the port: the one asked for, or the first free one of the default range.
pub async fn bind(port: Option<u16>) -> Result<(TcpListener, u16), String> {
    if let Some(p) = port {
        return match TcpListener::bind(("127.0.0.1", p)).await {
            Ok(l) => Ok((l, p)),
            Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => Err(format!(
                "port {p} on 127.0.0.1 is in use (another axsnap-mcp?): choose another with --port or AXSNAP_MCP_PORT, \
                 or leave both unset to take the first free port from {DEFAULT_PORT}"
            )),
            Err(e) => Err(format!("cannot listen on 127.0.0.1:{p}: {e}")),
        };
    }
    for p in DEFAULT_PORT..DEFAULT_PORT + PORT_RANGE {
        if let Ok(l) = TcpListener::bind(("127.0.0.1", p)).await {
            return Ok((l, p));
        }
    }
    Err(format!(
        "ports {DEFAULT_PORT}-{} on 127.0.0.1 are all in use: stop an agent you no longer need, or pass --port",
        DEFAULT_PORT + PORT_RANGE - 1
    ))
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

impl Bridge {
    pub fn new(token: String, connect_timeout: Duration) -> Arc<Self> {
        Arc::new(Bridge {
            token,
            connect_timeout,
            agent_id: pairing::random_hex(8),
            state: Mutex::new(State::default()),
            connected: watch::Sender::new(false),
            nonces: Mutex::new(NonceLog::default()),
        })
    }

    /// Accepts connections until the process ends.
    pub async fn serve(self: Arc<Self>, listener: TcpListener) {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let bridge = self.clone();
            tokio::spawn(async move { bridge.connection(stream).await });
        }
    }

    /// The agent's name (from MCP `initialize`), shown in the side panel.
    pub fn set_agent_name(&self, name: &str) {
        let mut st = self.state.lock().unwrap();
        st.agent_name = Some(name.to_string());
        if let Some(c) = &st.connection {
            let _ = c.out.send(text(&json!({"type": "agent", "name": name})));
        }
    }

    /// Sends one protocol request and waits for its answer: the answer's
    /// fields without `ok`, or its error.
    pub async fn call(&self, request: Value, deadline: Duration) -> Reply {
        let mut connected = self.connected.subscribe();
        if tokio::time::timeout(self.connect_timeout, connected.wait_for(|c| *c)).await.is_err() {
            return Err(self.not_connected());
        }
        let (id, rx) = {
            let mut st = self.state.lock().unwrap();
            st.next_id += 1;
            let id = st.next_id;
            let Some(c) = st.connection.as_mut() else { return Err(self.not_connected_locked(&st)) };
            let (tx, rx) = oneshot::channel();
            c.pending.insert(id, tx);
            let _ = c.out.send(text(&json!({"id": id, "request": request})));
            (id, rx)
        };
        // A call the agent cancels (its future dropped) leaves nothing behind.
        let _forget = Forget { bridge: self, id };
        match tokio::time::timeout(deadline, rx).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(_)) => Err(CallError::new("disconnected", "the extension went away while this call ran")),
            Err(_) => Err(CallError::new(
                "timeout",
                format!("no answer from the extension within {} s: the page may be busy; take a snapshot to see where it is", deadline.as_secs()),
            )),
        }
    }

    fn not_connected(&self) -> CallError {
        self.not_connected_locked(&self.state.lock().unwrap())
    }

    fn not_connected_locked(&self, st: &State) -> CallError {
        let last = st.last_close.as_deref().map(|r| format!(", last disconnect: {r}")).unwrap_or_default();
        CallError::new(
            "no_extension",
            format!(
                "the axsnap extension is not connected (waited {} s{last}): ask the person to open axsnap's side panel in Chrome, \
                 turn on \"Allow desktop agents\" and enter the token that `axsnap-mcp token` prints, then try again",
                self.connect_timeout.as_secs()
            ),
        )
    }

    async fn connection(self: Arc<Self>, stream: TcpStream) {
        let _ = stream.set_nodelay(true);
        let mut outcome: Option<Result<pairing::Accepted, Refusal>> = None;
        let callback = |req: &Request, mut res: Response| -> Result<Response, ErrorResponse> {
            let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
            let checked = pairing::check(
                header("origin"),
                header("sec-websocket-protocol"),
                &self.token,
                now_secs(),
                &mut self.nonces.lock().unwrap(),
            );
            let answer = match checked.as_ref().err().and_then(Refusal::status) {
                None => {
                    let protocol = checked.as_ref().err().map_or(PROTOCOL, Refusal::answered_protocol);
                    res.headers_mut().insert("sec-websocket-protocol", HeaderValue::from_static(protocol));
                    Ok(res)
                }
                Some(status) => {
                    let mut e = ErrorResponse::new(Some("refused\n".into()));
                    *e.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::FORBIDDEN);
                    Err(e)
                }
            };
            outcome = Some(checked);
            answer
        };
        let ws = tokio::time::timeout(HANDSHAKE_DEADLINE, tokio_tungstenite::accept_hdr_async(stream, callback)).await;
        let Some(outcome) = outcome else { return }; // not a WebSocket handshake at all (a port scan, a browser tab)
        if let Err(refusal) = &outcome {
            eprintln!("axsnap-mcp: {}", refusal.reason());
        }
        let Ok(Ok(mut ws)) = ws else { return };
        let accepted = match outcome {
            Ok(a) => a,
            Err(refusal) => {
                // The extension, with a bad proof: closed before anything is exchanged, saying why.
                let frame = CloseFrame { code: REFUSED.into(), reason: refusal.close_reason().into() };
                let _ = ws.close(Some(frame)).await;
                return;
            }
        };
        if self.busy() {
            // Another paired browser (a second profile) would otherwise take turns with this one.
            let frame = CloseFrame { code: BUSY.into(), reason: "another browser is connected to this agent".into() };
            let _ = ws.close(Some(frame)).await;
            return;
        }

        // The server's nonce makes the connection's transcript, which its proof and the channel's keys are bound to.
        let server_nonce = pairing::random_hex(16);
        let transcript = format!("{}.{server_nonce}", accepted.challenge);
        let hello = json!({"type": "hello", "nonce": server_nonce, "proof": pairing::server_proof(&self.token, &transcript)});
        let (mut seal, mut open) = channel::server_side(&self.token, &transcript);
        let name = self.state.lock().unwrap().agent_name.clone();
        let welcome = json!({
            "type": "welcome", "server": "axsnap-mcp", "version": env!("CARGO_PKG_VERSION"),
            "agent": {"id": self.agent_id, "name": name},
        });
        if ws.send(text(&hello)).await.is_err() || ws.send(sealed(&mut seal, Message::text(welcome.to_string()))).await.is_err() {
            return;
        }
        // The extension checks the proof before it says it is ready, sealed: then both hold the keys.
        let ready = tokio::time::timeout(HANDSHAKE_DEADLINE, async {
            while let Some(Ok(m)) = ws.next().await {
                match m {
                    Message::Ping(_) | Message::Pong(_) => continue,
                    Message::Close(_) => return Err(false),
                    m => return opened(&mut open, m).ok().filter(|v| v["type"] == "ready").ok_or(true),
                }
            }
            Err(false)
        })
        .await;
        match ready {
            Ok(Ok(_)) => {}
            Ok(Err(true)) => {
                eprintln!("axsnap-mcp: refused a connection whose first frame did not open: {TAMPERED_REASON}");
                let _ = ws.close(Some(CloseFrame { code: TAMPERED.into(), reason: TAMPERED_REASON.into() })).await;
                return;
            }
            _ => return eprintln!("axsnap-mcp: the extension did not finish the handshake"),
        }

        let (mut sink, mut source) = ws.split();
        let (out, mut rx) = mpsc::unbounded_channel::<Message>();
        let id = self.attach(out.clone());
        eprintln!("axsnap-mcp: the extension is connected");
        let mut writer = tokio::spawn(async move {
            while let Some(m) = rx.recv().await {
                let closing = matches!(m, Message::Close(_));
                if sink.send(sealed(&mut seal, m)).await.is_err() || closing {
                    break;
                }
            }
            let _ = sink.close().await;
        });
        let mut reason = None;
        while let Some(msg) = source.next().await {
            match msg {
                Ok(Message::Close(frame)) => {
                    reason = frame.map(|f: CloseFrame| f.reason.to_string()).filter(|r| !r.is_empty());
                    break;
                }
                Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_)) => {}
                Ok(m) => {
                    let Ok(v) = opened(&mut open, m) else {
                        // The counts no longer agree: nothing after this could open either.
                        eprintln!("axsnap-mcp: closed the connection: {TAMPERED_REASON}");
                        let _ = out.send(Message::Close(Some(CloseFrame { code: TAMPERED.into(), reason: TAMPERED_REASON.into() })));
                        let _ = tokio::time::timeout(Duration::from_secs(2), &mut writer).await;
                        reason = Some(TAMPERED_REASON.to_string());
                        break;
                    };
                    self.seen(id);
                    if v["type"] == "ping" {
                        let _ = out.send(text(&json!({"type": "pong"})));
                    } else if let Some(call) = v["id"].as_u64() {
                        self.answer(id, call, &v["response"]);
                    }
                }
                Err(_) => break,
            }
        }
        writer.abort();
        self.detach(id, reason);
    }

    /// Whether a live connection holds the bridge.
    fn busy(&self) -> bool {
        self.state.lock().unwrap().connection.as_ref().is_some_and(|c| c.last_seen.elapsed() < SILENT)
    }

    fn seen(&self, id: u64) {
        if let Some(c) = self.state.lock().unwrap().connection.as_mut().filter(|c| c.id == id) {
            c.last_seen = Instant::now();
        }
    }

    /// Makes a new connection the current one; an older, silent one (a
    /// half-open socket from before an extension restart) is closed.
    fn attach(&self, out: mpsc::UnboundedSender<Message>) -> u64 {
        let mut st = self.state.lock().unwrap();
        st.next_id += 1;
        let id = st.next_id;
        if let Some(old) = st.connection.replace(Connection { id, out, pending: HashMap::new(), last_seen: Instant::now() }) {
            let _ = old.out.send(Message::Close(None));
            fail_all(old.pending, "the extension connected again");
        }
        st.last_close = None;
        self.connected.send_replace(true);
        id
    }

    fn detach(&self, id: u64, reason: Option<String>) {
        let mut st = self.state.lock().unwrap();
        if st.connection.as_ref().is_some_and(|c| c.id == id) {
            let c = st.connection.take().unwrap();
            let why = reason.clone().unwrap_or_else(|| "the connection closed".into());
            eprintln!("axsnap-mcp: the extension disconnected ({why})");
            fail_all(c.pending, &why);
            st.last_close = Some(why);
            self.connected.send_replace(false);
        }
    }

    fn answer(&self, connection: u64, call: u64, response: &Value) {
        let mut st = self.state.lock().unwrap();
        let Some(c) = st.connection.as_mut().filter(|c| c.id == connection) else { return };
        if let Some(tx) = c.pending.remove(&call) {
            let _ = tx.send(reply_of(response));
        }
    }
}

/// Removes a call's pending entry when its future ends, answered or not.
struct Forget<'a> {
    bridge: &'a Bridge,
    id: u64,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        if let Some(c) = self.bridge.state.lock().unwrap().connection.as_mut() {
            c.pending.remove(&self.id);
        }
    }
}

fn fail_all(pending: HashMap<u64, oneshot::Sender<Reply>>, why: &str) {
    for (_, tx) in pending {
        let _ = tx.send(Err(CallError::new(
            "disconnected",
            format!("the extension disconnected while this call ran ({why}); it may or may not have been done: take a new snapshot once it is back"),
        )));
    }
}

fn text(v: &Value) -> Message {
    Message::text(v.to_string())
}

/// A text message as the sealed binary frame that crosses the socket; a close frame as it is.
fn sealed(seal: &mut Direction, m: Message) -> Message {
    match m {
        Message::Text(t) => Message::binary(seal.seal(t.as_bytes())),
        other => other,
    }
}

/// What a received frame says, if it is a sealed JSON message that opens; a text frame never is.
fn opened(open: &mut Direction, m: Message) -> Result<Value, channel::Tampered> {
    let Message::Binary(b) = m else { return Err(channel::Tampered) };
    serde_json::from_slice(&open.open(&b)?).map_err(|_| channel::Tampered)
}

/// The protocol's answer as a result: `{ok:true, …}` → its fields, `{ok:false, error}` → the error.
pub fn reply_of(response: &Value) -> Reply {
    match response.get("ok") {
        Some(Value::Bool(true)) => {
            let mut fields = response.clone();
            if let Some(o) = fields.as_object_mut() {
                o.remove("ok");
                o.remove("id");
            }
            Ok(fields)
        }
        Some(Value::Bool(false)) => {
            let e = &response["error"];
            Err(CallError::new(
                e["code"].as_str().unwrap_or("internal"),
                e["message"].as_str().unwrap_or("the extension gave no reason"),
            ))
        }
        _ => Err(CallError::new("internal", "the extension sent an answer without ok")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::extension_side;
    use crate::pairing::{extension_proof, random_hex, server_proof, EXTENSION_ORIGIN, OLD_PROTOCOL};
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;

    const TOKEN: &str = "0123456789abcdef0123456789abcdef";
    type Ws = tokio_tungstenite::WebSocketStream<TcpStream>;

    async fn start() -> (Arc<Bridge>, u16) {
        let bridge = Bridge::new(TOKEN.into(), Duration::from_secs(5));
        let listener = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(bridge.clone().serve(listener));
        (bridge, port)
    }

    /// Opens a WebSocket as the extension would (or as a page would, with another origin), offering `protocol`.
    async fn offer(port: u16, origin: &str, token: &str, protocol: &str) -> Result<(Ws, String), u16> {
        let challenge = format!("{}.{}", now_secs(), random_hex(16));
        let mut req = format!("ws://127.0.0.1:{port}/").into_client_request().unwrap();
        let protocols = format!("{protocol}, axsnap-auth.{challenge}.{}", extension_proof(token, &challenge));
        req.headers_mut().insert("origin", origin.parse().unwrap());
        req.headers_mut().insert("sec-websocket-protocol", protocols.parse().unwrap());
        let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        match tokio_tungstenite::client_async(req, stream).await {
            Ok((ws, _)) => Ok((ws, challenge)),
            Err(tokio_tungstenite::tungstenite::Error::Http(res)) => Err(res.status().as_u16()),
            Err(e) => panic!("{e}"),
        }
    }

    async fn open(port: u16, origin: &str, token: &str) -> Result<(Ws, String), u16> {
        offer(port, origin, token, PROTOCOL).await
    }

    /// The close frame the server ends a socket with: its code and reason.
    async fn close_frame(ws: &mut Ws) -> (u16, String) {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(Some(frame)))) => return (frame.code.into(), frame.reason.to_string()),
                Some(Ok(Message::Binary(_))) => continue,
                other => panic!("expected a close frame, got {other:?}"),
            }
        }
    }

    /// The extension's end of a connection after the handshake: its socket and its two directions.
    struct Extension {
        ws: Ws,
        seal: Direction,
        open: Direction,
        /// The first frame it sent, as it crossed the socket, to replay.
        ready: Vec<u8>,
    }

    impl Extension {
        async fn send(&mut self, v: Value) {
            self.ws.send(Message::binary(self.seal.seal(v.to_string().as_bytes()))).await.unwrap();
        }

        async fn next(&mut self) -> Value {
            loop {
                if let Message::Binary(b) = self.ws.next().await.unwrap().unwrap() {
                    return serde_json::from_slice(&self.open.open(&b).expect("a sealed frame that opens")).unwrap();
                }
            }
        }
    }

    /// Connects as the paired extension: checks the server's proof, opens its welcome, says it is ready.
    async fn connect(port: u16) -> (Extension, Value) {
        let (mut ws, challenge) = open(port, EXTENSION_ORIGIN, TOKEN).await.unwrap();
        let hello: Value = match ws.next().await.unwrap().unwrap() {
            Message::Text(t) => serde_json::from_str(&t).unwrap(),
            other => panic!("expected the hello in the clear, got {other:?}"),
        };
        assert_eq!(hello["type"], "hello");
        let transcript = format!("{challenge}.{}", hello["nonce"].as_str().unwrap());
        assert_eq!(hello["proof"], server_proof(TOKEN, &transcript));
        let (mut seal, open) = extension_side(TOKEN, &transcript);
        let ready = seal.seal(br#"{"type":"ready"}"#);
        let mut ext = Extension { ws, seal, open, ready: ready.clone() };
        let welcome = ext.next().await;
        ext.ws.send(Message::binary(ready)).await.unwrap();
        (ext, welcome)
    }

    #[tokio::test]
    async fn pages_are_refused_at_the_handshake_and_wrong_tokens_at_once_after_it() {
        let (bridge, port) = start().await;
        assert_eq!(open(port, "http://127.0.0.1:8080", TOKEN).await.err(), Some(403));
        let (mut ws, _) = open(port, EXTENSION_ORIGIN, "another-token-0123456789").await.unwrap();
        assert_eq!(close_frame(&mut ws).await, (REFUSED, "wrong pairing token".into()));
        assert!(!*bridge.connected.borrow());
    }

    #[tokio::test]
    async fn an_extension_of_the_older_protocol_is_told_to_update() {
        let (bridge, port) = start().await;
        let (mut ws, _) = offer(port, EXTENSION_ORIGIN, TOKEN, OLD_PROTOCOL).await.unwrap();
        assert_eq!(close_frame(&mut ws).await, (REFUSED, "this axsnap-mcp speaks axsnap.2: update the axsnap extension".into()));
        assert!(!*bridge.connected.borrow());
    }

    #[tokio::test]
    async fn the_paired_extension_gets_the_servers_proof_and_answers_calls() {
        let (bridge, port) = start().await;
        let (mut ext, welcome) = connect(port).await;
        assert_eq!(welcome["type"], "welcome");
        assert_eq!(welcome["agent"]["id"], bridge.agent_id.as_str());

        let call = tokio::spawn({
            let bridge = bridge.clone();
            async move { bridge.call(json!({"cmd": "ping"}), Duration::from_secs(5)).await }
        });
        let req = ext.next().await;
        assert_eq!(req["request"], json!({"cmd": "ping"}));
        ext.send(json!({"id": req["id"], "response": {"ok": true, "version": "1"}})).await;
        assert_eq!(call.await.unwrap(), Ok(json!({"version": "1"})));

        ext.send(json!({"type": "ping"})).await;
        assert_eq!(ext.next().await, json!({"type": "pong"}));
    }

    /// A frame that is not the extension's next sealed one closes the connection, and the call in flight fails.
    async fn refused_after(frame: impl FnOnce(&mut Extension) -> Message) {
        let (bridge, port) = start().await;
        let (mut ext, _) = connect(port).await;
        let call = tokio::spawn({
            let bridge = bridge.clone();
            async move { bridge.call(json!({"cmd": "snapshot"}), Duration::from_secs(5)).await }
        });
        let req = ext.next().await;
        let m = frame(&mut ext);
        ext.ws.send(m).await.unwrap();
        assert_eq!(close_frame(&mut ext.ws).await, (TAMPERED, TAMPERED_REASON.into()));
        let err = call.await.unwrap().unwrap_err();
        assert_eq!(err.code, "disconnected");
        assert!(err.message.contains("failed authentication"), "{}", err.message);
        assert!(!*bridge.connected.borrow(), "{req}");
    }

    #[tokio::test]
    async fn a_forged_altered_or_replayed_frame_closes_the_connection() {
        let answer = json!({"id": 2, "response": {"ok": true, "text": "forged"}});
        refused_after(|_| Message::text(answer.to_string())).await;
        refused_after(|_| Message::binary(answer.to_string().into_bytes())).await;
        refused_after(|ext| {
            let mut b = ext.seal.seal(answer.to_string().as_bytes());
            b[5] ^= 0x40;
            Message::binary(b)
        })
        .await;
        // The ready again: a sealed frame of this connection, but not the next one.
        refused_after(|ext| Message::binary(ext.ready.clone())).await;
    }

    #[tokio::test]
    async fn calls_in_flight_fail_clearly_when_the_extension_goes_away() {
        let (bridge, port) = start().await;
        let (mut ext, _) = connect(port).await;
        let call = tokio::spawn({
            let bridge = bridge.clone();
            async move { bridge.call(json!({"cmd": "snapshot"}), Duration::from_secs(5)).await }
        });
        ext.next().await;
        ext.ws.close(Some(CloseFrame { code: 4000u16.into(), reason: "turned off in the side panel".into() })).await.unwrap();
        let err = call.await.unwrap().unwrap_err();
        assert_eq!(err.code, "disconnected");
        assert!(err.message.contains("turned off in the side panel"), "{}", err.message);
        assert!(bridge.not_connected().message.contains("last disconnect: turned off in the side panel"));
    }

    #[tokio::test]
    async fn a_second_browser_is_told_one_is_connected() {
        let (_bridge, port) = start().await;
        let (mut first, _) = connect(port).await;
        first.send(json!({"type": "ping"})).await;
        assert_eq!(first.next().await, json!({"type": "pong"}));
        let (mut second, _) = open(port, EXTENSION_ORIGIN, TOKEN).await.unwrap();
        assert_eq!(close_frame(&mut second).await, (BUSY, "another browser is connected to this agent".into()));
    }

    #[test]
    fn answers_become_results_or_errors() {
        assert_eq!(reply_of(&json!({"ok": true, "id": 3, "text": "x"})), Ok(json!({"text": "x"})));
        assert_eq!(
            reply_of(&json!({"ok": false, "error": {"code": "stale_ref", "message": "A7 is gone"}})),
            Err(CallError::new("stale_ref", "A7 is gone"))
        );
        assert_eq!(reply_of(&json!({})).unwrap_err().code, "internal");
    }

    #[tokio::test]
    async fn a_busy_port_is_a_clear_error() {
        let held = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        let port = held.local_addr().unwrap().port();
        let err = bind(Some(port)).await.unwrap_err();
        assert!(err.contains(&format!("port {port} on 127.0.0.1 is in use")), "{err}");
    }
}
