//! Network by domain (contract §32): the one place a host is judged against
//! `sandbox.network.allowedDomains` / `deniedDomains`. The proxy that carries
//! sandboxed commands' connections and the WebFetch tool both ask
//! [`DomainLists::judge`]; neither matches names of its own.
//!
//! Matching is on the name the client asked for, lower-cased and without a
//! trailing dot: `example.com` matches only that name, `*.example.com` only
//! names below it, an IP address only an IP entry (a name never matches an
//! address entry, nor an address a name entry). An entry `host:port` limits
//! the port. A denied entry wins over an allowed one.
//!
//! This module only judges: it never resolves a name, opens a socket or asks
//! anybody. An unlisted host is [`DomainVerdict::Unlisted`]; what happens then
//! (a person asked, a refusal headless) is the caller's policy.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;
use thiserror::Error;

/// What sandboxed commands may reach (`sandbox.network`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum NetworkAccess {
    /// `false`: no network at all (the default).
    #[default]
    Off,
    /// `true`: the host's network, unfiltered.
    On,
    /// An object: only through AgentHub's proxy, host by host.
    Domains(DomainLists),
}

/// `allowedDomains` and `deniedDomains`, in the order they were written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DomainLists {
    /// Hosts that pass without asking.
    pub allowed: Vec<DomainEntry>,
    /// Hosts that are refused whatever else says yes.
    pub denied: Vec<DomainEntry>,
}

/// One entry of a domain list: a name, `*.` and a name, or an IP address,
/// optionally with `:port` (`[v6]:port` for an IPv6 address with a port).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainEntry {
    host: HostPattern,
    port: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum HostPattern {
    Name(String),
    Below(String),
    Address(IpAddr),
}

/// Where a client wants to connect: the host as it asked for it and the port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Destination {
    host: Host,
    port: u16,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Host {
    Name(String),
    Address(IpAddr),
}

/// What the lists say of one destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DomainVerdict {
    /// On `allowedDomains` (and on no denied entry): the entry that matched.
    Allowed(DomainEntry),
    /// On `deniedDomains`: the entry that matched.
    Denied(DomainEntry),
    /// On neither list.
    Unlisted,
}

/// A domain entry or destination that cannot be read; the text says why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{text:?} is not a domain: {why}")]
pub struct BadDomain {
    /// The text as written.
    pub text: String,
    /// What is wrong with it.
    pub why: &'static str,
}

impl DomainLists {
    /// Judges `destination`: denied first, then allowed, else unlisted.
    pub fn judge(&self, destination: &Destination) -> DomainVerdict {
        let first = |entries: &[DomainEntry]| {
            entries
                .iter()
                .find(|entry| entry.matches(destination))
                .cloned()
        };
        if let Some(entry) = first(&self.denied) {
            return DomainVerdict::Denied(entry);
        }
        match first(&self.allowed) {
            Some(entry) => DomainVerdict::Allowed(entry),
            None => DomainVerdict::Unlisted,
        }
    }

    /// Adds `later`'s entries after these, skipping ones already listed.
    pub fn add(&mut self, later: DomainLists) {
        for (ours, theirs) in [
            (&mut self.allowed, later.allowed),
            (&mut self.denied, later.denied),
        ] {
            for entry in theirs {
                if !ours.contains(&entry) {
                    ours.push(entry);
                }
            }
        }
    }
}

impl DomainEntry {
    /// Whether this entry covers `destination`.
    pub fn matches(&self, destination: &Destination) -> bool {
        if self.port.is_some_and(|port| port != destination.port) {
            return false;
        }
        match (&self.host, &destination.host) {
            (HostPattern::Name(name), Host::Name(asked)) => name == asked,
            (HostPattern::Below(parent), Host::Name(asked)) => asked
                .strip_suffix(parent.as_str())
                .is_some_and(|rest| !rest.is_empty()),
            (HostPattern::Address(address), Host::Address(asked)) => address == asked,
            _ => false,
        }
    }
}

impl Destination {
    /// A destination from a host (a name or an IP address, an IPv6 one with
    /// or without brackets) and a port.
    pub fn new(host: &str, port: u16) -> Result<Destination, BadDomain> {
        let host = read_host(host).map_err(|why| BadDomain {
            text: host.to_owned(),
            why,
        })?;
        Ok(Destination { host, port })
    }

    /// The host as matched: a lower-cased name or an address.
    pub fn host(&self) -> String {
        match &self.host {
            Host::Name(name) => name.clone(),
            Host::Address(address) => address.to_string(),
        }
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.port
    }
}

/// `name:port`, as permission records name a destination (`[v6]:port`).
impl fmt::Display for Destination {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.host {
            Host::Address(IpAddr::V6(address)) => write!(formatter, "[{address}]:{}", self.port),
            _ => write!(formatter, "{}:{}", self.host(), self.port),
        }
    }
}

