//! Which field is secret, decided from what the extension saw of it in the
//! DOM (its `FieldFacts`) and from its label. The rules, in order:
//!
//! 1. What the page declares: `autocomplete` (`new-password`,
//!    `current-password`, `one-time-code`, `cc-*` except the card holder's
//!    name and the card type), then `type=password`. A password token on a
//!    combobox that is not `type=password` (`role=combobox`,
//!    `aria-autocomplete`, a `list`) is the anti-autofill habit of
//!    component libraries (Ant Design's Select and AutoComplete), not a
//!    declaration: the field is judged by the rules below, as if it had no
//!    `autocomplete`. A password is never a combobox; a show-password toggle
//!    that turns it into text keeps its reason by rule 2.
//! 2. What the extension remembers: a field found secret earlier in the same
//!    document stays secret whatever its type became (show-password toggles).
//! 3. Masking by CSS: a computed `-webkit-text-security` other than `none`.
//! 4. The field's identifiers (`name`, `id`, and the card attributes of
//!    payment libraries), in any order and spelling: card numbers, security
//!    codes and expiry dates; one-time codes; passwords.
//! 5. Its label (accessible name, placeholder, `aria-label`, `title`): the
//!    words of a card number or security code; an expiry date or security
//!    code only on a numeric field; a password.
//!
//! Identifiers and labels are read as words: split at anything that is not a
//! letter or digit, at camelCase humps and between letters and digits, and
//! lowercased (`card[exp_month]`, `cardExpMonth` and `card-exp-month` are all
//! `card exp month`). A pattern matches a run of whole words
//! (`cc-number` → `ccnumber`), optionally followed inside the last word by
//! a known tail (`expirydate` = `expiry` + `date`), so `cardnotes` is not
//! `cardno`. False positives are kept out by context: a weak pattern (an
//! expiry date, a security code) does not count beside words of coupons,
//! passports or memberships, card words do not count beside the holder's
//! name, and `card` alone never counts (a "gift card message" is not a card
//! number). A wrong "secret" only hides a value; a wrong "not secret" leaks
//! one, so the rules lean to secret where a field's purpose is plain.

use super::{FieldFacts, SecretReason};

/// The reason `facts` (with the field's `label`) make a field secret, if any.
pub fn reason(facts: &FieldFacts, label: &str) -> Option<SecretReason> {
    let ty = facts.attr("type").trim().to_ascii_lowercase();
    let css_masked = !matches!(facts.text_security.trim(), "" | "none");
    if !takes_text(&facts.tag, &ty) {
        // A masked editable element, or a field that was secret before.
        return facts.reason.or(css_masked.then_some(SecretReason::Password));
    }
    let declared = [facts.attr("autocomplete"), facts.attr("x-autocompletetype"), facts.attr("autocompletetype")];
    let anti_autofill = |r: &SecretReason| {
        matches!(r, SecretReason::NewPassword | SecretReason::CurrentPassword) && ty != "password" && combobox(facts)
    };
    if let Some(r) = declared.iter().find_map(|a| from_autocomplete(a)).filter(|r| !anti_autofill(r)) {
        return Some(r);
    }
    if ty == "password" {
        return Some(SecretReason::Password);
    }
    if let Some(r) = facts.reason {
        return Some(r);
    }
    if css_masked {
        return Some(SecretReason::Password);
    }
    // An address, a search or an email field is what its type says.
    if matches!(ty.as_str(), "email" | "search" | "url") {
        return None;
    }
    let ids = Words::of([facts.attr("name"), facts.attr("id")]);
    let card_attrs = Words::of(CARD_ATTRIBUTES.iter().map(|a| facts.attr(a)));
    if card_identifier(&ids) || card_attribute(&card_attrs) {
        return Some(SecretReason::CreditCard);
    }
    if ids.has_any(OTC_WORDS) {
        return Some(SecretReason::OneTimeCode);
    }
    if password_words(&ids) {
        return Some(SecretReason::Password);
    }
    let placeholder = facts.attr("placeholder");
    let label = Words::of([label, placeholder, facts.attr("aria-label"), facts.attr("title")]);
    if card_label(&label, numeric(facts, &ty)) || card_placeholder(placeholder) {
        return Some(SecretReason::CreditCard);
    }
    if password_words(&label) {
        return Some(SecretReason::Password);
    }
    None
}

