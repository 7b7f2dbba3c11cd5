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
    // One pass: ASCII, no whitespace but single spaces, none at either end.
    let plain = b.first() != Some(&b' ')
        && b.last() != Some(&b' ')
        && b.iter().zip(b.iter().skip(1).chain([&b'x'])).all(|(&c, &next)| {
            c.is_ascii() && (c == b' ' && next != b' ' || !c.is_ascii_whitespace())
        });
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
    clipped(s, max).into_owned()
}

/// [`clip`] without a copy where the text fits.
pub fn clipped(s: &str, max: Option<usize>) -> Cow<'_, str> {
    match max {
        // A text of no more bytes than `m` has no more characters.
        Some(m) if s.len() > m && s.chars().count() > m => {
            let mut t: String = s.chars().take(m).collect();
            t.push('…');
            Cow::Owned(t)
        }
        _ => Cow::Borrowed(s),
    }
}

/// The same words, whatever the whitespace between them (no allocation).
pub fn same_words(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}
