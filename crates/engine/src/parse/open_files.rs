//! The open-file limit of the process (`ulimit -n`): what it is, whether an error met it, and
//! how that is said, so that a report that could not be opened because too many files are
//! open says so in words instead of "Too many open files (os error 24)".

/// The soft limit of open files of this process, where the platform says.
pub fn open_file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        rustix::process::getrlimit(rustix::process::Resource::Nofile).current
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Whether an I/O error says the process (or the system) has no file descriptor left.
pub fn is_fd_limit(e: &std::io::Error) -> bool {
    // EMFILE, ENFILE.
    cfg!(unix) && matches!(e.raw_os_error(), Some(24 | 23))
}

/// The limit in words, for an error that met it: `this process has as many files open as it
/// may (256, the open-file limit \`ulimit -n\`)`.
pub fn limit_words() -> String {
    let limit = open_file_limit().map_or_else(|| "its limit".to_string(), |n| n.to_string());
    format!(
        "this process has as many files open as it may ({limit}, the open-file limit `ulimit -n`)"
    )
}

/// An I/O error as a person reads it: the open-file limit in words (with what to do), any
/// other error as the system says it.
pub fn io_error_text(e: &std::io::Error) -> String {
    if is_fd_limit(e) {
        format!(
            "{}; raise the limit or open fewer reports at once",
            limit_words()
        )
    } else {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_said_in_words() {
        let met = std::io::Error::from_raw_os_error(24);
        let text = io_error_text(&met);
        if cfg!(unix) {
            assert!(text.contains("the open-file limit `ulimit -n`"), "{text}");
            let limit = open_file_limit().expect("a limit on Unix");
            assert!(text.contains(&format!("({limit},")), "{text}");
        }
        let other = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert_eq!(io_error_text(&other), other.to_string());
    }
}