/// Reads `host` or `host:port` (`[v6]:port`); a missing port is 443, the
/// port WebFetch and package managers use most. For the command line
/// (`agenthub permissions explain Network HOST`).
impl FromStr for Destination {
    type Err = BadDomain;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (host, port) = split_port(text).map_err(|why| BadDomain {
            text: text.to_owned(),
            why,
        })?;
        Destination::new(host, port.unwrap_or(443))
    }
}

impl FromStr for DomainEntry {
    type Err = BadDomain;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = |why| BadDomain {
            text: text.to_owned(),
            why,
        };
        let (host, port) = split_port(text).map_err(bad)?;
        let host = match host.strip_prefix("*.") {
            Some(parent) => match read_host(parent).map_err(bad)? {
                Host::Name(name) => HostPattern::Below(format!(".{name}")),
                Host::Address(_) => return Err(bad("`*.` goes before a name, not an address")),
            },
            None => match read_host(host).map_err(bad)? {
                Host::Name(name) => HostPattern::Name(name),
                Host::Address(address) => HostPattern::Address(address),
            },
        };
        Ok(DomainEntry { host, port })
    }
}

/// The entry as it reads in settings (lower-cased).
impl fmt::Display for DomainEntry {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.host, self.port) {
            (HostPattern::Name(name), _) => write!(formatter, "{name}")?,
            (HostPattern::Below(parent), _) => write!(formatter, "*{parent}")?,
            (HostPattern::Address(IpAddr::V6(address)), Some(_)) => {
                write!(formatter, "[{address}]")?
            }
            (HostPattern::Address(address), _) => write!(formatter, "{address}")?,
        }
        match self.port {
            Some(port) => write!(formatter, ":{port}"),
            None => Ok(()),
        }
    }
}

/// Splits `host[:port]`; a bare IPv6 address (more than one `:`) has no port.
fn split_port(text: &str) -> Result<(&str, Option<u16>), &'static str> {
    if let Some(rest) = text.strip_prefix('[') {
        let (address, after) = rest.split_once(']').ok_or("a `[` without its `]`")?;
        return match after {
            "" => Ok((address, None)),
            _ => match after.strip_prefix(':') {
                Some(port) => Ok((address, Some(read_port(port)?))),
                None => Err("text after `]` that is not `:port`"),
            },
        };
    }
    match text.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') => Ok((host, Some(read_port(port)?))),
        _ => Ok((text, None)),
    }
}

fn read_port(text: &str) -> Result<u16, &'static str> {
    match text.parse::<u16>() {
        Ok(port) if port > 0 => Ok(port),
        _ => Err("the port is not a number from 1 to 65535"),
    }
}

fn read_host(text: &str) -> Result<Host, &'static str> {
    let text = text.trim_start_matches('[').trim_end_matches(']');
    if let Ok(address) = text.parse::<IpAddr>() {
        // `::ffff:a.b.c.d` is a.b.c.d on the wire: one spelling, one entry.
        return Ok(Host::Address(address.to_canonical()));
    }
    let name = text.strip_suffix('.').unwrap_or(text).to_ascii_lowercase();
    if name.is_empty() {
        return Err("the name is empty");
    }
    if name.len() > 253 {
        return Err("the name is longer than 253 characters");
    }
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && label
                .chars()
                .all(|char| char.is_ascii_alphanumeric() || char == '-' || char == '_')
    };
    if !name.split('.').all(label_ok) {
        return Err("names are dot-separated labels of letters, digits, - and _");
    }
    if name.split('.').all(reads_as_a_number) {
        return Err("the resolver reads it as an IPv4 address; write the address as a.b.c.d");
    }
    Ok(Host::Name(name))
}

