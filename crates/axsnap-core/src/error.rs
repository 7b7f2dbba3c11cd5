//! The core's one error type: a stable machine code and a message that says
//! what to do next.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// The CDP input could not be understood.
    BadInput,
    /// An option is unknown or has the wrong type.
    BadOptions,
    /// The ref is not of the form `A<number>`.
    BadRef,
    /// The ref was never issued by this table.
    UnknownRef,
    /// The ref was issued, but its element is not in the latest snapshot.
    StaleRef,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadInput => "bad_input",
            ErrorCode::BadOptions => "bad_options",
            ErrorCode::BadRef => "bad_ref",
            ErrorCode::UnknownRef => "unknown_ref",
            ErrorCode::StaleRef => "stale_ref",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error { code, message: message.into() }
    }
    pub fn bad_input(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadInput, message)
    }

    /// Input that does not parse. serde's message quotes the value it
    /// stopped at (`invalid type: string "…", expected a boolean`), and the
    /// input is page text, secrets included: only what was expected, and
    /// where, is kept.
    pub fn unparsable(what: &str, serde_message: &str) -> Self {
        const QUOTING: [&str; 4] = ["invalid type: ", "invalid value: ", "unknown variant ", "unknown field "];
        let detail = if !QUOTING.iter().any(|q| serde_message.starts_with(q)) {
            serde_message.to_string()
        } else if let Some(i) = serde_message.rfind(", expected ") {
            format!("a value of the wrong kind, {}", &serde_message[i + 2..])
        } else {
            "a value of the wrong kind".to_string()
        };
        Self::bad_input(format!("{what}: {detail}"))
    }
}

/// `s` in double quotes, escaped as a JSON string: a message quoting what the
/// caller sent (JSON's escaping is already in the core; `{:?}`'s would bring
/// Rust's own escaper and Unicode tables into the Wasm build).
pub(crate) fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn a_parse_error_never_quotes_the_input() {
        let e = serde_json::from_str::<bool>(r#""CNRY-secret""#).unwrap_err();
        let msg = Error::unparsable("input", &e.to_string()).message;
        assert_eq!(msg, "input: a value of the wrong kind, expected a boolean at line 1 column 13");
        let e = serde_json::from_str::<Vec<u8>>("[1, x]").unwrap_err();
        assert_eq!(Error::unparsable("input", &e.to_string()).message, format!("input: {e}"));
    }
}
