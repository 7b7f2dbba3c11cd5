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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}
