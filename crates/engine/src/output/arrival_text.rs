//! The words of a followed folder, the window's and `sightline trend --watch`'s: a report
//! being written with its results so far, who writes it, and how its write was seen to end.

use crate::model::format::count_text;
use crate::parse::arrival::{SettledBy, Writer};
use std::time::Duration;

/// `being written, 3 results so far`.
pub fn growing_text(results: usize) -> String {
    format!(
        "being written, {} so far",
        count_text(results, "result", "results")
    )
}

/// The process writing a report: `ncu (process 4242)`, `cp (process 7)`.
pub fn writer_text(writer: &Writer) -> String {
    match writer {
        Writer::Ncu { pid } => format!("ncu (process {pid})"),
        Writer::Process { pid, name } if name.is_empty() => format!("process {pid}"),
        Writer::Process { pid, name } => format!("{name} (process {pid})"),
    }
}

/// Seconds for people: `3 s`, `0.5 s`.
fn seconds_text(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}

/// How a report's write was seen to end: `ncu finished`, `its writer closed it`, `no growth
/// for 3 s`, `cut short and unchanged for 60 s`.
pub fn settled_text(by: &SettledBy) -> String {
    match by {
        SettledBy::NcuEnded => "ncu finished".into(),
        SettledBy::WriterClosed => "its writer closed it".into(),
        SettledBy::Quiet(d) => format!("no growth for {}", seconds_text(*d)),
        SettledBy::GaveUp(d) => format!("cut short and unchanged for {}", seconds_text(*d)),
    }
}

/// What settles a report being written, for a hint: `it counts once ncu (process 4242)
/// ends`, or `once it stays the same for 3 s`.
pub fn settles_when_text(writer: Option<&Writer>, settle: Duration) -> String {
    match writer {
        Some(w) => format!("it counts once {} is done with it", writer_text(w)),
        None => format!(
            "it counts once it stays the same for {}",
            seconds_text(settle)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrivals_in_words() {
        assert_eq!(growing_text(1), "being written, 1 result so far");
        assert_eq!(growing_text(3), "being written, 3 results so far");
        assert_eq!(writer_text(&Writer::Ncu { pid: 42 }), "ncu (process 42)");
        let cp = Writer::Process {
            pid: 7,
            name: "cp".into(),
        };
        assert_eq!(writer_text(&cp), "cp (process 7)");
        assert_eq!(
            settled_text(&SettledBy::Quiet(Duration::from_secs(3))),
            "no growth for 3 s"
        );
        assert_eq!(
            settled_text(&SettledBy::Quiet(Duration::from_millis(500))),
            "no growth for 0.5 s"
        );
        assert_eq!(settled_text(&SettledBy::NcuEnded), "ncu finished");
        assert_eq!(
            settles_when_text(Some(&cp), Duration::from_secs(3)),
            "it counts once cp (process 7) is done with it"
        );
        assert_eq!(
            settles_when_text(None, Duration::from_secs(3)),
            "it counts once it stays the same for 3 s"
        );
    }
}
