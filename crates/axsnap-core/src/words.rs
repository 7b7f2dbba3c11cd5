//! Small text helpers every stage shares: whitespace squashing, invisible
//! characters, clipping.

use std::borrow::Cow;

/// Characters that print as nothing (zero-width space, byte-order mark, soft
/// hyphen, word joiner): they cost tokens and say nothing.
pub fn invisible(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{FEFF}' | '\u{00AD}' | '\u{2060}')
}

/// Whitespace runs to one space, invisible characters gone.
pub fn squash(s: &str) -> String {
    squashed(s).into_owned()
}

/// [`squash`] without a copy where the text is already so (plain ASCII
/// words with single spaces, most text): for the hot paths.
pub fn squashed(s: &str) -> Cow<'_, str> {
    let b = s.as_bytes();
    let plain = b.first() != Some(&b' ')
        && b.last() != Some(&b' ')
        && b.iter().all(|&c| c.is_ascii() && (c == b' ' || !c.is_ascii_whitespace()))
        && !s.contains("  ");
    if plain {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let cleaned: String;
    let s = if s.chars().any(invisible) {
        cleaned = s.chars().filter(|&c| !invisible(c)).collect();
        &cleaned
    } else {
        s
    };
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    Cow::Owned(out)
}

pub fn clip(s: &str, max: Option<usize>) -> String {
    match max {
        Some(m) if s.chars().count() > m => {
            let mut t: String = s.chars().take(m).collect();
            t.push('…');
            t
        }
        _ => s.to_string(),
    }
}

/// The same words, whatever the whitespace between them (no allocation).
pub fn same_words(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}