/// Is this value a payment card number, whatever its field is called? 13 to
/// 19 digits, in groups joined by single spaces or dashes, that pass the
/// Luhn check and start as card numbers do (a major industry identifier of
/// 2 to 6: Mastercard's 2-series, American Express, Diners and JCB, Visa,
/// Mastercard, Discover, UnionPay, Maestro). An order number or an id of
/// that shape still passes one time in ten; the extension asks this only of
/// editable fields, where a wrong "secret" hides a value the person typed.
pub fn card_number(value: &str) -> bool {
    let v = value.trim().as_bytes();
    let grouped = v.iter().zip(v.iter().skip(1)).all(|(a, b)| a.is_ascii_digit() || matches!(a, b' ' | b'-') && b.is_ascii_digit())
        && v.iter().all(|c| c.is_ascii_digit() || matches!(c, b' ' | b'-'));
    let digits: Vec<u32> = v.iter().filter(|c| c.is_ascii_digit()).map(|&c| u32::from(c - b'0')).collect();
    if !grouped || !(13..=19).contains(&digits.len()) || !(2..=6).contains(&digits[0]) || !v[0].is_ascii_digit() {
        return false;
    }
    let sum: u32 = digits.iter().rev().enumerate().map(|(i, &d)| if i % 2 == 1 { if d * 2 > 9 { d * 2 - 9 } else { d * 2 } } else { d }).sum();
    sum.is_multiple_of(10)
}

/// Does this element take typed text? An unknown tag (facts given without
/// one, as the CLI may) is taken to.
fn takes_text(tag: &str, ty: &str) -> bool {
    match tag {
        "" | "textarea" => true,
        "input" => !matches!(
            ty,
            "hidden" | "checkbox" | "radio" | "submit" | "reset" | "button" | "image" | "file" | "range" | "color"
        ),
        _ => false,
    }
}

/// Does the field pick from a list as it is typed in (a combobox)?
fn combobox(facts: &FieldFacts) -> bool {
    let role = facts.attr("role").to_ascii_lowercase();
    let complete = facts.attr("aria-autocomplete").trim().to_ascii_lowercase();
    role.split_whitespace().any(|r| r == "combobox")
        || matches!(complete.as_str(), "list" | "both" | "inline")
        || !facts.attr("list").trim().is_empty()
}

fn from_autocomplete(value: &str) -> Option<SecretReason> {
    let tokens: Vec<String> = value.split_whitespace().map(str::to_ascii_lowercase).collect();
    let has = |t: &str| tokens.iter().any(|x| x == t);
    if has("new-password") {
        Some(SecretReason::NewPassword)
    } else if has("current-password") {
        Some(SecretReason::CurrentPassword)
    } else if has("one-time-code") {
        Some(SecretReason::OneTimeCode)
    } else if tokens.iter().any(|t| t.starts_with("cc-") && !CARD_NOT_SECRET.contains(&t.as_str())) {
        Some(SecretReason::CreditCard)
    } else {
        None
    }
}

/// `cc-*` autocomplete tokens that name the holder or the brand: not secret.
const CARD_NOT_SECRET: &[&str] = &["cc-name", "cc-given-name", "cc-additional-name", "cc-family-name", "cc-type"];

/// Attributes of payment libraries (Stripe.js v2, Braintree, Adyen, Recurly)
/// whose values name card fields: `data-stripe="number"`.
const CARD_ATTRIBUTES: [&str; 4] = ["data-stripe", "data-braintree-name", "data-encrypted-name", "data-recurly"];

