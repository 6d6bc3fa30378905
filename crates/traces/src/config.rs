//! Where traces go and how, read from OpenTelemetry's standard environment
//! variables (contract §25): `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used as
//! given) or `OTEL_EXPORTER_OTLP_ENDPOINT` (`/v1/traces` appended),
//! `OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL` (`http/protobuf`, the default, or
//! `http/json`), `OTEL_EXPORTER_OTLP[_TRACES]_HEADERS` (`k=v,k2=v2`,
//! percent-decoded), `OTEL_SERVICE_NAME` (else `service.name` of
//! `OTEL_RESOURCE_ATTRIBUTES`, else `agenthub`), `OTEL_RESOURCE_ATTRIBUTES`,
//! and `OTEL_SDK_DISABLED=true` / `OTEL_TRACES_EXPORTER=none` to turn them off.
//!
//! Reading never fails a run: a value that cannot be used is an error the
//! caller shows as a warning, and traces stay off.

use std::fmt;
use thiserror::Error;

/// The service name when neither `OTEL_SERVICE_NAME` nor the resource
/// attributes give one.
pub const DEFAULT_SERVICE_NAME: &str = "agenthub";

/// How spans are encoded on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TraceProtocol {
    /// `http/protobuf`: the OTLP protobuf messages (the default).
    #[default]
    Protobuf,
    /// `http/json`: OTLP's JSON encoding of the same messages.
    Json,
}

impl TraceProtocol {
    /// The value `OTEL_EXPORTER_OTLP_PROTOCOL` names it with.
    pub fn as_str(self) -> &'static str {
        match self {
            TraceProtocol::Protobuf => "http/protobuf",
            TraceProtocol::Json => "http/json",
        }
    }

    /// The `Content-Type` of a request body in this encoding.
    pub fn content_type(self) -> &'static str {
        match self {
            TraceProtocol::Protobuf => "application/x-protobuf",
            TraceProtocol::Json => "application/json",
        }
    }
}

impl fmt::Display for TraceProtocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Everything the exporter needs: where, how, with which headers, as which service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceConfig {
    /// The full URL spans are POSTed to.
    pub endpoint: String,
    /// The body's encoding.
    pub protocol: TraceProtocol,
    /// Extra request headers (an API key for a hosted collector).
    pub headers: Vec<(String, String)>,
    /// The resource's `service.name`.
    pub service_name: String,
    /// The resource's other attributes (`OTEL_RESOURCE_ATTRIBUTES`).
    pub resource: Vec<(String, String)>,
}

/// An OpenTelemetry variable AgentHub cannot use; traces stay off.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TraceConfigError {
    /// A protocol other than the two OTLP/HTTP ones (`grpc`, a typo).
    #[error("{variable}={value:?} is not supported: AgentHub exports traces over OTLP/HTTP, use \"http/protobuf\" or \"http/json\" (traces are off)")]
    Protocol {
        /// The variable that named it.
        variable: &'static str,
        /// What it said.
        value: String,
    },
    /// The endpoint is not an `http://` or `https://` URL.
    #[error("{variable}={value:?} is not an http:// or https:// URL (traces are off)")]
    Endpoint {
        /// The variable that named it.
        variable: &'static str,
        /// What it said.
        value: String,
    },
    /// A `k=v` list with an entry that is not `k=v`, or a bad `%` escape.
    #[error(
        "{variable}: entry {entry:?} is not key=value with percent-encoded text (traces are off)"
    )]
    List {
        /// The variable.
        variable: &'static str,
        /// The entry that could not be read.
        entry: String,
    },
}

impl TraceConfig {
    /// The configuration the process environment gives; `Ok(None)` when no
    /// endpoint is set or traces are turned off.
    pub fn from_env() -> Result<Option<TraceConfig>, TraceConfigError> {
        TraceConfig::from_lookup(|name| std::env::var(name).ok())
    }

    /// As [`TraceConfig::from_env`], reading variables through `lookup`.
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<TraceConfig>, TraceConfigError> {
        let set = |name: &str| lookup(name).filter(|value| !value.trim().is_empty());
        let disabled =
            set("OTEL_SDK_DISABLED").is_some_and(|v| v.trim().eq_ignore_ascii_case("true"));
        let no_exporter = set("OTEL_TRACES_EXPORTER").is_some_and(|v| v.trim() == "none");
        if disabled || no_exporter {
            return Ok(None);
        }
        let Some(endpoint) = endpoint(&set)? else {
            return Ok(None);
        };
        let protocol = protocol(&set)?;
        let mut headers = Vec::new();
        for variable in [
            "OTEL_EXPORTER_OTLP_HEADERS",
            "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
        ] {
            if let Some(list) = set(variable) {
                headers.extend(key_values(variable, &list)?);
            }
        }
        let mut resource = match set("OTEL_RESOURCE_ATTRIBUTES") {
            Some(list) => key_values("OTEL_RESOURCE_ATTRIBUTES", &list)?,
            None => Vec::new(),
        };
        let from_resource = resource
            .iter()
            .position(|(key, _)| key == "service.name")
            .map(|at| resource.remove(at).1);
        let service_name = set("OTEL_SERVICE_NAME")
            .map(|name| name.trim().to_owned())
            .or(from_resource)
            .unwrap_or_else(|| DEFAULT_SERVICE_NAME.to_owned());
        Ok(Some(TraceConfig {
            endpoint,
            protocol,
            headers,
            service_name,
            resource,
        }))
    }
}

