//! Snapshot options: one struct, one parser, one normalisation. The Wasm
//! facade hands the caller's object to [`Options::from_value`]; the CLI turns
//! its flags into the same keys. Defaults live here and nowhere else.

use crate::error::{quoted, Error, ErrorCode};
use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Everything a reader sees, with refs on what can be acted on.
    #[default]
    Full,
    /// Actionable nodes with just the landmarks and headings that place them.
    Interactive,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// Options after normalisation: `None` means no limit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Options {
    pub mode: Mode,
    pub format: Format,
    /// Cut the output (on a line boundary) to at most this many characters.
    pub max_chars: Option<usize>,
    /// Hide lines nested deeper than this (a line says how much was hidden);
    /// 0 keeps the top level only.
    pub max_depth: Option<usize>,
    /// Clip each text and name to this many characters.
    pub max_text: Option<usize>,
    /// Clip link URLs longer than this in the text (`resolve` gives the
    /// full URL of any link by its ref).
    pub max_url: Option<usize>,
    /// Snapshot only the subtree under this ref (from an earlier snapshot).
    pub root: Option<String>,
    /// Answer with what changed since the tab's previous snapshot.
    pub diff: bool,
    /// Mark where the page leaves and enters the viewport (a note line each
    /// time), in full output too; needs the element boxes the extension gives.
    pub viewport: bool,
}

/// Whose defaults apply to options the caller left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defaults {
    /// The Rust API and the CLI: no cap, URLs whole.
    Uncapped,
    /// The extension, where an agent reads every step: [`AGENT_MAX_CHARS`],
    /// and URLs clipped at [`AGENT_MAX_URL`] while capped. `full: true`
    /// lifts the cap.
    Agent,
}

/// The extension's default character cap.
pub const AGENT_MAX_CHARS: usize = 12_000;
/// The extension's default URL clip in capped output.
pub const AGENT_MAX_URL: usize = 64;

/// The option keys, as callers spell them.
pub const KEYS: &[&str] = &["mode", "format", "maxChars", "maxDepth", "maxText", "maxUrl", "root", "full", "diff", "viewport", "fresh"];

impl Options {
    /// Parses the caller's options object (`null` or absent keys: defaults).
    /// Unknown keys and wrong types are a `bad_options` error naming the key.
    pub fn from_value(value: &Value, defaults: Defaults) -> Result<Options, Error> {
        let empty = Map::new();
        let map = match value {
            Value::Null => &empty,
            Value::Object(m) => m,
            other => return Err(bad(format!("options must be an object, not {}", type_name(other)))),
        };
        let mut o = Options::default();
        let mut full = false;
        let (mut max_chars, mut max_url) = (None, None);
        for (key, v) in map {
            if v.is_null() {
                continue;
            }
            match key.as_str() {
                "mode" => {
                    o.mode = match string(key, v)? {
                        "full" => Mode::Full,
                        "interactive" => Mode::Interactive,
                        other => return Err(bad(format!("option mode is \"full\" or \"interactive\", not {}", quoted(other)))),
                    }
                }
                "format" => {
                    o.format = match string(key, v)? {
                        "text" => Format::Text,
                        "json" => Format::Json,
                        other => return Err(bad(format!("option format is \"text\" or \"json\", not {}", quoted(other)))),
                    }
                }
                "maxChars" => max_chars = Some(number(key, v)?),
                "maxDepth" => o.max_depth = Some(number(key, v)?),
                "maxText" => o.max_text = Some(number(key, v)?),
                "maxUrl" => max_url = Some(number(key, v)?),
                "root" => o.root = Some(string(key, v)?.to_string()),
                "full" => full = boolean(key, v)?,
                "diff" => o.diff = boolean(key, v)?,
                "viewport" => o.viewport = boolean(key, v)?,
                // How the extension reads the tree (whole, not only what changed): the same input here.
                "fresh" => {
                    boolean(key, v)?;
                }
                other => {
                    return Err(bad(format!("unknown option {}: the options are {}", quoted(other), KEYS.join(", "))));
                }
            }
        }
        if defaults == Defaults::Agent {
            max_chars = if full { Some(0) } else { max_chars.or(Some(AGENT_MAX_CHARS)) };
            let capped = max_chars.is_some_and(|m| m > 0);
            max_url = max_url.or(capped.then_some(AGENT_MAX_URL));
        } else if full {
            max_chars = Some(0);
        }
        o.max_chars = max_chars;
        o.max_url = max_url;
        Ok(o.normalised())
    }