/// Card numbers, security codes and expiry dates, whatever else is near.
const CARD_WORDS: &[&str] = &[
    "ccnumber", "ccnum", "ccno", "ccnr", "cardnumber", "cardnum", "cardno", "cardnr", "creditcard", "debitcard",
    "cccvc", "cccvv", "cccsc", "cccvn", "ccexp", "ccexpiry", "ccexpiration", "cardcvc", "cardcvv", "cardcsc",
    "cardcvn", "cardcode", "cardexp", "cardexpiry", "cardexpiration", "cardverification", "cardsecuritycode",
    "ccsecuritycode", "cvc", "cvv", "csc", "cvn", "ccv",
];
/// Long enough to count inside any word (`newcardnumber`).
const CARD_ANYWHERE: &[&str] = &["cardnumber", "creditcardnum", "cardverification", "cardsecuritycode"];
/// Expiry dates: card data unless the words around say otherwise.
const CARD_WEAK: &[&str] = &["expiry", "expiration", "expdate", "expmonth", "expyear", "expmm", "expyy", "validthru"];
/// Card data only beside a card word.
const CARD_CONTEXT_ONLY: &[&str] = &["exp", "securitycode", "number", "code"];
const CARD_CONTEXT: &[&str] = &["card", "cc", "credit", "debit", "payment"];
/// Words that make a card-like word mean something else: the holder, a
/// coupon, a passport, a membership.
const NOT_CARD: &[&str] = &[
    "name", "holder", "cardholder", "owner", "issuer", "bank", "zip", "postal", "address", "country",
    "coupon", "promo", "promotion", "voucher", "discount", "offer", "passport", "license", "licence", "permit",
    "document", "warranty", "subscription", "trial", "domain", "certificate", "product", "membership", "member",
    "library", "loyalty", "reward", "rewards", "student", "identity", "insurance", "health", "employee", "message",
    "note", "notes", "password",
];
/// What may follow a pattern inside its last word: `expirydate`, `cvv2`.
const TAILS: &[&str] = &[
    "month", "year", "date", "mmyy", "mm", "yy", "yyyy", "field", "input", "box", "value", "number", "code", "confirm",
    "confirmation", "again", "repeat",
];

const OTC_WORDS: &[&str] = &[
    "otp", "totp", "hotp", "onetimecode", "onetimepasscode", "onetimepassword", "mfacode", "mfatoken", "2fa",
    "twofactor", "verificationcode", "smscode",
];

const PASSWORD_WORDS: &[&str] = &[
    "password", "passwd", "passwort", "passcode", "passphrase", "pwd", "pword", "motdepasse", "contraseña", "senha",
    "пароль", "Пароль", "密码", "パスワード",
];
/// Only as a word of its own: `pass` (Drupal), `pass1` (WordPress), `pw`.
const PASSWORD_EXACT: &[&str] = &["pass", "pw"];
const NOT_PASSWORD: &[&str] = &[
    "email", "mail", "username", "hint", "question", "reminder", "strength", "meter", "policy", "requirements",
    "rules", "passwordless",
];

fn card_identifier(ids: &Words) -> bool {
    if ids.has_any(NOT_CARD) {
        return false;
    }
    let context = ids.has_any(CARD_CONTEXT);
    ids.has_any(CARD_WORDS)
        || CARD_ANYWHERE.iter().any(|p| ids.joined.contains(p))
        || ids.has_any(CARD_WEAK)
        || context && ids.has_any(CARD_CONTEXT_ONLY)
}

/// Values of payment libraries' card attributes: the attribute is the context.
fn card_attribute(words: &Words) -> bool {
    !words.is_empty() && !words.has_any(NOT_CARD) && (words.has_any(CARD_WORDS) || words.has_any(CARD_WEAK) || words.has_any(CARD_CONTEXT_ONLY))
}

fn card_label(label: &Words, numeric: bool) -> bool {
    if label.has_any(NOT_CARD) {
        return false;
    }
    let strong = label.has_any(CARD_WORDS) || CARD_ANYWHERE.iter().any(|p| label.joined.contains(p));
    let weak = label.has_any(CARD_WEAK) || label.has_any(CARD_CONTEXT) && label.has_any(CARD_CONTEXT_ONLY) || label.is_exactly(&["mm", "yy"]) || label.is_exactly(&["mm", "yyyy"]);
    strong || weak && numeric
}

