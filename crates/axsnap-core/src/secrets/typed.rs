//! Echoes of what the person typed into secret fields: a sign-in page that
//! says "Wrong password: hunter2", a card number copied into a summary, a
//! password put into the URL by a form sent with GET. The page may show the
//! echo after the field was cleared or turned into text, when the value is in
//! no tree the core is given; so the extension keeps fingerprints of each
//! value typed into a secret field, for the document, and the core cuts out
//! any text that has one of them.
//!
//! A fingerprint is SipHash-2-4, keyed by a random per-tab salt, of a value
//! normalised as [`normalise`] says (whitespace runs as one space, invisible
//! characters dropped, trimmed, ASCII letters lower-cased), plus the value's
//! digits alone when it is a number written with separators
//! (`5500 0000 0000 0004` → `5500000000000004`). It travels as
//! `t<chars>.<hex>` or `d<digits>.<hex>`: the length tells which windows of a
//! text to hash, and never reaches any output (the placeholder says nothing
//! of it). The extension computes the same fingerprints in the page
//! (`extension/worker/typed.js`), so a value never leaves it.
//!
//! Matching: a text is normalised the same way (as printed, ASCII
//! lower-cased); each window of a fingerprint's length that does not start
//! with a space is hashed and compared, wherever it starts: texts printed
//! together may glue an echo to the word before it (`Wrong passwordhunter2`);
//! each run of digit groups joined by single separators (`-`, `.`, `/`,
//! space) is read as its digits, and each window of a fingerprint's digit
//! count is hashed and compared. Values shorter than
//! [`MIN_TYPED`] characters are not fingerprinted (a `7` is not cut from
//! every page), nor values longer than [`MAX_TYPED`] (each window is hashed
//! whole).

/// Shortest value fingerprinted (the `MIN_ANYWHERE` of typed values).
pub const MIN_TYPED: usize = 4;
/// Longest value fingerprinted, in characters.
pub const MAX_TYPED: usize = 256;
/// Most fingerprints one snapshot takes.
const MAX_PRINTS: usize = 512;

/// The fingerprints of the values typed into a tab's secret fields, and the
/// tab's salt. `{salt: "<32 hex digits>", prints: ["t7.<16 hex>", …]}`.
#[derive(Clone, Default)]
pub struct Typed {
    key: (u64, u64),
    /// (characters, hash) of normalised values.
    text: Vec<(usize, u64)>,
    /// (digits, hash) of digit runs.
    digits: Vec<(usize, u64)>,
}

/// Never prints a fingerprint.
impl std::fmt::Debug for Typed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Typed({} prints)", self.text.len() + self.digits.len())
    }
}

impl Typed {
    /// No fingerprints yet, with the salt of 32 hex digits (another salt
    /// is read as zero: fingerprints made with it simply never match).
    pub fn new(salt: &str) -> Typed {
        let half = |r: std::ops::Range<usize>| salt.get(r).and_then(|h| u64::from_str_radix(h, 16).ok()).unwrap_or(0);
        Typed { key: (half(0..16), half(16..32)), ..Typed::default() }
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && self.digits.is_empty()
    }

    /// Changes whenever the set of fingerprints does (prints are only added,
    /// and a new document starts a new set), so a caller can tell whether
    /// what it scrubbed before needs scrubbing again.
    pub fn version(&self) -> (usize, u64) {
        let all = self.text.iter().chain(&self.digits);
        (self.text.len() + self.digits.len(), all.fold(self.key.0, |acc, &(n, h)| acc ^ h.rotate_left(n as u32)))
    }

    /// Adds fingerprints as the extension gives them; malformed ones are skipped.
    pub fn add<S: AsRef<str>>(&mut self, prints: &[S]) {
        for p in prints {
            let p = p.as_ref();
            let parsed = p.split_once('.').and_then(|(head, hex)| {
                let len = head.get(1..)?.parse::<usize>().ok()?;
                Some((head.as_bytes()[0], (len, u64::from_str_radix(hex, 16).ok()?)))
            });
            let list = match parsed {
                Some((b't', v)) => (&mut self.text, v),
                Some((b'd', v)) => (&mut self.digits, v),
                _ => continue,
            };
            if list.0.len() + 1 < MAX_PRINTS && !list.0.contains(&list.1) && (MIN_TYPED..=MAX_TYPED).contains(&list.1 .0) {
                list.0.push(list.1);
            }
        }
    }

    /// The fingerprints of one value, as the extension makes them (for tests
    /// and the fuzzer; the extension makes its own in the page).
    pub fn prints_of(&self, value: &str) -> Vec<String> {
        let mut out = Vec::new();
        let text = normalise(value);
        let chars = text.chars().count();
        if (MIN_TYPED..=MAX_TYPED).contains(&chars) {
            out.push(format!("t{chars}.{:016x}", self.hash(text.as_bytes())));
        }
        // Digits alone also when typed so: the page may group them.
        if let Some(d) = digits_of(&text).filter(|d| (MIN_TYPED..=MAX_TYPED).contains(&d.len())) {
            out.push(format!("d{}.{:016x}", d.len(), self.hash(d.as_bytes())));
        }
        out
    }