/// A label `inet_aton` reads as part of an address (`127.1`, `2130706433`,
/// `0x7f.1`): a name made only of these is an address in disguise.
fn reads_as_a_number(label: &str) -> bool {
    match label.strip_prefix("0x") {
        Some(hex) => hex.chars().all(|char| char.is_ascii_hexdigit()),
        None => label.chars().all(|char| char.is_ascii_digit()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists(allowed: &[&str], denied: &[&str]) -> DomainLists {
        let read = |texts: &[&str]| texts.iter().map(|text| text.parse().unwrap()).collect();
        DomainLists {
            allowed: read(allowed),
            denied: read(denied),
        }
    }

    fn judged(lists: &DomainLists, destination: &str) -> String {
        match lists.judge(&destination.parse().unwrap()) {
            DomainVerdict::Allowed(entry) => format!("allowed by {entry}"),
            DomainVerdict::Denied(entry) => format!("denied by {entry}"),
            DomainVerdict::Unlisted => "unlisted".to_owned(),
        }
    }

    #[test]
    fn a_name_entry_matches_only_that_name_case_and_trailing_dot_aside() {
        let lists = lists(&["example.com"], &[]);
        let seen: Vec<String> = [
            "example.com",
            "EXAMPLE.com.",
            "www.example.com",
            "badexample.com",
        ]
        .iter()
        .map(|host| judged(&lists, host))
        .collect();
        assert_eq!(
            seen,
            [
                "allowed by example.com",
                "allowed by example.com",
                "unlisted",
                "unlisted"
            ]
        );
    }

    #[test]
    fn a_wildcard_entry_matches_names_below_it_but_not_the_name_itself() {
        let lists = lists(&["*.example.org"], &[]);
        let seen: Vec<String> = [
            "a.example.org",
            "a.b.example.org",
            "example.org",
            "xexample.org",
        ]
        .iter()
        .map(|host| judged(&lists, host))
        .collect();
        assert_eq!(
            seen,
            [
                "allowed by *.example.org",
                "allowed by *.example.org",
                "unlisted",
                "unlisted"
            ]
        );
    }

    #[test]
    fn a_denied_entry_wins_over_an_allowed_one() {
        let lists = lists(&["*.example.org"], &["secret.example.org"]);
        assert_eq!(
            judged(&lists, "secret.example.org"),
            "denied by secret.example.org"
        );
    }

    #[test]
    fn an_entry_with_a_port_matches_only_that_port() {
        let lists = lists(&["example.com:8443"], &[]);
        assert_eq!(
            [
                judged(&lists, "example.com:8443"),
                judged(&lists, "example.com:443")
            ],
            ["allowed by example.com:8443", "unlisted"]
        );
    }

    #[test]
    fn an_address_matches_only_an_address_entry_and_a_name_only_a_name_entry() {
        let lists = lists(&["localhost", "::1"], &[]);
        assert_eq!(
            [
                judged(&lists, "localhost:80"),
                judged(&lists, "127.0.0.1:80"),
                judged(&lists, "[::1]:80"),
                judged(&lists, "[0:0:0:0:0:0:0:1]:80"),
            ],
            [
                "allowed by localhost",
                "unlisted",
                "allowed by ::1",
                "allowed by ::1"
            ]
        );
    }

    #[test]
    fn an_ipv4_mapped_address_is_its_ipv4_address() {
        let lists = lists(&[], &["169.254.169.254"]);
        assert_eq!(
            judged(&lists, "[::ffff:169.254.169.254]:80"),
            "denied by 169.254.169.254"
        );
    }

    #[test]
    fn a_name_the_resolver_reads_as_an_address_is_refused() {
        let refused: Vec<bool> = ["127.1", "2130706433", "0x7f.1", "0x7f000001", "1.example"]
            .iter()
            .map(|text| text.parse::<Destination>().is_err())
            .collect();
        assert_eq!(refused, [true, true, true, true, false]);
    }

    #[test]
    fn a_destination_without_a_port_is_port_443_and_displays_as_name_colon_port() {
        let destination: Destination = "Example.COM".parse().unwrap();
        assert_eq!(
            (destination.to_string(), destination.port()),
            ("example.com:443".to_owned(), 443)
        );
    }

    #[test]
    fn bad_entries_are_named_with_why() {
        let errors: Vec<String> = ["", "exa mple.com", "*.10.0.0.1", "example.com:0", "[::1"]
            .iter()
            .map(|text| text.parse::<DomainEntry>().unwrap_err().to_string())
            .collect();
        assert_eq!(
            errors,
            [
                "\"\" is not a domain: the name is empty",
                "\"exa mple.com\" is not a domain: names are dot-separated labels of letters, \
                 digits, - and _",
                "\"*.10.0.0.1\" is not a domain: `*.` goes before a name, not an address",
                "\"example.com:0\" is not a domain: the port is not a number from 1 to 65535",
                "\"[::1\" is not a domain: a `[` without its `]`",
            ]
        );
    }

    #[test]
    fn entries_display_as_written_lower_cased() {
        let shown: Vec<String> = ["*.Example.org", "example.com:8080", "[::1]:80", "10.0.0.1"]
            .iter()
            .map(|text| text.parse::<DomainEntry>().unwrap().to_string())
            .collect();
        assert_eq!(
            shown,
            ["*.example.org", "example.com:8080", "[::1]:80", "10.0.0.1"]
        );
    }

    #[test]
    fn adding_lists_keeps_order_and_skips_repeats() {
        let mut first = lists(&["a.example"], &["b.example"]);
        first.add(lists(&["a.example", "c.example"], &["d.example"]));
        assert_eq!(
            first,
            lists(&["a.example", "c.example"], &["b.example", "d.example"])
        );
    }
}
