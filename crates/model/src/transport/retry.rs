//! When to try a failed request again, and how long to wait first: exponential
//! backoff on 429 and 5xx, honouring the provider's `Retry-After` (seconds);
//! a timed-out request only when the policy allows it (not for a loopback
//! server, whose one slot would still be computing the abandoned request).
//!
//! Pure arithmetic, so the waits are tested without sleeping. It must never
//! allow an unbounded number of retries or an unbounded wait.

use crate::ModelError;
use std::time::Duration;

/// How many times, and how patiently, a 429 or 5xx answer is retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (0 = never retry).
    pub max_retries: u32,
    /// The wait before the first retry; doubled for each further one.
    pub base_delay: Duration,
    /// No wait is longer, whatever the backoff or `Retry-After` says.
    pub max_delay: Duration,
    /// Whether a request that timed out (or whose started answer went
    /// silent) is tried again. [`ProviderConfig::resolve`](crate::ProviderConfig::resolve)
    /// turns it off for a loopback endpoint unless settings `retryOnTimeout`
    /// is true: a local server with one slot would still be computing the
    /// abandoned request (contract §33).
    pub retry_timeouts: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            base_delay: Duration::from_millis(1000),
            max_delay: Duration::from_secs(60),
            retry_timeouts: true,
        }
    }
}

impl RetryPolicy {
    /// Whether a failure the transport calls retryable may be retried under
    /// this policy: every one, except a timeout when timeouts are not.
    pub fn may_retry(&self, error: &ModelError) -> bool {
        let timed_out = matches!(
            error,
            ModelError::Timeout { .. } | ModelError::StreamSilent { .. }
        );
        self.retry_timeouts || !timed_out
    }

    /// The wait before retry number `retry` (0-based): `Retry-After` when the
    /// provider sent one, else `base_delay * 2^retry`; capped at `max_delay`.
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        let backoff = self
            .base_delay
            .saturating_mul(2u32.saturating_pow(retry.min(16)));
        retry_after.unwrap_or(backoff).min(self.max_delay)
    }
}

/// 429 (rate limited) and every 5xx are worth another try.
pub fn is_retryable(status: u16) -> bool {
    status == 429 || (500..=599).contains(&status)
}

/// A `Retry-After` header in seconds; an HTTP date or garbage is ignored.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> RetryPolicy {
        RetryPolicy {
            max_retries: 3,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(2),
            retry_timeouts: true,
        }
    }

    #[test]
    fn a_timeout_is_retried_only_when_the_policy_retries_timeouts() {
        let timeout = ModelError::Timeout { millis: 10 };
        let status = ModelError::Status {
            status: 503,
            message: "busy".into(),
        };
        let local = RetryPolicy {
            retry_timeouts: false,
            ..policy()
        };
        assert_eq!(
            [
                policy().may_retry(&timeout),
                local.may_retry(&timeout),
                local.may_retry(&ModelError::StreamSilent { millis: 10 }),
                local.may_retry(&status),
            ],
            [true, false, false, true]
        );
    }

    #[test]
    fn backoff_doubles_with_each_retry() {
        let waits: Vec<Duration> = (0..4).map(|retry| policy().delay(retry, None)).collect();
        assert_eq!(
            waits,
            vec![
                Duration::from_millis(100),
                Duration::from_millis(200),
                Duration::from_millis(400),
                Duration::from_millis(800)
            ]
        );
    }

    #[test]
    fn retry_after_replaces_the_backoff() {
        assert_eq!(
            policy().delay(0, Some(Duration::from_secs(1))),
            Duration::from_secs(1)
        );
    }

    #[test]
    fn no_wait_exceeds_the_maximum() {
        assert_eq!(
            (
                policy().delay(0, Some(Duration::from_secs(3600))),
                policy().delay(u32::MAX, None)
            ),
            (Duration::from_secs(2), Duration::from_secs(2))
        );
    }

    #[test]
    fn only_429_and_5xx_are_retryable() {
        let statuses = [400, 401, 404, 429, 500, 503, 529, 600];
        let retryable: Vec<bool> = statuses.iter().map(|s| is_retryable(*s)).collect();
        assert_eq!(
            retryable,
            vec![false, false, false, true, true, true, true, false]
        );
    }

    #[test]
    fn retry_after_is_read_in_seconds_and_dates_are_ignored() {
        assert_eq!(
            (
                parse_retry_after(" 7 "),
                parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT")
            ),
            (Some(Duration::from_secs(7)), None)
        );
    }
}
