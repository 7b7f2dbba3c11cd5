//! Link URLs, made short without losing where they lead: a redirect or
//! click-tracking URL shows its destination, same-origin URLs become paths,
//! same-page links become fragments, tracking parameters go, percent-encoded
//! letters read as letters, and script/data URLs (which lead nowhere an agent
//! can follow) disappear. The text format also clips opaque tokens
//! ([`clip_opaque`]). The ref table keeps every link's real URL: `resolve`
//! and a click use it, whatever the text shows.
//! Plain string handling: a full URL parser would triple the Wasm size.

/// Query parameters that only track the click, on any site: names no site
/// uses for content (a generic name such as `ref`, `sa` or `source` can
/// select content and stays, except on the sites in [`PROVIDERS`]). A name
/// ending in `*` is a prefix. Sources: the global rules of ClearURLs
/// (gitlab.com/ClearURLs/rules, `data.min.json`, provider `globalRules`),
/// the general section of AdGuard's URL Tracking filter, and the campaign
/// parameters documented by the analytics vendors that define them.
const TRACKING: &str = concat!(
    // Campaign tags: Google Analytics (UTM), Matomo/Piwik, WebTrends, and
    // ClearURLs' `ga_`, `hmb_`, `itm_`, `otm_`, `vn_` families.
    "utm_* pk_* mtm_* ga_* hmb_* itm_* otm_* vn_* wt.mc_id wt.mc_ev wt.srch ",
    "wt_mc wtmc wt_zmc wtrid cmpid tracking_source echobox _openstat ",
    // Ad click ids: Google, DoubleClick, Microsoft, Yandex, Twitter, TikTok, Meta.
    "gclid gclsrc gbraid wbraid dclid msclkid yclid twclid ttclid fbclid ",
    "fb_action_ids fb_action_types fb_comment_id fb_ref fb_source action_object_map ",
    "action_type_map action_ref_map igshid srsltid __twitter_impression ",
    // Analytics cookies carried across sites, and mail-campaign ids
    // (Mailchimp, HubSpot, Marketo, MailerLite, Vero, Olytics, Oracle).
    "_ga _gl mc_cid mc_eid mc_tc _hsenc _hsmi __hstc __hssc __hsfp ",
    "hsctatracking mkt_tok ml_subscriber ml_subscriber_hash vero_id vero_conv ",
    "oly_anon_id oly_enc_id os_ehash wickedid rb_clickid s_cid xtor ",
    // Yahoo's consent redirect and share tag (TechCrunch), Alibaba's position tag.
    "guccounter guce_referrer guce_referrer_sig spm sr_share ",
    // Google's click and session tokens on result and navigation links.
    "ved sxsrf sca_esv sca_upv gs_lcrp gs_lp gs_l sclient uact usg fbs ei ",
    // LinkedIn and Twitter share tags.
    "trk trkinfo ref_src ref_url ",
);

/// Parameters that track the click on one site only (ClearURLs' providers):
/// the site's brand (the label before its public suffix), then its names.
/// Lists are space-separated strings: a slice of strings costs the Wasm
/// eight bytes per name more.
const PROVIDERS: &[(&str, &str)] = &[
    ("google", "sa source sourceid oq esrc cd cad aqs atyp vet zx rlz dpr bih biw sei gws_* gfe_* pcampaignid"),
    ("amazon", "pf_rd_* pd_rd_* qid sr srs _encoding ref_ crid sprefix linkcode creativeasin ascsubtag content-id dchild smid th"),
    ("imdb", "ref_ pf_rd_*"),
    ("youtube", "feature kw"),
    ("facebook", "__tn__ __cft__* __xts__* hc_ref hc_location eid comment_tracking"),
    ("twitter", "s t cn"),
    ("x", "s t cn"),
    ("reddit", "correlation_id ref_campaign ref_source $deep_link $3p $original_url _branch_match_id"),
    ("linkedin", "refid trackingid lipi licu"),
    ("bing", "cvid form sk sp sc qs qp"),
    ("ebay", "_trkparms _trksid _from hash"),
    ("techcrunch", "ncid sr"),
    ("nytimes", "smid"),
    ("theguardian", "cmp"),
    ("aliexpress", "algo_expid algo_pvid btsid ws_ab_test scm* gps-id"),
    ("spotify", "si"),
    ("medium", "source"),
];

/// Is `key` one of the space-separated names of `list`?
fn listed(list: &str, key: &str) -> bool {
    list.split_ascii_whitespace().any(|t| match t.strip_suffix('*') {
        Some(prefix) => key.starts_with(prefix),
        None => key == t,
    })
}

fn is_tracking(key: &str, brand: &str) -> bool {
    let k = key.to_ascii_lowercase();
    listed(TRACKING, &k) || PROVIDERS.iter().any(|(b, names)| b.eq_ignore_ascii_case(brand) && listed(names, &k))
}

struct Parts<'a> {
    /// `scheme://authority`, lower-cased by the caller when compared.
    origin: &'a str,
    /// The host, without user info or port.
    host: &'a str,
    path: &'a str,
    query: &'a str,
    fragment: &'a str,
}

fn split(url: &str) -> Option<Parts<'_>> {
    // Bytes compared in place: a substring search's setup costs more on a URL's few bytes.
    let scheme_end = url.as_bytes().windows(3).position(|w| w == b"://")?;
    let after = scheme_end + 3;
    let rest = &url[after..];
    let auth_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let origin = &url[..after + auth_len];
    let authority = &rest[..auth_len];
    let host = authority.rsplit('@').next().unwrap_or(authority);
    let host = match host.rfind(':') {
        Some(i) if !host.ends_with(']') => &host[..i],
        _ => host,
    };
    let tail = &rest[auth_len..];
    let (before_frag, fragment) = match tail.find('#') {
        Some(i) => (&tail[..i], &tail[i..]),
        None => (tail, ""),
    };
    let (path, query) = match before_frag.find('?') {
        Some(i) => (&before_frag[..i], &before_frag[i..]),
        None => (before_frag, ""),
    };
    Some(Parts { origin, host, path, query, fragment })
}

