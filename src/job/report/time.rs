//! Times as a person reads them: the report's timestamp and how long something took.
//! The calendar arithmetic is humantime's.

use std::time::SystemTime;

/// Now, as RFC 3339 UTC to the second (`2026-11-30T14:55:07Z`).
pub(crate) fn utc_now() -> String {
    rfc3339(SystemTime::now())
}

fn rfc3339(at: SystemTime) -> String {
    humantime::format_rfc3339_seconds(at).to_string()
}

/// `seconds` in the unit that suits it: `250 µs`, `12 ms`, `3.25 s`, `2 min 59 s`. Each
/// unit is chosen after rounding, so 179.6 s is `3 min 0 s` rather than `2 min 60 s`,
/// and 0.9996 s is `1.00 s` rather than `1000 ms`.
pub(crate) fn duration(seconds: f64) -> String {
    let micros = (seconds * 1e6).round();
    if micros < 1e3 {
        return format!("{micros:.0} µs");
    }
    let millis = (seconds * 1e3).round();
    if millis < 1e3 {
        return format!("{millis:.0} ms");
    }
    // Two decimals up to two minutes, where `119.996` would print as `120.00 s`.
    if (seconds * 100.0).round() < 120.0 * 100.0 {
        return format!("{seconds:.2} s");
    }
    let whole = seconds.round() as u64;
    format!("{} min {} s", whole / 60, whole % 60)
}

#[cfg(test)]
mod tests {
    use super::{duration, rfc3339};
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn known_instants() {
        let table: &[(u64, &str)] = &[
            (0, "1970-01-01T00:00:00Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (951_868_799, "2000-02-29T23:59:59Z"),
            (1_709_251_199, "2024-02-29T23:59:59Z"),
            (4_102_444_800, "2100-01-01T00:00:00Z"),
            (4_107_542_400, "2100-03-01T00:00:00Z"),
        ];
        for &(secs, want) in table {
            assert_eq!(
                rfc3339(UNIX_EPOCH + Duration::from_secs(secs)),
                want,
                "{secs}"
            );
        }
    }

    /// Each row: seconds and how they read. The rows at each unit's edge are the ones a
    /// carry after rounding gets wrong (`2 min 60 s`, `1000 ms`, `120.00 s`).
    #[test]
    fn durations_carry_after_rounding() {
        let table: &[(f64, &str)] = &[
            (0.0, "0 µs"),
            (0.000_25, "250 µs"),
            (0.000_999_6, "1 ms"),
            (0.012, "12 ms"),
            (0.999_6, "1.00 s"),
            (3.254, "3.25 s"),
            (119.994, "119.99 s"),
            (119.996, "2 min 0 s"),
            (179.4, "2 min 59 s"),
            (179.6, "3 min 0 s"),
            (3_600.0, "60 min 0 s"),
        ];
        for &(seconds, want) in table {
            assert_eq!(duration(seconds), want, "{seconds}");
        }
    }
}
