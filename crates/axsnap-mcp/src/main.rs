//! axsnap-mcp: an MCP server on stdio that an agent starts. It listens on
//! 127.0.0.1 for the axsnap extension, which connects once the person has
//! allowed desktop agents and paired it, and sends the agent's tool calls
//! through it: the extension stays the only thing that touches the browser.

mod bridge;
mod channel;
mod config;
mod launch;
mod pairing;
mod tools;

use config::Command;
use rmcp::ServiceExt;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = config::parse(&args, |k| std::env::var(k).ok()).unwrap_or_else(|e| fail(&e));
    match command {
        Command::Help => say(config::USAGE),
        Command::Version => say(&format!("axsnap-mcp {}", env!("CARGO_PKG_VERSION"))),
        Command::PrintToken(c) => say(&token(&c)),
        Command::Serve(c) => {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap_or_else(|e| fail(&e.to_string()));
            runtime.block_on(serve(c));
            // stdin may still be held by a blocking read: do not wait for it.
            runtime.shutdown_background();
        }
    }
}

/// One line to stdout; a reader that closed early (`| head`) is no error.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{line}");
}

fn fail(message: &str) -> ! {
    eprintln!("axsnap-mcp: {message}");
    std::process::exit(2);
}

fn token(c: &config::Config) -> String {
    let (token, notice) = config::resolve_token(c, config::token_file(|k| std::env::var(k).ok())).unwrap_or_else(|e| fail(&e));
    if let Some(n) = notice {
        eprintln!("axsnap-mcp: {n}");
    }
    token
}

/// The line said while waiting for the extension. Agents keep this stream in
/// log files: it names the token's fingerprint, never the token.
fn waiting(port: u16, token: &str) -> String {
    format!(
        "axsnap-mcp: waiting for the axsnap extension on ws://127.0.0.1:{port}. To pair: in axsnap's side panel turn on \
         \"Allow desktop agents\" and enter the token that `axsnap-mcp token` prints; the panel then shows the token's \
         fingerprint, which must be {}",
        pairing::fingerprint(token)
    )
}

async fn serve(c: config::Config) {
    let token = token(&c);
    let (listener, port) = bridge::bind(c.port).await.unwrap_or_else(|e| fail(&e));
    // The agent's own browser, paired before the first tool call can need it; it ends with this function.
    let _browser = match &c.launch {
        None => {
            eprintln!("{}", waiting(port, &token));
            None
        }
        Some(l) => {
            let b = launch::start(l, port, &token).unwrap_or_else(|e| fail(&format!("--launch: {e}")));
            eprintln!("axsnap-mcp: started the agent's own browser ({}), paired on ws://127.0.0.1:{port}", if l.headed { "headed" } else { "headless" });
            Some(b)
        }
    };
    let bridge = bridge::Bridge::new(token, std::time::Duration::from_secs(c.connect_timeout));
    tokio::spawn(bridge.clone().serve(listener));
    let server = match tools::Browser::new(bridge).serve(rmcp::transport::stdio()).await {
        Ok(s) => s,
        Err(e) => fail(&format!("the MCP client did not start a session: {e}")),
    };
    // Ends when the agent closes stdin, or stops the server with a signal (a launched browser goes with it).
    tokio::select! {
        _ = server.waiting() => {}
        _ = stopped() => {}
    }
}

/// SIGTERM or SIGINT: an MCP client ending its server sends one.
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    }
    #[cfg(not(unix))]
    std::future::pending::<()>().await
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_log_names_the_tokens_fingerprint_not_the_token() {
        let token = "0123456789abcdef0123456789abcdef";
        let line = super::waiting(17373, token);
        assert!(line.contains("fingerprint, which must be 3eb1bd43"), "{line}");
        assert!(!line.contains(token) && !line.contains(&token[..16]) && !line.contains(&token[16..]));
    }
}