/// The labels of a host that name the site: its brand, then its public
/// suffix (`amazon.co.uk` → `amazon`, `co.uk`). Without the public suffix
/// list, a two-label suffix is assumed where the second-level label is a
/// generic one (`co`, `com`, `org`, …) or as short as a country's.
fn site(host: &str) -> (&str, &str) {
    let host = host.trim_end_matches('.');
    let mut labels = host.rsplit('.');
    let (Some(top), Some(second)) = (labels.next(), labels.next()) else { return (host, "") };
    let third = labels.next();
    let generic = ["co", "com", "net", "org", "gov", "edu", "ac", "ne", "or", "go"].iter().any(|g| second.eq_ignore_ascii_case(g));
    let (brand, suffix_len) = match third {
        Some(t) if top.len() == 2 && (generic || second.len() <= 2) => (t, top.len() + second.len() + 1),
        _ => (second, top.len()),
    };
    (brand, &host[host.len() - suffix_len..])
}

fn same_site(a: &str, b: &str) -> bool {
    let ((ab, asuf), (bb, bsuf)) = (site(a), site(b));
    ab.eq_ignore_ascii_case(bb) && asuf.eq_ignore_ascii_case(bsuf)
}

fn clean_query(query: &str, brand: &str) -> String {
    if query.len() <= 1 {
        return String::new();
    }
    let kept: Vec<&str> = query[1..]
        .split('&')
        .filter(|kv| !kv.is_empty() && !is_tracking(kv.split('=').next().unwrap_or(""), brand))
        .collect();
    if kept.is_empty() {
        String::new()
    } else {
        format!("?{}", kept.join("&"))
    }
}

/// `%XX` escapes decoded to bytes; `None` if the result is not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (b[i], b.get(i + 1).and_then(|&c| hex(c)), b.get(i + 2).and_then(|&c| hex(c))) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Base64url (RFC 4648 §5) without padding, as click trackers write it.
fn base64url_decode(s: &str) -> Option<String> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.trim_end_matches('=').bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    String::from_utf8(out).ok()
}