/// The traces endpoint as given, else the base endpoint with `/v1/traces`.
fn endpoint(set: &impl Fn(&str) -> Option<String>) -> Result<Option<String>, TraceConfigError> {
    let (variable, url) = if let Some(url) = set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") {
        ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", url.trim().to_owned())
    } else if let Some(base) = set("OTEL_EXPORTER_OTLP_ENDPOINT") {
        let base = base.trim();
        let url = format!("{}/v1/traces", base.trim_end_matches('/'));
        ("OTEL_EXPORTER_OTLP_ENDPOINT", url)
    } else {
        return Ok(None);
    };
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(TraceConfigError::Endpoint {
            variable,
            value: url,
        });
    }
    Ok(Some(url))
}

fn protocol(set: &impl Fn(&str) -> Option<String>) -> Result<TraceProtocol, TraceConfigError> {
    let named = [
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
        "OTEL_EXPORTER_OTLP_PROTOCOL",
    ]
    .into_iter()
    .find_map(|variable| set(variable).map(|value| (variable, value)));
    match named {
        None => Ok(TraceProtocol::Protobuf),
        Some((_, value)) if value.trim() == "http/protobuf" => Ok(TraceProtocol::Protobuf),
        Some((_, value)) if value.trim() == "http/json" => Ok(TraceProtocol::Json),
        Some((variable, value)) => Err(TraceConfigError::Protocol { variable, value }),
    }
}

/// `k=v,k2=v2` with keys and values percent-decoded and trimmed (W3C baggage
/// octets, as the OpenTelemetry specification reads these lists).
fn key_values(
    variable: &'static str,
    list: &str,
) -> Result<Vec<(String, String)>, TraceConfigError> {
    let bad = |entry: &str| TraceConfigError::List {
        variable,
        entry: entry.to_owned(),
    };
    list.split(',')
        .filter(|entry| !entry.trim().is_empty())
        .map(|entry| {
            let (key, value) = entry.split_once('=').ok_or_else(|| bad(entry))?;
            let key = percent_decode(key.trim()).ok_or_else(|| bad(entry))?;
            let value = percent_decode(value.trim()).ok_or_else(|| bad(entry))?;
            if key.is_empty() {
                return Err(bad(entry));
            }
            Ok((key, value))
        })
        .collect()
}

/// `%XX` escapes decoded; `None` for a broken escape or text that is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = text.get(at + 1..at + 3)?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn read(vars: &[(&str, &str)]) -> Result<Option<TraceConfig>, TraceConfigError> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        TraceConfig::from_lookup(|name| vars.get(name).cloned())
    }

    #[test]
    fn no_endpoint_means_no_traces() {
        assert_eq!(read(&[("OTEL_SERVICE_NAME", "x")]), Ok(None));
    }

    #[test]
    fn the_base_endpoint_gets_the_traces_path_with_protobuf_by_default() {
        assert_eq!(
            read(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318/")]),
            Ok(Some(TraceConfig {
                endpoint: "http://127.0.0.1:4318/v1/traces".to_owned(),
                protocol: TraceProtocol::Protobuf,
                headers: Vec::new(),
                service_name: "agenthub".to_owned(),
                resource: Vec::new(),
            }))
        );
    }

    #[test]
    fn the_traces_endpoint_is_used_as_given_and_wins() {
        let config = read(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:4318"),
            (
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                "https://b/custom/path",
            ),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
        ]);
        let config = config.ok().flatten().map(|c| (c.endpoint, c.protocol));
        assert_eq!(
            config,
            Some(("https://b/custom/path".to_owned(), TraceProtocol::Json))
        );
    }

    #[test]
    fn headers_and_resource_attributes_are_percent_decoded() {
        let config = read(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://a"),
            (
                "OTEL_EXPORTER_OTLP_HEADERS",
                "api-key=abc%3D%3D, x-team = ai%20tools",
            ),
            (
                "OTEL_RESOURCE_ATTRIBUTES",
                "service.name=bots,deployment.environment=ci",
            ),
        ])
        .ok()
        .flatten()
        .map(|c| (c.headers, c.service_name, c.resource));
        let pairs = |list: &[(&str, &str)]| {
            list.iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            config,
            Some((
                pairs(&[("api-key", "abc=="), ("x-team", "ai tools")]),
                "bots".to_owned(),
                pairs(&[("deployment.environment", "ci")]),
            ))
        );
    }

    #[test]
    fn otel_service_name_wins_over_the_resource_attribute() {
        let name = read(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://a"),
            ("OTEL_SERVICE_NAME", "reviewer"),
            ("OTEL_RESOURCE_ATTRIBUTES", "service.name=bots"),
        ])
        .ok()
        .flatten()
        .map(|c| c.service_name);
        assert_eq!(name.as_deref(), Some("reviewer"));
    }

    #[test]
    fn grpc_is_refused_with_the_variable_named() {
        assert_eq!(
            read(&[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://a"),
                ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
            ]),
            Err(TraceConfigError::Protocol {
                variable: "OTEL_EXPORTER_OTLP_PROTOCOL",
                value: "grpc".to_owned()
            })
        );
    }

    #[test]
    fn a_header_without_equals_is_refused() {
        assert_eq!(
            read(&[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://a"),
                ("OTEL_EXPORTER_OTLP_HEADERS", "justakey"),
            ]),
            Err(TraceConfigError::List {
                variable: "OTEL_EXPORTER_OTLP_HEADERS",
                entry: "justakey".to_owned()
            })
        );
    }

    #[test]
    fn an_endpoint_that_is_not_http_is_refused() {
        assert_eq!(
            read(&[("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "localhost:4318")]),
            Err(TraceConfigError::Endpoint {
                variable: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                value: "localhost:4318".to_owned()
            })
        );
    }

    #[test]
    fn sdk_disabled_turns_traces_off() {
        assert_eq!(
            read(&[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://a"),
                ("OTEL_SDK_DISABLED", "true"),
            ]),
            Ok(None)
        );
    }
}