/// A placeholder shaped like a card number (`1234 1234 1234 1234`,
/// `•••• •••• •••• ••••`) or an expiry (`MM / YY`).
fn card_placeholder(placeholder: &str) -> bool {
    let bare: Vec<char> = placeholder.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
    let number = (13..=19).contains(&bare.len())
        && (bare.iter().all(|c| c.is_ascii_digit()) || bare.iter().all(|&c| c == bare[0] && matches!(c, 'x' | 'X' | '•' | '*' | '●')));
    let words = Words::of([placeholder]);
    number || words.is_exactly(&["mm", "yy"]) || words.is_exactly(&["mm", "yyyy"])
}

fn password_words(words: &Words) -> bool {
    !words.has_any(NOT_PASSWORD)
        && !words.joined.contains("passwordless")
        && (words.has_any(PASSWORD_WORDS)
            // Distinctive enough inside any word (`newpassword`, `请输入密码`).
            || PASSWORD_WORDS.iter().any(|p| p.len() >= 6 && words.joined.contains(p))
            || words.list.iter().any(|w| PASSWORD_EXACT.contains(&w.as_str())))
}

/// Does the field take digits (where an expiry date or security code lives)?
fn numeric(facts: &FieldFacts, ty: &str) -> bool {
    let mode = facts.attr("inputmode").trim().to_ascii_lowercase();
    let pattern = facts.attr("pattern");
    matches!(mode.as_str(), "numeric" | "decimal" | "tel")
        || matches!(ty, "tel" | "number")
        || pattern.contains("\\d")
        || pattern.contains("0-9")
}

/// The words of identifiers or labels, lowercased, in order.
#[derive(Debug, Default)]
struct Words {
    list: Vec<String>,
    joined: String,
}

impl Words {
    fn of<'a>(parts: impl IntoIterator<Item = &'a str>) -> Words {
        let mut list = Vec::new();
        for part in parts {
            split_words(part, &mut list);
        }
        let mut joined = String::new();
        for w in &list {
            joined.push_str(w);
        }
        Words { list, joined }
    }

    fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    fn is_exactly(&self, words: &[&str]) -> bool {
        self.list.len() == words.len() && self.list.iter().zip(words).all(|(a, b)| a == b)
    }

    /// Does a run of whole words spell one of `patterns`, optionally followed
    /// by tails inside its last word?
    fn has_any(&self, patterns: &[&str]) -> bool {
        (0..self.list.len()).any(|start| {
            let mut run = String::new();
            for w in &self.list[start..] {
                run.push_str(w);
                if patterns.iter().any(|p| run.strip_prefix(p).is_some_and(only_tails)) {
                    return true;
                }
                if !patterns.iter().any(|p| p.starts_with(run.as_str())) {
                    return false;
                }
            }
            false
        })
    }
}