/// An absolute http(s) URL an agent could follow: no spaces or controls.
fn absolute_http(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://"))
        && s.len() > lower.find("//").unwrap_or(0) + 2
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// How a redirector writes its destination into the parameter.
#[derive(Clone, Copy)]
enum Encoding {
    /// Percent-encoded, as any query value.
    Percent,
    /// `a1` then base64url (Bing's click URLs).
    Base64A1,
}

enum Host {
    /// The site's brand: `google` matches `www.google.com` and `google.co.uk`.
    Brand(&'static str),
    /// One of these hosts exactly.
    Exact(&'static [&'static str]),
    /// Any host ending with this.
    Suffix(&'static str),
}

/// A known redirector: a URL on `host` whose path is `path` (a prefix when
/// it ends in `*`) leads to the absolute URL in one of `params`.
struct Redirector {
    name: &'static str,
    host: Host,
    path: &'static str,
    params: &'static [&'static str],
    encoding: Encoding,
}

/// The click trackers of search engines, mail and chat services, and
/// social sites: the destination is a parameter of the URL.
const REDIRECTORS: &[Redirector] = &[
    // https://www.google.com/url?q=https://example.com/&sa=U&ved=…&usg=…
    Redirector { name: "google-url", host: Host::Brand("google"), path: "/url", params: &["q", "url"], encoding: Encoding::Percent },
    // https://www.bing.com/ck/a?!&&p=…&ptn=3&u=a1aHR0cHM6Ly9leGFtcGxlLmNvbS8&ntb=1
    Redirector { name: "bing-ck", host: Host::Brand("bing"), path: "/ck/a", params: &["u"], encoding: Encoding::Base64A1 },
    // https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.com%2F&h=AT…
    Redirector { name: "facebook-l", host: Host::Exact(&["l.facebook.com", "lm.facebook.com", "l.messenger.com", "l.instagram.com"]),
        path: "*", params: &["u"], encoding: Encoding::Percent },
    // https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.com%2F&data=…&reserved=0
    Redirector { name: "outlook-safelinks", host: Host::Suffix(".safelinks.protection.outlook.com"), path: "*", params: &["url"], encoding: Encoding::Percent },
    // The same service for US government tenants (Defender for Office 365).
    Redirector { name: "defender-safelinks", host: Host::Suffix(".safelinks.protection.office365.us"), path: "*", params: &["url"], encoding: Encoding::Percent },
    // https://duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2F&rut=…
    Redirector { name: "duckduckgo-l", host: Host::Brand("duckduckgo"), path: "/l/", params: &["uddg"], encoding: Encoding::Percent },
    // https://slack-redir.net/link?url=https%3A%2F%2Fexample.com%2F
    Redirector { name: "slack-redir", host: Host::Exact(&["slack-redir.net"]), path: "/link", params: &["url"], encoding: Encoding::Percent },
    // https://out.reddit.com/t3_abc?url=https%3A%2F%2Fexample.com%2F&token=…&app_name=web
    Redirector { name: "reddit-out", host: Host::Exact(&["out.reddit.com"]), path: "*", params: &["url"], encoding: Encoding::Percent },
    // https://www.linkedin.com/redir/redirect?url=https%3A%2F%2Fexample%2Ecom&urlhash=…
    Redirector { name: "linkedin-redir", host: Host::Brand("linkedin"), path: "/redir/redirect", params: &["url"], encoding: Encoding::Percent },
    // https://www.linkedin.com/safety/go?url=https%3A%2F%2Fexample.com&trk=…
    Redirector { name: "linkedin-safety", host: Host::Brand("linkedin"), path: "/safety/go", params: &["url"], encoding: Encoding::Percent },
    // https://www.youtube.com/redirect?event=video_description&redir_token=…&q=https%3A%2F%2Fexample.com
    Redirector { name: "youtube-redirect", host: Host::Brand("youtube"), path: "/redirect", params: &["q"], encoding: Encoding::Percent },
];

/// Last path segments of a site's own outbound redirect (`/out?url=…`,
/// `/go.php?to=…`, `/redirect?u=…`), extension aside.
const REDIRECT_PATHS: &[&str] = &[
    "redirect", "redir", "out", "outbound", "outgoing", "go", "goto", "away", "exit", "leave", "link",
    "linkout", "r", "l", "url", "click", "external", "jump", "forward", "linkfilter",
];

fn query_pairs(query: &str) -> impl Iterator<Item = (&str, &str)> {
    query.trim_start_matches('?').split('&').filter(|kv| !kv.is_empty()).map(|kv| kv.split_once('=').unwrap_or((kv, "")))
}

fn decode_destination(value: &str, encoding: Encoding) -> Option<String> {
    let decoded = match encoding {
        Encoding::Percent => percent_decode(value)?,
        Encoding::Base64A1 => base64url_decode(percent_decode(value)?.strip_prefix("a1")?)?,
    };
    absolute_http(&decoded).then_some(decoded)
}

/// The destination of a redirect or click-tracking URL, and the name of the
/// rule that found it; `None` for any other URL. `page` is the document the
/// link is on (a site's own redirect path is recognised only there).
pub fn unwrap_redirect(url: &str, page: Option<&str>) -> Option<(String, &'static str)> {
    let p = split(url)?;
    // Every destination is a query parameter: most links have none.
    if p.query.len() <= 1 {
        return None;
    }
    let host = p.host.to_ascii_lowercase();
    for r in REDIRECTORS {
        let host_ok = match r.host {
            Host::Brand(b) => site(&host).0 == b,
            Host::Exact(hosts) => hosts.contains(&host.as_str()),
            Host::Suffix(s) => host.ends_with(s),
        };
        let path_ok = r.path == "*" || p.path == r.path;
        if host_ok && path_ok {
            let dest = query_pairs(p.query)
                .filter(|(k, _)| r.params.contains(k))
                .find_map(|(_, v)| decode_destination(v, r.encoding));
            if let Some(d) = dest {
                return Some((d, r.name));
            }
        }
    }
    // A site's own redirect path (`/out?url=…`) with exactly one absolute
    // URL among its parameters leads there. Elsewhere a URL parameter is
    // often not the destination (`/login?next=…`, `/share?url=…`).
    let page_host = page.and_then(split)?.host;
    let last = p.path.rsplit('/').find(|s| !s.is_empty()).unwrap_or("");
    let stem = last.split('.').next().unwrap_or("").to_ascii_lowercase();
    if !same_site(&host, page_host) || !REDIRECT_PATHS.contains(&stem.as_str()) {
        return None;
    }
    let mut dests = query_pairs(p.query).filter_map(|(_, v)| decode_destination(v, Encoding::Percent));
    match (dests.next(), dests.next()) {
        (Some(d), None) => Some((d, "same-site-redirect")),
        _ => None,
    }
}

/// Characters a browser's address bar shows decoded: letters and marks of
/// any script, never spaces, controls, or invisible and bidirectional marks
/// that could disguise a URL.
fn shows_decoded(c: char) -> bool {
    !c.is_ascii()
        && !c.is_whitespace()
        && !c.is_control()
        && !matches!(c, '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}'
            | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFF}')
}

/// Percent-encoded UTF-8 letters shown as the letters (`/wiki/Māori`, not
/// `/wiki/M%C4%81ori`), as browsers show them (RFC 3987's IRI form).
/// ASCII escapes (`%20`, `%2F`, `%3F`) stay: decoded they would change
/// what the URL says.
fn readable(url: &str) -> String {
    if !url.contains('%') {
        return url.to_string();
    }
    let mut out = String::with_capacity(url.len());
    let mut rest = url;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        // A character is one to four escapes, as many as its lead byte says.
        let width = match rest.get(1..3).and_then(|h| u8::from_str_radix(h, 16).ok()) {
            Some(0xC2..=0xDF) => 2,
            Some(0xE0..=0xEF) => 3,
            Some(0xF0..=0xF4) => 4,
            _ => 1,
        };
        let escapes = rest.get(..width * 3).filter(|e| width > 1 && e.as_bytes().chunks(3).all(|c| c[0] == b'%'));
        match escapes.and_then(percent_decode).filter(|d| d.chars().all(shows_decoded)) {
            Some(c) => {
                out.push_str(&c);
                rest = &rest[width * 3..];
            }
            None => {
                out.push('%');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// [`readable`] of a URL already owned: most hold no escape to decode.
fn readable_owned(url: String) -> String {
    if url.contains('%') {
        readable(&url)
    } else {
        url
    }
}

/// The shortest faithful form of `url` as seen from the page at `page`.
/// `None` means the URL leads nowhere worth printing.
pub fn compact(url: &str, page: Option<&str>) -> Option<String> {
    let url = url.trim();
    let scheme = |s: &str| url.as_bytes().get(..s.len()).is_some_and(|b| b.eq_ignore_ascii_case(s.as_bytes()));
    if url.is_empty() || scheme("javascript:") || scheme("data:") {
        return None;
    }
    // A redirect inside a redirect (safelinks around a search click) unwraps too.
    let mut dest = std::borrow::Cow::Borrowed(url);
    for _ in 0..3 {
        match unwrap_redirect(&dest, page) {
            Some((d, _)) => dest = std::borrow::Cow::Owned(d),
            None => break,
        }
    }
    let Some(parts) = split(&dest) else {
        return Some(readable(&dest));
    };
    let brand = site(parts.host).0;
    let query = clean_query(parts.query, brand);
    let path = if parts.path.is_empty() { "/" } else { parts.path };
    if let Some(page) = page.and_then(split) {
        if page.origin.eq_ignore_ascii_case(parts.origin) {
            let page_path = if page.path.is_empty() { "/" } else { page.path };
            let same_document = page_path == path && clean_query(page.query, brand) == query;
            if same_document && !parts.fragment.is_empty() {
                return Some(readable(parts.fragment));
            }
            // The same path with another query (a page of results, a sort,
            // a view): the query alone, a relative reference (RFC 3986, 4.2).
            if page_path == path && !query.is_empty() {
                return Some(readable_owned(format!("{query}{}", parts.fragment)));
            }
            return Some(readable_owned(format!("{path}{query}{}", parts.fragment)));
        }
    }
    let shown_path = if parts.path.is_empty() && query.is_empty() && parts.fragment.is_empty() {
        ""
    } else {
        path
    };
    Some(readable_owned(format!("{}{shown_path}{query}{}", parts.origin, parts.fragment)))
}

/// Opaque parts are shown this long, then `…`.
const OPAQUE_KEEP: usize = 8;
/// Parts shorter than this are never opaque: ids an agent may read.
const OPAQUE_MIN: usize = 24;

/// A token no person reads: a hash, a UUID, a session id or a base64 blob
/// (`H4sIAAAAAAAAAOMwVOLWz9U3…`, `cb4291db0f24cac0d0674d9e…`), as opposed to
/// a slug of words (`new-study-shows-half-of-jobs-at-risk`), a title or a
/// name (`Microsoft_v._MikeRoweSoft`). Where unsure, it is not a token: a
/// word clipped would be lost from the text, a token printed costs tokens.
fn is_opaque(s: &str) -> bool {
    if s.len() < OPAQUE_MIN || !s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.~+/=".contains(&b)) {
        return false;
    }
    if hex_like(s) {
        return true;
    }
    let opaque: usize = s.split(['-', '_', '.', '~', '+', '/', '=']).filter(|p| opaque_piece(p)).map(str::len).sum();
    opaque * 2 > s.len()
}

/// Hex digits with dashes and a fair share of digits: a hash or a UUID.
fn hex_like(s: &str) -> bool {
    let digits = s.bytes().filter(u8::is_ascii_digit).count();
    s.len() >= 16 && s.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-') && digits * 10 >= s.len() * 3
        && !(s.bytes().any(|b| b.is_ascii_lowercase()) && s.bytes().any(|b| b.is_ascii_uppercase()))
}

/// A piece between separators that reads as no words: case and digits
/// change every two or three characters, where names and CamelCase
/// (`MikeRoweSoft`, `FINALLYOldEnough`) keep runs of four or more.
fn opaque_piece(p: &str) -> bool {
    if p.len() < 16 {
        return false;
    }
    if hex_like(p) {
        return true;
    }
    let b = p.as_bytes();
    if !b.iter().any(u8::is_ascii_uppercase) {
        // Lowercase and digits: words glued by digits (`0and0the0only0one`)
        // keep runs of letters as long as words; a random id does not.
        let letters = b.iter().filter(|c| c.is_ascii_lowercase()).count();
        let letter_runs = b.split(|c| !c.is_ascii_lowercase()).filter(|r| !r.is_empty()).count();
        return letters > 0 && 10 * letters < 30 * letter_runs;
    }
    // A new run starts at a capital after a lowercase letter, and where
    // letters and digits meet.
    let runs = 1 + b.windows(2).filter(|w| (w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase()) || (w[0].is_ascii_digit() != w[1].is_ascii_digit())).count();
    let has_digit = b.iter().any(u8::is_ascii_digit);
    // Mean run length under 2.5, or under 3.2 with digits in.
    2 * p.len() < 5 * runs || has_digit && 10 * p.len() < 32 * runs
}

fn clip_part(s: &str, out: &mut String) {
    if is_opaque(s) {
        out.extend(s.chars().take(OPAQUE_KEEP));
        out.push('…');
    } else {
        out.push_str(s);
    }
}

/// A query value this long that is percent-encoded (a URL, a text or JSON:
/// a share link's prefilled caption, a tracking payload) is clipped too.
const ENCODED_MAX: usize = 64;

fn clip_value(v: &str, out: &mut String) {
    if v.len() < ENCODED_MAX || !v.contains('%') {
        return clip_part(v, out);
    }
    // Never half an escape: `%2` would read as something else.
    let mut keep = v.char_indices().nth(2 * OPAQUE_KEEP).map_or(v.len(), |(i, _)| i);
    if let Some(p) = v[..keep].rfind('%').filter(|&p| p + 3 > keep) {
        keep = p;
    }
    out.push_str(&v[..keep]);
    out.push('…');
}

/// `url` (as [`compact`] printed it) with its opaque parts shortened to
/// their first characters and `…`: path segments, query values and the
/// fragment that are tokens, long percent-encoded query values, and a
/// text-fragment directive (`#:~:text=…`, which only asks the browser to
/// highlight). The full URL is what
/// `resolve` returns and what the JSON format prints.
pub fn clip_opaque(url: &str) -> String {
    let (before_frag, fragment) = match url.find('#') {
        Some(i) => (&url[..i], &url[i..]),
        None => (url, ""),
    };
    let (path, query) = match before_frag.find('?') {
        Some(i) => (&before_frag[..i], &before_frag[i..]),
        None => (before_frag, ""),
    };
    let mut out = String::with_capacity(url.len());
    // The origin (`https://host`) is never clipped.
    let (origin, path) = match path.find("://") {
        Some(i) => {
            let start = i + 3;
            let end = path[start..].find('/').map_or(path.len(), |j| start + j);
            (&path[..end], &path[end..])
        }
        None => ("", path),
    };
    out.push_str(origin);
    for (i, seg) in path.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        clip_part(seg, &mut out);
    }
    for (i, kv) in query.trim_start_matches('?').split('&').enumerate().filter(|_| !query.is_empty()) {
        out.push(if i == 0 { '?' } else { '&' });
        match kv.split_once('=') {
            Some((k, v)) => {
                out.push_str(k);
                out.push('=');
                clip_value(v, &mut out);
            }
            None => out.push_str(kv),
        }
    }
    if let Some(directive) = fragment.find(":~:") {
        // The page's own anchor stays; the highlight request is clipped.
        out.push_str(&fragment[..directive + 3]);
        let d = &fragment[directive + 3..];
        let keep: String = d.chars().take(2 * OPAQUE_KEEP).collect();
        out.push_str(&keep);
        if keep.len() < d.len() {
            out.push('…');
        }
    } else if let Some(anchor) = fragment.strip_prefix('#') {
        out.push('#');
        clip_part(anchor, &mut out);
    }
    out
}

/// The part of `outer` before the whole absolute URL `inner` it ends with,
/// where `outer` is a copy of `inner` kept elsewhere: a web archive's
/// (`https://web.archive.org/web/20150129135945/` + the page's URL, cited on
/// Wikipedia as "Archived from the original" beside the original's link).
/// `None` where `outer` does not end with all of `inner` after a `/`.
pub fn copy_prefix<'a>(outer: &'a str, inner: &str) -> Option<&'a str> {
    let is_web = |u: &str| u.starts_with("https://") || u.starts_with("http://");
    let prefix = outer.strip_suffix(inner)?;
    (is_web(inner) && is_web(prefix) && prefix.ends_with('/') && prefix[prefix.find("://")? + 3..].contains('/')).then_some(prefix)
}