    // Out of line: the core is built for speed, and copies of SipHash's rounds would cost the .wasm kilobytes.
    #[inline(never)]
    fn hash(&self, bytes: &[u8]) -> u64 {
        #[allow(deprecated)] // SipHash-2-4 itself: what the extension computes in the page
        let mut h = std::hash::SipHasher::new_with_keys(self.key.0, self.key.1);
        std::hash::Hasher::write(&mut h, bytes);
        std::hash::Hasher::finish(&h)
    }

    /// Adds the byte spans of `hay` (a text as printed: whitespace runs
    /// collapsed, invisible characters dropped) that hold a typed value.
    #[inline(never)]
    pub fn find(&self, hay: &str, spans: &mut Vec<(usize, usize)>) {
        if self.is_empty() || hay.len() < MIN_TYPED {
            return;
        }
        // ASCII lower-casing keeps every byte offset.
        let lower = hay.to_ascii_lowercase();
        if !self.text.is_empty() {
            self.find_text(&lower, spans);
        }
        if !self.digits.is_empty() {
            self.find_digits(&lower, spans);
        }
    }

    fn find_text(&self, hay: &str, spans: &mut Vec<(usize, usize)>) {
        let mut lengths: Vec<usize> = Vec::new();
        for &(len, _) in &self.text {
            if !lengths.contains(&len) {
                lengths.push(len);
            }
        }
        let bounds: Vec<usize> = hay.char_indices().map(|(i, _)| i).chain([hay.len()]).collect();
        let chars = bounds.len() - 1;
        for (k, c) in hay.chars().enumerate() {
            if c == ' ' {
                continue;
            }
            for &len in lengths.iter().filter(|&&len| k + len <= chars) {
                let (from, to) = (bounds[k], bounds[k + len]);
                let h = self.hash(&hay.as_bytes()[from..to]);
                if self.text.contains(&(len, h)) {
                    super::scrub::add_span(spans, (from, to));
                }
            }
        }
    }

    fn find_digits(&self, hay: &str, spans: &mut Vec<(usize, usize)>) {
        let mut lengths: Vec<usize> = Vec::new();
        for &(len, _) in &self.digits {
            if !lengths.contains(&len) {
                lengths.push(len);
            }
        }
        let b = hay.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if !b[i].is_ascii_digit() {
                i += 1;
                continue;
            }
            // One run: digit groups joined by single separators; its digits and where each is.
            let (mut digits, mut at) = (Vec::new(), Vec::new());
            while i < b.len() {
                if b[i].is_ascii_digit() {
                    digits.push(b[i]);
                    at.push(i);
                } else if !(is_separator(b[i]) && i + 1 < b.len() && b[i + 1].is_ascii_digit() && b[i - 1].is_ascii_digit()) {
                    break;
                }
                i += 1;
            }
            // Every window of a fingerprint's digit count: texts printed
            // together may glue other digits to either end.
            for &len in lengths.iter().filter(|&&len| len <= digits.len()) {
                for p in 0..=digits.len() - len {
                    if self.digits.contains(&(len, self.hash(&digits[p..p + len]))) {
                        super::scrub::add_span(spans, (at[p], at[p + len - 1] + 1));
                    }
                }
            }
        }
    }
}

fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'-' | b'.' | b'/')
}

/// A value as fingerprinted: as printed (whitespace runs as one space,
/// invisible characters dropped), trimmed, ASCII letters lower-cased.
pub fn normalise(value: &str) -> String {
    crate::words::squash(value).to_ascii_lowercase()
}

