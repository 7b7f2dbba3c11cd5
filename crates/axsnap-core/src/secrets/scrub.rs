//! Cutting secret text out of one string: every occurrence of a secret
//! value, and runs of mask glyphs, become one fixed placeholder that says
//! nothing about what it replaced, not even its length.
//!
//! Chrome builds names from content with its whitespace collapsed (a
//! textarea's `line1\n   line2` is named `line1 line2`), and the printers
//! drop invisible characters, so values are matched as printed: whitespace
//! runs as one space, invisible characters gone (`words::squash`).

use super::typed::Typed;
use crate::words::invisible;
/// A value as it is matched (see above).
pub use crate::words::squash as collapse;

/// What a secret becomes.
pub const PLACEHOLDER: &str = "[secret]";

/// Values of at least this many characters are cut wherever they appear;
/// shorter ones (a CVC, one digit of a split one-time code) only as whole
/// words of the names Chrome built from their own field (see `redact`), so
/// that a field holding `7` does not take every 7 off the page. Runs of mask
/// glyphs follow the same two lengths.
pub const MIN_ANYWHERE: usize = 4;

/// Mask glyphs Chrome draws for password fields (Linux and Windows, macOS).
pub const CHROME_MASKS: [char; 2] = ['•', '●'];

/// Glyphs a value made only of which counts as masked: Chrome's and the ones
/// pages draw themselves.
pub fn is_mask(c: char) -> bool {
    matches!(c, '•' | '●' | '∙' | '⏺' | '*')
}

/// A value made of mask glyphs only: Chrome shows a password field's value
/// as one glyph per character.
pub fn is_masked(value: &str) -> bool {
    !value.is_empty() && value.chars().all(is_mask)
}

/// The text to cut out of one string.
#[derive(Debug, Default, Clone, Copy)]
pub struct Needles<'a> {
    /// Whitespace-collapsed values, cut wherever they appear.
    pub anywhere: &'a [String],
    /// Whitespace-collapsed values, cut only as whole words.
    pub words: &'a [String],
    /// Glyphs whose runs are cut…
    pub masks: &'a [char],
    /// …when at least this long (0: none).
    pub min_mask_run: usize,
    /// Fingerprints of typed values, cut wherever they appear.
    pub typed: Option<&'a Typed>,
    /// The line breaks inside what is cut stay (lines joined to be cut).
    pub keep_lines: bool,
}

impl Needles<'_> {
    fn is_empty(&self) -> bool {
        self.anywhere.is_empty()
            && self.words.is_empty()
            && (self.masks.is_empty() || self.min_mask_run == 0)
            && self.typed.is_none_or(Typed::is_empty)
    }
}

/// `s` with every typed value cut out, or `None` when there is none.
pub fn scrub_typed(s: &str, typed: &Typed) -> Option<String> {
    scrub(s, &Needles { typed: Some(typed), ..Needles::default() })
}

/// [`scrub_typed`] of lines joined by `\n`, which stay as many: a value
/// printed over two lines is cut from both.
pub fn scrub_typed_lines(s: &str, typed: &Typed) -> Option<String> {
    scrub(s, &Needles { typed: Some(typed), keep_lines: true, ..Needles::default() })
}

/// `s` with every secret cut out, or `None` when there is nothing to cut.
pub fn scrub(s: &str, needles: &Needles) -> Option<String> {
    let mut out = scrub_once(s, needles)?;
    // A typed value right after another cut one (`[secret]CNRY…`, two
    // texts printed as one) starts a word only once the first is cut.
    if let Some(typed) = needles.typed.filter(|t| !t.is_empty()) {
        let only = Needles { typed: Some(typed), keep_lines: needles.keep_lines, ..Needles::default() };
        for _ in 0..4 {
            match scrub_once(&out, &only) {
                Some(again) => out = again,
                None => break,
            }
        }
    }
    Some(out)
}