/// `shown` without its scheme where the page's is the same: `//host/path`,
/// a network-path reference (RFC 3986, section 4.2), which the page line's
/// URL completes, as a browser does. Saves a token on most links to another
/// site; the JSON format and `resolve` keep the scheme.
pub fn scheme_relative<'a>(shown: &'a str, page: Option<&str>) -> &'a str {
    let Some(page) = page else { return shown };
    for scheme in ["https:", "http:"] {
        let same = |u: &str| u.get(..scheme.len()).is_some_and(|s| s.eq_ignore_ascii_case(scheme));
        if same(shown) && same(page) && shown[scheme.len()..].starts_with("//") {
            return &shown[scheme.len()..];
        }
    }
    shown
}

/// The words a `*` stands for in a link's path: its words, spaces as `_`.
pub fn starred_words(words: &str) -> String {
    words.replace(' ', "_")
}

/// The slug a `~` stands for in a link's path: its words as a CMS makes a
/// page's address from its title (WordPress's `sanitize_title`, Django's
/// `slugify`, Rails' `parameterize`): ASCII letters and digits in lower
/// case, apostrophes and commas dropped (`Don't` is `dont`, `1,000` is
/// `1000`), every other run of characters one `-`, none at either end.
pub fn slug_words(words: &str) -> String {
    let mut out = String::with_capacity(words.len());
    let mut gap = false;
    for c in words.chars() {
        if c.is_ascii_alphanumeric() {
            if gap && !out.is_empty() {
                out.push('-');
            }
            gap = false;
            out.push(c.to_ascii_lowercase());
        } else if !matches!(c, '\'' | '\u{2019}' | '\u{2018}' | ',') {
            gap = true;
        }
    }
    out
}

