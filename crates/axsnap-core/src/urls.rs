//! Link URLs, made short without losing where they lead: same-origin URLs
//! become paths, same-page links become fragments, tracking parameters go,
//! and script/data URLs (which lead nowhere an agent can follow) disappear.
//! Plain string handling: a full URL parser would triple the Wasm size.

/// Query parameters that only track the click.
/// Only names no site uses for anything else: a generic name (`ref`, `sa`,
/// `source`) can select content and stays.
const TRACKING: &[&str] = &[
    "gclid", "gclsrc", "dclid", "fbclid", "msclkid", "yclid", "igshid", "mc_cid", "mc_eid",
    "_ga", "_gl", "_hsenc", "_hsmi", "__hstc", "__hssc", "__hsfp", "mkt_tok", "oly_anon_id",
    "oly_enc_id", "vero_id", "wickedid", "rb_clickid", "s_cid", "twclid", "ttclid", "srsltid",
    // Google's click and session tokens on result and navigation links.
    "ved", "sxsrf", "sca_esv", "sca_upv", "gs_lcrp", "gs_lp", "sclient", "uact", "usg", "fbs", "ei",
    // LinkedIn, Twitter, Alibaba and friends.
    "trk", "trkinfo", "ref_src", "ref_url", "spm", "_openstat", "sr_share",
];

fn is_tracking(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    k.starts_with("utm_") || k.starts_with("pk_") || TRACKING.contains(&k.as_str())
}

struct Parts<'a> {
    /// `scheme://authority`, lower-cased by the caller when compared.
    origin: &'a str,
    path: &'a str,
    query: &'a str,
    fragment: &'a str,
}

fn split(url: &str) -> Option<Parts<'_>> {
    let scheme_end = url.find("://")?;
    let after = scheme_end + 3;
    let rest = &url[after..];
    let auth_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let origin = &url[..after + auth_len];
    let tail = &rest[auth_len..];
    let (before_frag, fragment) = match tail.find('#') {
        Some(i) => (&tail[..i], &tail[i..]),
        None => (tail, ""),
    };
    let (path, query) = match before_frag.find('?') {
        Some(i) => (&before_frag[..i], &before_frag[i..]),
        None => (before_frag, ""),
    };
    Some(Parts { origin, path, query, fragment })
}

fn clean_query(query: &str) -> String {
    if query.len() <= 1 {
        return String::new();
    }
    let kept: Vec<&str> = query[1..]
        .split('&')
        .filter(|kv| !kv.is_empty() && !is_tracking(kv.split('=').next().unwrap_or("")))
        .collect();
    if kept.is_empty() {
        String::new()
    } else {
        format!("?{}", kept.join("&"))
    }
}

/// The shortest faithful form of `url` as seen from the page at `page`.
/// `None` means the URL leads nowhere worth printing.
pub fn compact(url: &str, page: Option<&str>) -> Option<String> {
    let url = url.trim();
    let lower_start: String = url.chars().take(11).collect::<String>().to_ascii_lowercase();
    if url.is_empty() || lower_start.starts_with("javascript:") || lower_start.starts_with("data:") {
        return None;
    }
    let Some(parts) = split(url) else {
        return Some(url.to_string());
    };
    let query = clean_query(parts.query);
    let path = if parts.path.is_empty() { "/" } else { parts.path };
    if let Some(page) = page.and_then(split) {
        if page.origin.eq_ignore_ascii_case(parts.origin) {
            let page_path = if page.path.is_empty() { "/" } else { page.path };
            let same_document = page_path == path && clean_query(page.query) == query;
            if same_document && !parts.fragment.is_empty() {
                return Some(parts.fragment.to_string());
            }
            return Some(format!("{path}{query}{}", parts.fragment));
        }
    }
    let shown_path = if parts.path.is_empty() && query.is_empty() && parts.fragment.is_empty() {
        ""
    } else {
        path
    };
    Some(format!("{}{shown_path}{query}{}", parts.origin, parts.fragment))
}

#[cfg(test)]
mod tests {
    use super::compact;
    const PAGE: Option<&str> = Some("https://example.com/docs/a.html?x=1#top");

    #[test]
    fn same_origin_becomes_a_path() {
        assert_eq!(compact("https://example.com/b/c?q=2", PAGE).unwrap(), "/b/c?q=2");
        assert_eq!(compact("https://EXAMPLE.com", PAGE).unwrap(), "/");
    }

    #[test]
    fn same_page_link_becomes_its_fragment() {
        assert_eq!(compact("https://example.com/docs/a.html?x=1#sec-2", PAGE).unwrap(), "#sec-2");
    }

    #[test]
    fn other_origins_stay_absolute() {
        assert_eq!(compact("http://example.com/b", PAGE).unwrap(), "http://example.com/b");
        assert_eq!(compact("https://other.org", PAGE).unwrap(), "https://other.org");
    }

    #[test]
    fn tracking_parameters_are_removed() {
        assert_eq!(
            compact("https://o.org/p?utm_source=x&id=3&fbclid=abc&GCLID=1", PAGE).unwrap(),
            "https://o.org/p?id=3"
        );
        assert_eq!(compact("https://o.org/p?utm_medium=a#f", PAGE).unwrap(), "https://o.org/p#f");
    }

    #[test]
    fn search_engine_click_tokens_are_removed() {
        assert_eq!(
            compact("https://www.google.com/search?q=rust&sca_esv=1&ved=2ahU&ei=x&sxsrf=y", PAGE).unwrap(),
            "https://www.google.com/search?q=rust"
        );
    }

    #[test]
    fn script_and_data_urls_are_dropped() {
        assert_eq!(compact("javascript:void(0)", PAGE), None);
        assert_eq!(compact(" JavaScript:go()", PAGE), None);
        assert_eq!(compact("data:text/html,hi", PAGE), None);
        assert_eq!(compact("", PAGE), None);
    }

    #[test]
    fn non_hierarchical_urls_are_kept_verbatim() {
        assert_eq!(compact("mailto:a@b.c", PAGE).unwrap(), "mailto:a@b.c");
    }
}