/// Nothing, or known tails one after another (`monthyear`).
fn only_tails(mut rest: &str) -> bool {
    for _ in 0..4 {
        if rest.is_empty() {
            return true;
        }
        match TAILS.iter().filter(|t| rest.starts_with(*t)).max_by_key(|t| t.len()) {
            Some(t) => rest = &rest[t.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Splits at non-alphanumerics, camelCase humps (`cardNumber`, `CVCCode` →
/// `cvc code`) and letter/digit changes (`cvv2`). Case is ASCII's only:
/// Unicode's case tables would cost the Wasm more than the few non-English
/// words they would fold, which are listed as pages write them.
fn split_words(s: &str, out: &mut Vec<String>) {
    let chars: Vec<char> = s.chars().collect();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            flush(&mut word, out);
            continue;
        }
        if let Some(&prev) = i.checked_sub(1).and_then(|p| chars.get(p)) {
            let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            let hump = prev.is_ascii_lowercase() && c.is_ascii_uppercase() || prev.is_ascii_uppercase() && c.is_ascii_uppercase() && next_lower;
            let digit_change = prev.is_ascii_digit() != c.is_ascii_digit();
            if hump || digit_change {
                flush(&mut word, out);
            }
        }
        word.push(c.to_ascii_lowercase());
    }
    flush(&mut word, out);
}

fn flush(word: &mut String, out: &mut Vec<String>) {
    if !word.is_empty() {
        out.push(std::mem::take(word));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SecretReason::*;

    fn facts(tag: &str, attrs: &[(&str, &str)]) -> FieldFacts {
        FieldFacts {
            frame: "main".into(),
            backend_node_id: 1,
            tag: tag.into(),
            attributes: attrs.iter().flat_map(|(k, v)| [k.to_string(), v.to_string()]).collect(),
            ..FieldFacts::default()
        }
    }

    fn input(attrs: &[(&str, &str)]) -> Option<SecretReason> {
        reason(&facts("input", attrs), "")
    }

    #[test]
    fn a_card_number_by_its_digits() {
        for v in ["5500 0000 0000 0004", "4111111111111111", "4111-1111-1111-1111", " 378282246310005 ", "6011 1111 1111 1117", "2223000048400011"] {
            assert!(card_number(v), "{v}");
        }
        // Luhn fails, too short or long, not a card's first digit, other separators, words.
        for v in ["5500 0000 0000 0005", "4111 1111 1111", "41111111111111111111", "7992739871300000", "1000000000000007",
            "4111  1111 1111 1111", "4111.1111.1111.1111", "Card 4111111111111111", "-4111111111111111", "", "0000 0000 0000 0000"] {
            assert!(!card_number(v), "{v}");
        }
    }

    #[test]
    fn words_split_at_separators_humps_and_digits() {
        let w = |s: &str| Words::of([s]).list;
        assert_eq!(w("card[exp_month]"), ["card", "exp", "month"]);
        assert_eq!(w("creditCardNumber"), ["credit", "card", "number"]);
        assert_eq!(w("CVCCode"), ["cvc", "code"]);
        assert_eq!(w("cvv2"), ["cvv", "2"]);
        assert_eq!(w("x_card_code"), ["x", "card", "code"]);
        assert_eq!(w("MM / YY"), ["mm", "yy"]);
    }

    /// Item 3 of the secrets issue: card fields in every spelling and
    /// attribute order, and the look-alikes that are not card data.
    #[test]
    fn card_fields_in_any_spelling_and_order() {
        let card: &[&[(&str, &str)]] = &[
            &[("id", "cc-number"), ("name", "field7")],
            &[("id", "f1"), ("name", "cc-number")],
            &[("name", "cc-number")],
            &[("name", "ccnumber")],
            &[("name", "card[number]")],
            &[("name", "cardnumber")],
            &[("name", "cardNumber")],
            &[("name", "creditCardNumber")],
            &[("name", "credit_card_number")],
            &[("name", "newcardnumber")],
            &[("name", "card-number-1")],
            &[("name", "card_num")],
            &[("name", "cardNo")],
            &[("name", "ccnum")],
            &[("name", "cvc")],
            &[("name", "cvv")],
            &[("name", "csc")],
            &[("name", "cvv2")],
            &[("id", "card-cvc")],
            &[("name", "card[cvc]")],
            &[("name", "x_card_code")],
            &[("name", "securityCode"), ("id", "payment-security-code")],
            &[("name", "exp-date")],
            &[("name", "expdate")],
            &[("name", "cc-exp")],
            &[("name", "cc_exp_month")],
            &[("name", "ccexpmonth")],
            &[("name", "expiry")],
            &[("name", "expirydate")],
            &[("name", "expirationDate")],
            &[("name", "card[exp_month]")],
            &[("name", "card[exp_year]")],
            &[("name", "exp_year")],
            &[("id", "cardExpiry")],
            &[("name", "payment[exp]")],
            &[("data-stripe", "number")],
            &[("data-stripe", "exp-month")],
            &[("data-braintree-name", "cvv")],
            &[("data-encrypted-name", "expiryYear")],
            &[("autocomplete", "cc-number")],
            &[("autocomplete", "billing cc-csc")],
            &[("autocomplete", "section-pay cc-exp-month")],
            &[("x-autocompletetype", "cc-number")],
            &[("type", "tel"), ("name", "CardNumber"), ("autocomplete", "off")],
        ];
        for attrs in card {
            assert_eq!(input(attrs), Some(CreditCard), "{attrs:?}");
        }
        let not_card: &[&[(&str, &str)]] = &[
            &[("name", "gift_card_message")],
            &[("name", "card")],
            &[("name", "card_notes")],
            &[("name", "cardholder")],
            &[("name", "cc-name")],
            &[("autocomplete", "cc-name")],
            &[("autocomplete", "cc-given-name")],
            &[("name", "creditCardName")],
            &[("name", "card_holder_name")],
            &[("name", "coupon_expires")],
            &[("name", "coupon_expiry")],
            &[("name", "passport_expiry")],
            &[("name", "membership_card_number")],
            &[("name", "acc_number")],
            &[("name", "account-number")],
            &[("name", "phone_number")],
            &[("name", "number")],
            &[("name", "promo_code")],
            &[("name", "security_code")],
            &[("name", "expires")],
            &[("name", "discount"), ("id", "exp")],
            &[("name", "q"), ("type", "search")],
            &[("name", "cardnumber"), ("type", "email")],
        ];
        for attrs in not_card {
            assert_eq!(input(attrs), None, "{attrs:?}");
        }
    }

    #[test]
    fn card_fields_by_label() {
        let with = |attrs: &[(&str, &str)], label: &str| reason(&facts("input", attrs), label);
        assert_eq!(with(&[], "Card number"), Some(CreditCard));
        assert_eq!(with(&[], "Credit card"), Some(CreditCard));
        assert_eq!(with(&[], "CVC"), Some(CreditCard));
        assert_eq!(with(&[("inputmode", "numeric")], "Expiry (MM/YY)"), Some(CreditCard));
        assert_eq!(with(&[("inputmode", "numeric")], "Expiration date"), Some(CreditCard));
        assert_eq!(with(&[("type", "tel")], "MM / YY"), Some(CreditCard));
        assert_eq!(with(&[("inputmode", "numeric")], "Card security code"), Some(CreditCard));
        assert_eq!(with(&[("placeholder", "1234 1234 1234 1234")], ""), Some(CreditCard));
        assert_eq!(with(&[("placeholder", "MM / YY")], ""), Some(CreditCard));
        // Expiry words on a field that takes any text, and words of other cards.
        assert_eq!(with(&[], "Expiry date"), None);
        assert_eq!(with(&[("inputmode", "numeric")], "Coupon expires"), None);
        assert_eq!(with(&[("inputmode", "numeric")], "Coupon expiry"), None);
        assert_eq!(with(&[], "Name on card"), None);
        assert_eq!(with(&[], "Gift card message"), None);
        assert_eq!(with(&[], "Library card number"), None);
        assert_eq!(with(&[("inputmode", "numeric")], "Date of birth (DD/MM/YY)"), None);
        assert_eq!(reason(&facts("textarea", &[("name", "message")]), "Gift card message"), None);
    }

    #[test]
    fn a_password_token_on_a_combobox_is_anti_autofill_not_a_secret() {
        // Ant Design's Select: a search input that pickers mark new-password so browsers offer no saved logins.
        let antd = [("type", "search"), ("role", "combobox"), ("aria-autocomplete", "list"), ("autocomplete", "new-password")];
        assert_eq!(input(&antd), None);
        assert_eq!(input(&[("type", "text"), ("aria-autocomplete", "both"), ("autocomplete", "current-password")]), None);
        assert_eq!(input(&[("list", "products"), ("autocomplete", "new-password")]), None);
        // Still secret: a password field whatever it claims, and a combobox whose other facts say password.
        assert_eq!(input(&[("type", "password"), ("role", "combobox"), ("autocomplete", "new-password")]), Some(NewPassword));
        assert_eq!(input(&[("role", "combobox"), ("autocomplete", "new-password"), ("name", "password")]), Some(Password));
        let mut remembered = facts("input", &[("type", "text"), ("role", "combobox"), ("autocomplete", "new-password")]);
        remembered.reason = Some(NewPassword);
        assert_eq!(reason(&remembered, ""), Some(NewPassword), "a toggled password field stays secret");
        remembered.reason = None;
        assert_eq!(reason(&remembered, "New password"), Some(Password));
        // Without a list to pick from, the token is a declaration: a show-password field that starts shown.
        assert_eq!(input(&[("type", "text"), ("autocomplete", "new-password")]), Some(NewPassword));
    }

    #[test]
    fn passwords_by_type_autocomplete_css_identifier_and_label() {
        assert_eq!(input(&[("type", "password")]), Some(Password));
        assert_eq!(input(&[("type", "PASSWORD")]), Some(Password));
        assert_eq!(input(&[("type", "password"), ("autocomplete", "new-password")]), Some(NewPassword));
        assert_eq!(input(&[("type", "text"), ("autocomplete", "section-login current-password")]), Some(CurrentPassword));
        assert_eq!(input(&[("type", "text"), ("autocomplete", "one-time-code")]), Some(OneTimeCode));
        let mut masked = facts("input", &[("type", "text")]);
        masked.text_security = "disc".into();
        assert_eq!(reason(&masked, ""), Some(Password));
        masked.text_security = "none".into();
        assert_eq!(reason(&masked, ""), None);
        let mut editable = facts("div", &[("contenteditable", "true")]);
        editable.text_security = "square".into();
        assert_eq!(reason(&editable, ""), Some(Password));
        for id in ["password", "passwd", "pwd", "pass", "pass1", "pw", "user_password", "newPassword", "password_confirmation", "Passwd"] {
            assert_eq!(input(&[("name", id)]), Some(Password), "{id}");
        }
        for id in ["passport", "password_hint", "forgot_password_email", "passwordless_email", "compass", "bypass"] {
            assert_eq!(input(&[("name", id)]), None, "{id}");
        }
        assert_eq!(reason(&facts("input", &[]), "Password"), Some(Password));
        assert_eq!(reason(&facts("input", &[]), "Confirm password"), Some(Password));
        assert_eq!(reason(&facts("input", &[]), "Mot de passe"), Some(Password));
        assert_eq!(reason(&facts("input", &[]), "Email (for a password reset link)"), None);
        assert_eq!(reason(&facts("input", &[("type", "email")]), "Password"), None);
    }

    #[test]
    fn one_time_codes_by_identifier() {
        for id in ["otp", "otp-code", "totp", "one_time_code", "oneTimePassword", "mfa_code", "2fa-code", "verificationCode"] {
            assert_eq!(input(&[("name", id)]), Some(OneTimeCode), "{id}");
        }
        assert_eq!(input(&[("name", "options")]), None);
        assert_eq!(input(&[("name", "zip_code")]), None);
    }

    #[test]
    fn a_remembered_field_stays_secret_whatever_its_type() {
        let mut f = facts("input", &[("type", "text"), ("name", "f1")]);
        assert_eq!(reason(&f, "Secret phrase"), None);
        f.reason = Some(Password);
        assert_eq!(reason(&f, "Secret phrase"), Some(Password));
        // Given without any DOM facts (the CLI's secrets file): taken as said.
        let bare = FieldFacts { reason: Some(CreditCard), ..FieldFacts::default() };
        assert_eq!(reason(&bare, ""), Some(CreditCard));
    }

    #[test]
    fn controls_that_take_no_text_are_not_secret() {
        for ty in ["checkbox", "radio", "submit", "hidden", "file"] {
            assert_eq!(input(&[("type", ty), ("name", "cc-number")]), None, "{ty}");
        }
        assert_eq!(reason(&facts("select", &[("name", "cc-exp-month")]), ""), None);
        assert_eq!(reason(&facts("button", &[]), "Password"), None);
    }
}