/// `shown` with its last path segment written `*` where that segment is the
/// link's own words (spaces as `_`, MediaWiki's title convention), or `~`
/// where it is their slug ([`slug_words`], before an extension such as
/// `.html`): a profile `[octocat](/users/*)`, an article `[Time loop](/wiki/*)`,
/// a post `[Don't Breathe](/videos/~)`. CMSs build these paths from the title
/// or the user name, so the words said once give the whole destination back:
/// put them, or their slug, where the mark is.
/// `None` where the words are short (nothing to gain), the URL already holds
/// a `*` or a `~` (the mark would be ambiguous), or the last segment says
/// something else.
pub fn star_words(shown: &str, words: &str) -> Option<String> {
    const MIN: usize = 4;
    if words.chars().count() < MIN || shown.contains(['*', '~']) {
        return None;
    }
    let end = shown.find(['?', '#']).unwrap_or(shown.len());
    let path = &shown[..end];
    // The path starts after the origin of an absolute or scheme-relative URL.
    let path_start = match (path.find("://"), path.strip_prefix("//")) {
        (Some(i), _) => path[i + 3..].find('/').map(|j| i + 3 + j)?,
        (None, Some(rest)) => rest.find('/').map(|j| 2 + j)?,
        (None, None) => 0,
    };
    let trimmed = path.strip_suffix('/').unwrap_or(path);
    let seg_start = trimmed.rfind('/').filter(|&i| i >= path_start)? + 1;
    let segment = &trimmed[seg_start..];
    let marked = |mark: &str, at: usize| format!("{}{mark}{}", &shown[..seg_start], &shown[seg_start + at..]);
    // Words put back where the `*` is must not end the path or the link.
    if !words.contains(['/', '?', '#', '*', '[', ']', '\\']) && segment == starred_words(words) {
        return Some(marked("*", segment.len()));
    }
    // A page's file extension stays as it is: `/news/~.html`.
    let stem = match segment.rsplit_once('.') {
        Some((stem, ext)) if (1..=5).contains(&ext.len()) && ext.bytes().all(|b| b.is_ascii_lowercase()) => stem,
        _ => segment,
    };
    (!stem.is_empty() && stem == slug_words(words)).then(|| marked("~", stem.len()))
}

#[cfg(test)]
mod tests {
    use super::{clip_opaque, compact, star_words, unwrap_redirect};
    const PAGE: Option<&str> = Some("https://example.com/docs/a.html?x=1#top");

    #[test]
    fn same_origin_becomes_a_path() {
        assert_eq!(compact("https://example.com/b/c?q=2", PAGE).unwrap(), "/b/c?q=2");
        assert_eq!(compact("https://EXAMPLE.com", PAGE).unwrap(), "/");
    }

