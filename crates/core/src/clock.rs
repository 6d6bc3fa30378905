//! Wall-clock time as RFC 3339 UTC text, for transcript records, without a
//! date library: the civil date from days since 1970 (Howard Hinnant's
//! algorithm), exact for the proleptic Gregorian calendar.

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs())
        .unwrap_or(0);
    rfc3339(seconds)
}

/// `time` as `YYYY-MM-DDTHH:MM:SSZ` (a time before 1970 as 1970's first second).
pub fn utc_time(time: SystemTime) -> String {
    let seconds = time
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs())
        .unwrap_or(0);
    rfc3339(seconds)
}

/// Now, as `YYYY-MM-DDTHH:MM:SS.mmmZ` (Claude Code's transcript timestamps).
pub(crate) fn utc_now_millis() -> String {
    let elapsed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let seconds = rfc3339(elapsed.as_secs());
    let whole = seconds.trim_end_matches('Z');
    format!("{whole}.{:03}Z", elapsed.subsec_millis())
}

/// `seconds` since 1970-01-01T00:00:00Z as RFC 3339 UTC.
pub(crate) fn rfc3339(seconds: u64) -> String {
    let days = i64::try_from(seconds / 86_400).unwrap_or(i64::MAX);
    let (year, month, day) = civil_from_days(days);
    let of_day = seconds % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    )
}

fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::rfc3339;

    #[test]
    fn seconds_since_the_epoch_read_as_rfc3339_utc() {
        assert_eq!(
            [0, 951_782_400, 1_796_081_657].map(rfc3339),
            [
                "1970-01-01T00:00:00Z".to_owned(),
                "2000-02-29T00:00:00Z".to_owned(),
                "2026-11-30T23:34:17Z".to_owned()
            ]
        );
    }
}