fn scrub_once(s: &str, needles: &Needles) -> Option<String> {
    if s.is_empty() || needles.is_empty() {
        return None;
    }
    let hay = Collapsed::new(s);
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for n in needles.anywhere {
        find_all(&hay.text, n, false, &mut spans);
    }
    for n in needles.words {
        find_all(&hay.text, n, true, &mut spans);
    }
    if needles.min_mask_run > 0 {
        mask_runs(&hay.text, needles.masks, needles.min_mask_run, &mut spans);
    }
    if let Some(t) = needles.typed {
        t.find(&hay.text, &mut spans);
    }
    if spans.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    let mut i = 0;
    while i < spans.len() {
        let (start, mut end) = spans[i];
        // Overlapping and touching spans become one placeholder.
        while i + 1 < spans.len() && spans[i + 1].0 <= end {
            end = end.max(spans[i + 1].1);
            i += 1;
        }
        let (from, to) = hay.original(start, end);
        out.push_str(&s[at..from]);
        out.push_str(PLACEHOLDER);
        if needles.keep_lines {
            out.extend(s[from..to].matches('\n').map(|_| '\n'));
        }
        at = to;
        i += 1;
    }
    out.push_str(&s[at..]);
    Some(out)
}

/// Keeps `spans` in order as they come (a handful per string: the std sort
/// would cost the Wasm kilobytes for nothing).
pub(super) fn add_span(spans: &mut Vec<(usize, usize)>, span: (usize, usize)) {
    let at = spans.iter().position(|&s| s > span).unwrap_or(spans.len());
    spans.insert(at, span);
}

/// Every occurrence, overlapping ones too (`aaaa` in `aaaaa` is cut whole).
fn find_all(hay: &str, needle: &str, whole_word: bool, spans: &mut Vec<(usize, usize)>) {
    if needle.is_empty() {
        return;
    }
    let mut from = 0;
    while let Some(pos) = hay[from..].find(needle) {
        let start = from + pos;
        let end = start + needle.len();
        let alone = !hay[..start].chars().next_back().is_some_and(char::is_alphanumeric)
            && !hay[end..].chars().next().is_some_and(char::is_alphanumeric);
        if !whole_word || alone {
            add_span(spans, (start, end));
        }
        from = start + hay[start..].chars().next().map_or(1, char::len_utf8);
    }
}

fn mask_runs(hay: &str, masks: &[char], min: usize, spans: &mut Vec<(usize, usize)>) {
    let mut run: Option<(usize, usize)> = None;
    for (i, c) in hay.char_indices().chain(std::iter::once((hay.len(), ' '))) {
        if i < hay.len() && masks.contains(&c) {
            let (start, count) = run.unwrap_or((i, 0));
            run = Some((start, count + 1));
        } else if let Some((start, count)) = run.take() {
            if count >= min {
                add_span(spans, (start, i));
            }
        }
    }
}

/// A string as printed (whitespace runs collapsed, invisible characters
/// dropped), and the way back to the original's byte offsets.
struct Collapsed<'a> {
    text: std::borrow::Cow<'a, str>,
    /// Original offset of each byte of `text`; empty when `text` is the original.
    map: Vec<usize>,
}

impl<'a> Collapsed<'a> {
    fn new(s: &'a str) -> Self {
        let irregular = s.chars().zip(s.chars().skip(1)).any(|(a, b)| a.is_whitespace() && b.is_whitespace())
            || s.chars().any(|c| c.is_whitespace() && c != ' ' || invisible(c));
        if !irregular {
            return Collapsed { text: s.into(), map: Vec::new() };
        }
        let mut text = String::with_capacity(s.len());
        let mut map = Vec::with_capacity(s.len());
        let mut in_space = false;
        for (i, c) in s.char_indices().filter(|&(_, c)| !invisible(c)) {
            if c.is_whitespace() {
                if !in_space {
                    text.push(' ');
                    map.push(i);
                }
                in_space = true;
            } else {
                text.push(c);
                map.extend(std::iter::repeat(i).take(c.len_utf8()));
                in_space = false;
            }
        }
        Collapsed { text: text.into(), map }
    }