/// The digits of a number written with single separators between digit
/// groups (`5500 0000-0000 0004`), or `None` for anything else.
fn digits_of(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let ok = b.first().is_some_and(u8::is_ascii_digit)
        && b.last().is_some_and(u8::is_ascii_digit)
        && b.iter().zip(b.iter().skip(1)).all(|(x, y)| x.is_ascii_digit() || is_separator(*x) && y.is_ascii_digit())
        && b.iter().all(|c| c.is_ascii_digit() || is_separator(*c));
    ok.then(|| text.chars().filter(char::is_ascii_digit).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key 00..0f of the SipHash paper: k0 and k1 read little-endian.
    const SALT: &str = "07060504030201000f0e0d0c0b0a0908";

    fn typed(values: &[&str]) -> Typed {
        let mut t = Typed::new(SALT);
        for v in values {
            let p = t.prints_of(v);
            t.add(&p);
        }
        t
    }

    #[test]
    fn the_hash_is_siphash_2_4() {
        // The reference vector of the SipHash paper: key 00..0f, message 00..0e.
        let t = Typed::new(SALT);
        let msg: Vec<u8> = (0..15).collect();
        assert_eq!(t.hash(&msg), 0xa129ca6149be45e5);
    }

    #[test]
    fn prints_are_what_the_extension_makes() {
        // The same vectors are checked against the page's code in tests/unit/secrets.test.mjs.
        let t = Typed::new(SALT);
        assert_eq!(t.prints_of("  Hunter2 "), vec!["t7.bc340a75206ba291".to_string()]);
        assert_eq!(t.prints_of("5500 0000 0000 0004"), vec!["t19.e6db2c213f9f25ff".to_string(), "d16.0d69de6ea70bfda9".to_string()]);
        assert_eq!(t.prints_of("1234").len(), 2);
        assert!(t.prints_of("abc").is_empty());
        assert!(t.prints_of(&"x".repeat(MAX_TYPED + 1)).is_empty());
    }

    fn cut(s: &str, t: &Typed) -> String {
        crate::secrets::scrub_typed(s, t).unwrap_or_else(|| s.to_string())
    }

    #[test]
    fn an_echo_is_cut_in_any_case_and_as_printed() {
        let t = typed(&["hunter2"]);
        assert_eq!(cut("Wrong password: hunter2", &t), "Wrong password: [secret]");
        assert_eq!(cut("Wrong password: HUNTER2.", &t), "Wrong password: [secret].");
        assert_eq!(cut("/login?user=ada&pw=hunter2&x=1", &t), "/login?user=ada&pw=[secret]&x=1");
        assert_eq!(cut("'hunter2' twice: hunter2", &t), "'[secret]' twice: [secret]");
        assert_eq!(cut("you typed hun\u{200B}ter2  here", &t), "you typed [secret]  here");
        assert_eq!(cut("hunter2s", &t), "[secret]s");
        // Glued to the word before it, as texts printed together may be: a
        // word that holds a typed value whole shows the value.
        assert_eq!(cut("xhunter2 hunter", &t), "x[secret] hunter");
        assert_eq!(cut("Wrong passwordHunter2!", &t), "Wrong password[secret]!");
        // Two values glued together are one cut.
        let two = typed(&["hunter2", "open-sesame"]);
        assert_eq!(cut("You typed hunter2open-sesame!", &two), "You typed [secret]!");
        let spaced = typed(&["  correct  horse "]);
        assert_eq!(cut("Phrase: Correct\nhorse!", &spaced), "Phrase: [secret]!");
    }

    #[test]
    fn the_placeholder_says_nothing_of_the_length() {
        let t = typed(&["abcd", "a-much-longer-secret"]);
        assert_eq!(cut("1 abcd 2 a-much-longer-secret 3", &t), "1 [secret] 2 [secret] 3");
    }

    #[test]
    fn a_number_is_cut_whatever_its_separators() {
        for typed_as in ["5500 0000 0000 0004", "5500000000000004", "5500-0000-0000-0004"] {
            let t = typed(&[typed_as]);
            assert_eq!(cut("Card 5500 0000 0000 0004 was declined", &t), "Card [secret] was declined", "{typed_as}");
            assert_eq!(cut("Card 5500-0000-0000-0004, exp 12/26", &t), "Card [secret], exp 12/26", "{typed_as}");
            assert_eq!(cut("ref5500000000000004x", &t), "ref[secret]x", "{typed_as}");
            assert_eq!(cut("Order 2024 5500 0000 0000 0004", &t), "Order 2024 [secret]", "{typed_as}");
            assert_eq!(cut("Card ending 0004", &t), "Card ending 0004", "{typed_as}");
            // Texts printed together: other digits glued to either end.
            assert_eq!(cut("You typed 5500 0000 0000 000410", &t), "You typed [secret]10", "{typed_as}");
        }
    }

    #[test]
    fn lines_of_a_diff_are_cut_one_by_one() {
        let t = typed(&["hunter2"]);
        let diff = "- text \"Signing in…\"\n+ alert \"Wrong password: hunter2\"\n~ textbox A3 \"Password\" secret=password";
        assert_eq!(cut(diff, &t), diff.replace("hunter2", "[secret]"));
    }

    #[test]
    fn nothing_is_cut_without_prints_or_with_another_salt() {
        assert_eq!(cut("hunter2", &Typed::new(SALT)), "hunter2");
        let mut other = Typed::new("ffffffffffffffffffffffffffffffff");
        other.add(&typed(&["hunter2"]).prints_of("hunter2"));
        assert_eq!(cut("hunter2", &other), "hunter2");
        let mut bad = Typed::new(SALT);
        bad.add(&["", "x", "t.12", "t7.zz", "q7.0000000000000000", "t2.0000000000000000"]);
        assert!(bad.is_empty());
    }
}
