//! The bridge: a WebSocket server on 127.0.0.1 that the extension's service
//! worker connects to. The extension stays the only thing that touches the
//! browser; this side sends it protocol requests and waits for the answers.
//!
//! Messages, one JSON object per text frame:
//! - server → extension: `{type:"hello", server, version, proof, agent:{id, name}}` first, then
//!   `{id, request}` (a protocol request) and `{type:"agent", name}` when the agent says its name;
//! - extension → server: `{type:"ready"}` once it has checked the proof, `{id, response}`
//!   (the protocol's `{ok, …}` answer), and `{type:"ping"}` every 20 s (answered with
//!   `{type:"pong"}`), which keeps the MV3 service worker alive while connected.

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
                    res.headers_mut().insert("sec-websocket-protocol", HeaderValue::from_static(PROTOCOL));
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

        let name = self.state.lock().unwrap().agent_name.clone();
        let hello = json!({
            "type": "hello", "server": "axsnap-mcp", "version": env!("CARGO_PKG_VERSION"),
            "proof": pairing::server_proof(&self.token, &accepted.challenge),
            "agent": {"id": self.agent_id, "name": name},
        });
        if ws.send(text(&hello)).await.is_err() {
            return;
        }
        // The extension checks the proof before it says it is ready.
        let ready = tokio::time::timeout(HANDSHAKE_DEADLINE, async {
            while let Some(Ok(m)) = ws.next().await {
                if let Message::Text(t) = m {
                    return serde_json::from_str::<Value>(&t).ok().filter(|v| v["type"] == "ready");
                }
            }
            None
        })
        .await;
        if !matches!(ready, Ok(Some(_))) {
            return eprintln!("axsnap-mcp: the extension did not finish the handshake");
        }

        let (mut sink, mut source) = ws.split();
        let (out, mut rx) = mpsc::unbounded_channel::<Message>();
        let id = self.attach(out.clone());
        eprintln!("axsnap-mcp: the extension is connected");
        let writer = tokio::spawn(async move {
            while let Some(m) = rx.recv().await {
                let closing = matches!(m, Message::Close(_));
                if sink.send(m).await.is_err() || closing {
                    break;
                }
            }
            let _ = sink.close().await;
        });
        let mut reason = None;
        while let Some(msg) = source.next().await {
            match msg {
                Ok(Message::Text(t)) => {
                    self.seen(id);
                    let Ok(v) = serde_json::from_str::<Value>(&t) else { continue };
                    if v["type"] == "ping" {
                        let _ = out.send(text(&json!({"type": "pong"})));
                    } else if let Some(call) = v["id"].as_u64() {
                        self.answer(id, call, &v["response"]);
                    }
                }
                Ok(Message::Close(frame)) => {
                    reason = frame.map(|f: CloseFrame| f.reason.to_string()).filter(|r| !r.is_empty());
                    break;
                }
                Ok(_) => {}
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
    use crate::pairing::{extension_proof, random_hex, server_proof, EXTENSION_ORIGIN};
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;

    const TOKEN: &str = "0123456789abcdef0123456789abcdef";

    async fn start() -> (Arc<Bridge>, u16) {
        let bridge = Bridge::new(TOKEN.into(), Duration::from_secs(5));
        let listener = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(bridge.clone().serve(listener));
        (bridge, port)
    }

    /// Opens a WebSocket as the extension would (or as a page would, with another origin).
    async fn open(port: u16, origin: &str, token: &str) -> Result<(tokio_tungstenite::WebSocketStream<TcpStream>, String), u16> {
        let challenge = format!("{}.{}", now_secs(), random_hex(16));
        let mut req = format!("ws://127.0.0.1:{port}/").into_client_request().unwrap();
        let protocols = format!("{PROTOCOL}, axsnap-auth.{challenge}.{}", extension_proof(token, &challenge));
        req.headers_mut().insert("origin", origin.parse().unwrap());
        req.headers_mut().insert("sec-websocket-protocol", protocols.parse().unwrap());
        let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        match tokio_tungstenite::client_async(req, stream).await {
            Ok((ws, _)) => Ok((ws, challenge)),
            Err(tokio_tungstenite::tungstenite::Error::Http(res)) => Err(res.status().as_u16()),
            Err(e) => panic!("{e}"),
        }
    }

    /// The close frame the server ends a socket with: its code and reason.
    async fn close_frame(ws: &mut tokio_tungstenite::WebSocketStream<TcpStream>) -> (u16, String) {
        match ws.next().await {
            Some(Ok(Message::Close(Some(frame)))) => (frame.code.into(), frame.reason.to_string()),
            other => panic!("expected a close frame, got {other:?}"),
        }
    }

    async fn next_json(ws: &mut tokio_tungstenite::WebSocketStream<TcpStream>) -> Value {
        loop {
            if let Message::Text(t) = ws.next().await.unwrap().unwrap() {
                return serde_json::from_str(&t).unwrap();
            }
        }
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
    async fn the_paired_extension_gets_the_servers_proof_and_answers_calls() {
        let (bridge, port) = start().await;
        let (mut ws, challenge) = open(port, EXTENSION_ORIGIN, TOKEN).await.unwrap();
        let hello = next_json(&mut ws).await;
        assert_eq!(hello["type"], "hello");
        assert_eq!(hello["proof"], server_proof(TOKEN, &challenge));
        ws.send(Message::text(r#"{"type":"ready"}"#)).await.unwrap();

        let call = tokio::spawn({
            let bridge = bridge.clone();
            async move { bridge.call(json!({"cmd": "ping"}), Duration::from_secs(5)).await }
        });
        let req = next_json(&mut ws).await;
        assert_eq!(req["request"], json!({"cmd": "ping"}));
        ws.send(Message::text(json!({"id": req["id"], "response": {"ok": true, "version": "1"}}).to_string())).await.unwrap();
        assert_eq!(call.await.unwrap(), Ok(json!({"version": "1"})));

        ws.send(Message::text(r#"{"type":"ping"}"#)).await.unwrap();
        assert_eq!(next_json(&mut ws).await, json!({"type": "pong"}));
    }

    #[tokio::test]
    async fn calls_in_flight_fail_clearly_when_the_extension_goes_away() {
        let (bridge, port) = start().await;
        let (mut ws, _) = open(port, EXTENSION_ORIGIN, TOKEN).await.unwrap();
        next_json(&mut ws).await;
        ws.send(Message::text(r#"{"type":"ready"}"#)).await.unwrap();
        let call = tokio::spawn({
            let bridge = bridge.clone();
            async move { bridge.call(json!({"cmd": "snapshot"}), Duration::from_secs(5)).await }
        });
        next_json(&mut ws).await;
        ws.close(Some(CloseFrame { code: 4000u16.into(), reason: "turned off in the side panel".into() })).await.unwrap();
        let err = call.await.unwrap().unwrap_err();
        assert_eq!(err.code, "disconnected");
        assert!(err.message.contains("turned off in the side panel"), "{}", err.message);
        assert!(bridge.not_connected().message.contains("last disconnect: turned off in the side panel"));
    }

    #[tokio::test]
    async fn a_second_browser_is_told_one_is_connected() {
        let (_bridge, port) = start().await;
        let (mut first, _) = open(port, EXTENSION_ORIGIN, TOKEN).await.unwrap();
        next_json(&mut first).await;
        first.send(Message::text(r#"{"type":"ready"}"#)).await.unwrap();
        first.send(Message::text(r#"{"type":"ping"}"#)).await.unwrap();
        assert_eq!(next_json(&mut first).await, json!({"type": "pong"}));
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