    /// The original byte range of `text[start..end]`; a span never starts
    /// or ends inside a collapsed run (values are trimmed, masks are not
    /// whitespace), so its ends are characters copied as they were (the
    /// invisible characters between them go with the span).
    fn original(&self, start: usize, end: usize) -> (usize, usize) {
        if self.map.is_empty() {
            return (start, end);
        }
        let last = self.text[..end].chars().next_back().map_or(0, char::len_utf8);
        (self.map[start], self.map[end - last] + last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anywhere(s: &str, values: &[&str]) -> String {
        let v: Vec<String> = values.iter().map(|x| collapse(x)).collect();
        scrub(s, &Needles { anywhere: &v, ..Needles::default() }).unwrap_or_else(|| s.to_string())
    }

    #[test]
    fn a_value_is_cut_wherever_it_appears_and_the_placeholder_says_no_length() {
        assert_eq!(anywhere("Code CNRY1234 CNRY1234", &["CNRY1234"]), "Code [secret] [secret]");
        assert_eq!(anywhere("Pay with 4111111111111111", &["4111111111111111"]), "Pay with [secret]");
        assert_eq!(anywhere("x4111111111111111y", &["4111111111111111"]), "x[secret]y");
        assert_eq!(anywhere("ab", &["abcdefgh"]), "ab");
        assert_eq!(anywhere("[secret]", &["abcd"]), "[secret]");
    }

    #[test]
    fn whitespace_in_a_value_matches_any_whitespace() {
        assert_eq!(anywhere("note line1 line2 end", &["line1\n   line2"]), "note [secret] end");
        assert_eq!(anywhere("a\n  line1\tline2", &["line1 line2"]), "a\n  [secret]");
        assert_eq!(anywhere("é line1  line2 ü", &["line1 line2"]), "é [secret] ü");
        assert_eq!(anywhere("x CNRY\u{200B}1234 y", &["CNRY1234"]), "x [secret] y");
        assert_eq!(anywhere("x CNRY1234 y", &["CNRY\u{AD}1234"]), "x [secret] y");
    }

    #[test]
    fn overlapping_values_become_one_placeholder() {
        assert_eq!(anywhere("abcdef", &["abcd", "cdef"]), "[secret]");
        assert_eq!(anywhere("aaaaa", &["aaaa"]), "[secret]");
        assert_eq!(anywhere("4111 1111 1111 1111", &["4111", "1111"]), "[secret] [secret] [secret] [secret]");
    }

    #[test]
    fn short_values_only_as_whole_words() {
        let v = vec!["7".to_string(), "a b".to_string()];
        let n = Needles { words: &v, ..Needles::default() };
        assert_eq!(scrub("Short 7 days", &n).as_deref(), Some("Short [secret] days"));
        assert_eq!(scrub("Step 17 of a b", &n).as_deref(), Some("Step 17 of [secret]"));
        assert_eq!(scrub("a bc 77", &n), None);
    }

    #[test]
    fn mask_runs_of_a_plausible_length() {
        let n = Needles { masks: &CHROME_MASKS, min_mask_run: MIN_ANYWHERE, ..Needles::default() };
        assert_eq!(scrub("Unlock ••••••••", &n).as_deref(), Some("Unlock [secret]"));
        assert_eq!(scrub("Unlock ●●●●", &n).as_deref(), Some("Unlock [secret]"));
        assert_eq!(scrub("Home • About ••• x", &n), None);
        let near = Needles { masks: &CHROME_MASKS, min_mask_run: 1, ..Needles::default() };
        assert_eq!(scrub("Unlock ••", &near).as_deref(), Some("Unlock [secret]"));
        assert!(is_masked("•••") && is_masked("***") && !is_masked("") && !is_masked("•a"));
    }
}