    /// 0 means no limit, for every limit but `max_depth` (where 0 keeps the
    /// top level): the one place that says so.
    pub fn normalised(mut self) -> Options {
        let none_if_zero = |v: Option<usize>| v.filter(|&m| m > 0);
        self.max_chars = none_if_zero(self.max_chars);
        self.max_text = none_if_zero(self.max_text);
        self.max_url = none_if_zero(self.max_url);
        self
    }
}

fn bad(message: String) -> Error {
    Error::new(ErrorCode::BadOptions, message)
}

fn string<'v>(key: &str, v: &'v Value) -> Result<&'v str, Error> {
    v.as_str().ok_or_else(|| bad(format!("option {key} must be a string, not {}", type_name(v))))
}

fn boolean(key: &str, v: &Value) -> Result<bool, Error> {
    v.as_bool().ok_or_else(|| bad(format!("option {key} must be true or false, not {}", type_name(v))))
}

fn number(key: &str, v: &Value) -> Result<usize, Error> {
    let n = v.as_u64().or_else(|| v.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u32::MAX as f64).map(|f| f as u64));
    n.and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| bad(format!("option {key} must be a whole number ≥ 0, not {}", describe(v))))
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        other => type_name(other).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(v: Value, d: Defaults) -> Result<Options, Error> {
        Options::from_value(&v, d)
    }

    #[test]
    fn absent_options_take_the_edge_defaults() {
        assert_eq!(parse(Value::Null, Defaults::Uncapped).unwrap(), Options::default());
        let agent = parse(json!({}), Defaults::Agent).unwrap();
        assert_eq!((agent.max_chars, agent.max_url), (Some(12_000), Some(64)));
        let full = parse(json!({"full": true}), Defaults::Agent).unwrap();
        assert_eq!((full.max_chars, full.max_url), (None, None));
        let uncapped = parse(json!({"maxChars": 0}), Defaults::Agent).unwrap();
        assert_eq!((uncapped.max_chars, uncapped.max_url), (None, None));
        let own = parse(json!({"maxChars": 500, "maxUrl": 0}), Defaults::Agent).unwrap();
        assert_eq!((own.max_chars, own.max_url), (Some(500), None));
    }

    #[test]
    fn zero_means_no_limit_except_for_depth() {
        let o = parse(json!({"maxChars": 0, "maxText": 0, "maxUrl": 0, "maxDepth": 0}), Defaults::Uncapped).unwrap();
        assert_eq!((o.max_chars, o.max_text, o.max_url, o.max_depth), (None, None, None, Some(0)));
    }

    #[test]
    fn every_key_parses() {
        let o = parse(
            json!({"mode": "interactive", "format": "json", "maxChars": 9000, "maxDepth": 3, "maxText": 80, "maxUrl": 40, "root": "A7", "full": false, "viewport": true}),
            Defaults::Uncapped,
        )
        .unwrap();
        let want = Options {
            mode: Mode::Interactive,
            format: Format::Json,
            max_chars: Some(9000),
            max_depth: Some(3),
            max_text: Some(80),
            max_url: Some(40),
            root: Some("A7".into()),
            diff: false,
            viewport: true,
        };
        assert_eq!(o, want);
        // JS numbers arrive as floats.
        assert_eq!(parse(json!({"maxChars": 9000.0}), Defaults::Uncapped).unwrap().max_chars, Some(9000));
    }

    #[test]
    fn bad_options_name_the_key() {
        let cases = [
            (json!({"__proto__": {}}), "unknown option \"__proto__\": the options are mode, format, maxChars, maxDepth, maxText, maxUrl, root, full, diff, viewport, fresh"),
            (json!({"maxChars": "12"}), "option maxChars must be a whole number ≥ 0, not a string"),
            (json!({"maxChars": -1}), "option maxChars must be a whole number ≥ 0, not -1"),
            (json!({"maxDepth": 1.5}), "option maxDepth must be a whole number ≥ 0, not 1.5"),
            (json!({"mode": "everything"}), "option mode is \"full\" or \"interactive\", not \"everything\""),
            (json!({"format": 1}), "option format must be a string, not a number"),
            (json!({"full": "yes"}), "option full must be true or false, not a string"),
            (json!([1]), "options must be an object, not an array"),
        ];
        for (v, message) in cases {
            let e = parse(v, Defaults::Agent).unwrap_err();
            assert_eq!((e.code, e.message.as_str()), (ErrorCode::BadOptions, message));
        }
    }
}