    #[test]
    fn same_path_with_another_query_becomes_the_query() {
        assert_eq!(compact("https://example.com/docs/a.html?x=2", PAGE).unwrap(), "?x=2");
        assert_eq!(compact("https://example.com/docs/a.html?x=2&utm_source=a#s", PAGE).unwrap(), "?x=2#s");
        // No query left: the path says it is not this page's query.
        assert_eq!(compact("https://example.com/docs/a.html", PAGE).unwrap(), "/docs/a.html");
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
    fn campaign_and_mail_tracking_parameters_from_the_public_lists_are_removed() {
        assert_eq!(
            compact("https://tutors.telegraph.co.uk/?WT.mc_id=tmg_nav_menu", PAGE).unwrap(),
            "https://tutors.telegraph.co.uk/"
        );
        assert_eq!(
            compact("https://news.example.org/a?id=7&mc_cid=4b2&mc_eid=9f&_hsenc=p2A&mtm_campaign=x&gbraid=0A", PAGE).unwrap(),
            "https://news.example.org/a?id=7"
        );
    }

    #[test]
    fn a_sites_own_tracking_names_go_there_only() {
        // `ref_` and `pf_rd_*` are Amazon's click tags; `sr` selects content elsewhere.
        assert_eq!(
            compact("https://www.amazon.co.uk/dp/B00X?ref_=nav_logo&pf_rd_p=12&qid=1&sr=8-1&th=1", PAGE).unwrap(),
            "https://www.amazon.co.uk/dp/B00X"
        );
        assert_eq!(compact("https://stats.example.net/t?sr=8-1&qid=1", PAGE).unwrap(), "https://stats.example.net/t?sr=8-1&qid=1");
        assert_eq!(compact("https://twitter.com/jack/status/20?s=20&t=AbC", PAGE).unwrap(), "https://twitter.com/jack/status/20");
    }

    #[test]
    fn a_url_ending_with_a_whole_other_url_after_a_slash_is_a_copy_of_it() {
        use super::copy_prefix;
        let original = "http://www.doc.govt.nz/conservation/reptiles/?a=1";
        let archived = format!("https://web.archive.org/web/20150129135945/{original}");
        assert_eq!(copy_prefix(&archived, original), Some("https://web.archive.org/web/20150129135945/"));
        // Not a copy: the same URL, a path that only ends like it, a redirect's parameter.
        assert_eq!(copy_prefix(original, original), None);
        assert_eq!(copy_prefix("https://a.test/x/reptiles/?a=1", "/reptiles/?a=1"), None);
        assert_eq!(copy_prefix(&format!("https://r.test/go?u={original}"), original), None);
    }

    #[test]
    fn a_last_segment_that_is_the_links_words_is_a_star() {
        assert_eq!(star_words("/users/KuroKitsuneNoYoko", "KuroKitsuneNoYoko").as_deref(), Some("/users/*"));
        assert_eq!(star_words("https://en.wikipedia.org/wiki/Time_loop#Film", "Time loop").as_deref(), Some("https://en.wikipedia.org/wiki/*#Film"));
        assert_eq!(star_words("/user/smartypants333/?sort=new", "smartypants333").as_deref(), Some("/user/*/?sort=new"));
        // Another case, a short name, a host, another segment: printed whole.
        assert_eq!(star_words("/Presse", "presse"), None);
        assert_eq!(star_words("/g/1", "1"), None);
        assert_eq!(star_words("https://golang.org", "golang.org"), None);
        assert_eq!(star_words("/users/bob/works", "bob"), None);
        assert_eq!(star_words("/a/b*c", "b*c"), None);
    }

    #[test]
    fn a_last_segment_that_is_the_links_words_as_a_slug_is_a_tilde() {
        // A WordPress post, a news article with its extension, a section.
        assert_eq!(
            star_words("http://fandom.wikia.com/articles/dracula-untold-may-get-another-chance", "\u{2018}Dracula Untold\u{2019} May Get Another Chance").as_deref(),
            Some("http://fandom.wikia.com/articles/~")
        );
        assert_eq!(star_words("/world/2019/nov/20/china-completes-landing-test.html?x=1", "China completes landing test").as_deref(), Some("/world/2019/nov/20/~.html?x=1"));
        assert_eq!(star_words("/presse/", "Presse").as_deref(), Some("/~/"));
        assert_eq!(star_words("/videos/what-is-dont-breathe/", "What is Don\u{2019}t Breathe?").as_deref(), Some("/videos/~/"));
        assert_eq!(star_words("/n/indonesia-dead-whale-had-1000-pieces", "Indonesia: dead whale had 1,000 pieces").as_deref(), Some("/n/~"));
        // A slug that drops words, a URL already holding a tilde, another segment: printed whole.
        assert_eq!(star_words("/a/5-worst-video-game-reboots", "The 5 Worst Video Game Reboots"), None);
        assert_eq!(star_words("/~bob/tiny-house", "Tiny House"), None);
        assert_eq!(star_words("/tiny-house/photos", "Tiny House"), None);
        assert_eq!(star_words("/a/.html", "!!!!"), None);
    }

    #[test]
    fn another_site_on_the_pages_scheme_drops_the_scheme() {
        use super::scheme_relative;
        assert_eq!(scheme_relative("https://other.org/a?b#c", PAGE), "//other.org/a?b#c");
        assert_eq!(scheme_relative("HTTPS://other.org", PAGE), "//other.org");
        // Another scheme, a path, a page with no URL: as they are.
        assert_eq!(scheme_relative("http://other.org/a", PAGE), "http://other.org/a");
        assert_eq!(scheme_relative("mailto:a@b.org", PAGE), "mailto:a@b.org");
        assert_eq!(scheme_relative("/b/c", PAGE), "/b/c");
        assert_eq!(scheme_relative("https://other.org/a", None), "https://other.org/a");
        // A mark for the words is found after the host.
        assert_eq!(star_words("//fandom.wikia.com/articles/why-birth-nation", "Why Birth Nation").as_deref(), Some("//fandom.wikia.com/articles/~"));
        assert_eq!(star_words("//time-loop.org", "time loop"), None);
    }

    #[test]
    fn a_slug_is_lower_case_letters_and_digits_between_single_dashes() {
        use super::slug_words;
        assert_eq!(slug_words("  Hello, World!  "), "hello-world");
        assert_eq!(slug_words("It's 3.5 \u{2013} Caf\u{e9} au lait"), "its-3-5-caf-au-lait");
        assert_eq!(slug_words("A\u{2019}B"), "ab");
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

    fn unwrapped(url: &str) -> (String, &'static str) {
        unwrap_redirect(url, PAGE).unwrap_or_else(|| panic!("not unwrapped: {url}"))
    }

    #[test]
    fn google_url_redirect_shows_its_destination() {
        let u = "https://www.google.com/url?sa=t&rct=j&q=&esrc=s&source=web&cd=1&ved=2ahUKEwj&url=https%3A%2F%2Fdoc.rust-lang.org%2Fbook%2F&usg=AOvVaw0";
        assert_eq!(unwrapped(u), ("https://doc.rust-lang.org/book/".into(), "google-url"));
        let q = "https://www.google.co.uk/url?q=https://en.wikipedia.org/wiki/Rust&sa=U&ved=0ahUKE&usg=AFQjCN";
        assert_eq!(unwrapped(q).0, "https://en.wikipedia.org/wiki/Rust");
        assert_eq!(compact(q, PAGE).unwrap(), "https://en.wikipedia.org/wiki/Rust");
    }

    #[test]
    fn bing_click_url_decodes_its_base64_destination() {
        let u = "https://www.bing.com/ck/a?!&&p=4d1c1b3e8f3c0f1aJmltdHM9MTcwMDAwMDAwMA&ptn=3&ver=2&hsh=3&fclid=1c2d&u=a1aHR0cHM6Ly93d3cucnVzdC1sYW5nLm9yZy9sZWFybg&ntb=1";
        assert_eq!(unwrapped(u), ("https://www.rust-lang.org/learn".into(), "bing-ck"));
    }

    #[test]
    fn facebook_outbound_link_shows_its_destination() {
        let u = "https://l.facebook.com/l.php?u=https%3A%2F%2Fwww.nytimes.com%2F2024%2F01%2F02%2Fworld%2Fstory.html%3Fsmid%3Dfb&h=AT0x9Kq&s=1";
        assert_eq!(unwrapped(u), ("https://www.nytimes.com/2024/01/02/world/story.html?smid=fb".into(), "facebook-l"));
        // The destination loses its own tracking tag too.
        assert_eq!(compact(u, PAGE).unwrap(), "https://www.nytimes.com/2024/01/02/world/story.html");
    }

    #[test]
    fn outlook_and_defender_safelinks_show_their_destination() {
        let u = "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2Finvoice%3Fid%3D42&data=05%7C01%7Cme%40corp.com%7C&sdata=abc%3D&reserved=0";
        assert_eq!(unwrapped(u), ("https://example.org/invoice?id=42".into(), "outlook-safelinks"));
        let g = "https://gcc02.safelinks.protection.office365.us/?url=https%3A%2F%2Fagency.gov%2Fform&data=05&reserved=0";
        assert_eq!(unwrapped(g).1, "defender-safelinks");
    }

    #[test]
    fn duckduckgo_result_link_shows_its_destination() {
        let u = "https://duckduckgo.com/l/?uddg=https%3A%2F%2Fdeveloper.mozilla.org%2Fen-US%2Fdocs%2FWeb&rut=5f3c1a";
        assert_eq!(unwrapped(u), ("https://developer.mozilla.org/en-US/docs/Web".into(), "duckduckgo-l"));
    }

    #[test]
    fn chat_and_social_redirectors_show_their_destination() {
        let cases = [
            ("https://slack-redir.net/link?url=https%3A%2F%2Fgithub.com%2Frust-lang%2Frust", "https://github.com/rust-lang/rust", "slack-redir"),
            ("https://out.reddit.com/t3_x1y2z?url=https%3A%2F%2Fexample.com%2Fpost&token=AQAA&app_name=web2x", "https://example.com/post", "reddit-out"),
            ("https://www.linkedin.com/redir/redirect?url=https%3A%2F%2Fexample%2Ecom%2Fjobs&urlhash=Ab3_", "https://example.com/jobs", "linkedin-redir"),
            ("https://www.linkedin.com/safety/go?url=https%3A%2F%2Fblog.example.com&trk=flagship-messaging", "https://blog.example.com", "linkedin-safety"),
            ("https://www.youtube.com/redirect?event=video_description&redir_token=QUFFLUhq&q=https%3A%2F%2Fexample.com%2Fshop&v=abc", "https://example.com/shop", "youtube-redirect"),
        ];
        for (u, dest, rule) in cases {
            assert_eq!(unwrapped(u), (dest.to_string(), rule), "{u}");
        }
    }

    #[test]
    fn a_sites_own_redirect_path_with_one_url_parameter_shows_its_destination() {
        let u = "https://example.com/out?url=https%3A%2F%2Fpartner.org%2Foffer&pos=3";
        assert_eq!(unwrapped(u), ("https://partner.org/offer".into(), "same-site-redirect"));
        assert_eq!(unwrapped("https://www.example.com/go.php?to=https://x.org/").0, "https://x.org/");
        // Not a redirect path, another site, or two URLs: left as it is.
        assert_eq!(unwrap_redirect("https://example.com/login?next=https%3A%2F%2Fexample.com%2Fme", PAGE), None);
        assert_eq!(unwrap_redirect("https://other.net/out?url=https%3A%2F%2Fx.org", PAGE), None);
        assert_eq!(unwrap_redirect("https://example.com/out?a=https%3A%2F%2Fx.org&b=https%3A%2F%2Fy.org", PAGE), None);
        assert_eq!(unwrap_redirect("https://www.google.com/search?q=https%3A%2F%2Fx.org", PAGE), None);
    }

    #[test]
    fn a_parameter_that_is_not_an_absolute_url_is_no_destination() {
        assert_eq!(unwrap_redirect("https://www.google.com/url?q=javascript%3Aalert(1)", PAGE), None);
        assert_eq!(unwrap_redirect("https://www.bing.com/ck/a?u=a1bm90IGEgdXJs", PAGE), None);
    }

    #[test]
    fn a_redirect_to_the_page_itself_is_a_same_page_link() {
        assert_eq!(compact("https://www.google.com/url?q=https://example.com/docs/a.html%3Fx%3D1%23faq", PAGE).unwrap(), "#faq");
    }

    #[test]
    fn percent_encoded_letters_read_as_letters() {
        assert_eq!(compact("https://ko.wikipedia.org/wiki/%EB%A7%88%EC%9D%B4%ED%81%AC%EB%A1%9C", PAGE).unwrap(), "https://ko.wikipedia.org/wiki/마이크로");
        assert_eq!(compact("https://en.wikipedia.org/wiki/M%C4%81ori_language", PAGE).unwrap(), "https://en.wikipedia.org/wiki/Māori_language");
        // ASCII escapes and invisible characters stay encoded.
        assert_eq!(compact("https://o.org/a%20b%2Fc?q=%E2%80%8Bx", PAGE).unwrap(), "https://o.org/a%20b%2Fc?q=%E2%80%8Bx");
        assert_eq!(compact("https://o.org/caf%C3%A9%2C%20ol%C3%A9", PAGE).unwrap(), "https://o.org/café%2C%20olé");
    }

    #[test]
    fn opaque_tokens_are_clipped_words_are_not() {
        assert_eq!(
            clip_opaque("/search?q=React&stick=H4sIAAAAAAAAAOMwVOLWz9U3MDTKMSyrKPvFyLCBheEVCy8XsugrFn4uXv10fUPDDJNCy6LkNONXLDxcXCAVSUkVaRaWSAoMjNPTKiqRRHLLzY3NS5JKECLJBmW56RWmKUgiZuUGKSnllnBj0yuMTFPy4NwsM3PDnDyE-pSKNIP0NEujRaysQamJySW32CQZdi_q-Mniut9wo6Xxxk1ij7ez_3L_W5s2Y-UiDrGA1PyCnFSFxJzifIXi1MSi5AyFtPyiFRyMABv4rwv-AAAA&sa=X"),
            "/search?q=React&stick=H4sIAAAA…&sa=X"
        );
        assert_eq!(
            clip_opaque("https://github.com/kepano/defuddle/blob/cb4291db0f24cac0d0674d9e35fc0089338da2da/README.md"),
            "https://github.com/kepano/defuddle/blob/cb4291db…/README.md"
        );
        assert_eq!(clip_opaque("https://vignette.wikia.nocookie.net/e80dae8a-b955-43f6-8ada-f023385e622b"), "https://vignette.wikia.nocookie.net/e80dae8a…");
        for kept in [
            "http://www.eng.ox.ac.uk/about/news/new-study-shows-nearly-half-of-us-jobs-at-risk-of-computerisation",
            "/wiki/List_of_countries_and_dependencies_by_population_density",
            "https://www.aljazeera.com/news/2018/10/bezos-blue-origin-designing-large-lunar-lander-181003201303388.html",
            "https://twitter.com/intent/tweet?url=http%3A%2F%2Fmoney.cnn.com%2F2016%2F02%2F01%2Fnews%2Findex.html",
            "/watch?v=srtMWzyqdp8&t=42",
        ] {
            assert_eq!(clip_opaque(kept), kept);
        }
        // Names and CamelCase keep runs of letters; ids that could be either stay.
        for kept in [
            "/wiki/Microsoft_v._MikeRoweSoft",
            "/users/FINALLYOldEnoughToReadSmut",
            "/users/0and0the0only0one0that0is0not0working0",
            "/templates/MultipageDocumentPage____9038.aspx",
            "https://www.youtube.com/channel/UCFkqUtdAsvIVeuWYbk4AVAQ",
            "https://www.sec.gov/ix?doc=/Archives/edgar/data/1640266/000155837022003946/lwlg-20211231x10k.htm",
        ] {
            assert_eq!(clip_opaque(kept), kept);
        }
        // A long id is a token too: the ref resolves to the full URL.
        assert_eq!(clip_opaque("/watch?v=srtMWzyqdp8&list=RDCMUCWnPjmqvljcafA0z2U1fwKQ"), "/watch?v=srtMWzyqdp8&list=RDCMUCWn…");
        assert_eq!(
            clip_opaque("/ct2/bye/rQoPWwoRrXS9-i-wudNgpQDxudhWudNzlXNiZip9Ei7ym67VZRCV-RFV-R4BA6h9Ei4L3BUgWwNG0it."),
            "/ct2/bye/rQoPWwoR…"
        );
        assert_eq!(
            clip_opaque("http://www.toralin.de/catalog/product_compare/add/product/332/uenc/aHR0cDovL3d3dy50b3JhbGluLmRlL3Byb2R1a3Rl/form_key/nqUR4nd21Gc6eyjr/"),
            "http://www.toralin.de/catalog/product_compare/add/product/332/uenc/aHR0cDov…/form_key/nqUR4nd21Gc6eyjr/"
        );
    }

    #[test]
    fn long_percent_encoded_query_values_are_clipped() {
        let share = "http://www.pinterest.com/pin/create/api_other/?url=http%3A%2F%2Flifehacker.com%2Fyup-each-week-i-give-myself-25-cash-for-1695563433&media=x.jpg&description=So%20you%20know%20what%20you%20already%20have.%20You%20can%20avoid%20buying";
        assert_eq!(
            clip_opaque(share),
            "http://www.pinterest.com/pin/create/api_other/?url=http%3A%2F%2Flif…&media=x.jpg&description=So%20you%20know…"
        );
        // Short encoded values, and long plain ones, stay.
        assert_eq!(clip_opaque("/register?returnUrl=%2fcat%2fcat-flea-tick"), "/register?returnUrl=%2fcat%2fcat-flea-tick");
    }

    #[test]
    fn a_text_fragment_directive_is_clipped_the_anchor_kept() {
        assert_eq!(
            clip_opaque("https://github.com/facebook/react-native#:~:text=React%20Native%20brings%20React's%20declarative"),
            "https://github.com/facebook/react-native#:~:text=React%20Nat…"
        );
        assert_eq!(clip_opaque("/a#install:~:text=cargo%20add"), "/a#install:~:text=cargo%20add");
    }
}
