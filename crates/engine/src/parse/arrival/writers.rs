//! Who writes a file, where the platform can tell (Linux, through `/proc`): an ncu process
//! whose output (`-o`/`--export`, resolved against its working folder) is the file, or any
//! process holding the file open for writing. ncu opens its report for each result it
//! appends and closes it between them, so only its command line says that it is still
//! profiling into the file. Only the processes this one may look at are seen (the same user's,
//! usually); elsewhere nothing is known and a report settles by its quiet time alone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A process writing a report file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Writer {
    /// An ncu process profiling into it.
    Ncu { pid: u32 },
    /// A process holding it open for writing; `name` is its command name.
    Process { pid: u32, name: String },
}

/// Tells which of some files a process writes now.
pub trait WriterCheck {
    /// The writer of each of `files` that one writes (files written by none are left out).
    fn writers(&mut self, files: &[PathBuf]) -> HashMap<PathBuf, Writer>;
}

/// The processes of this machine, as `/proc` shows them (nothing on other platforms).
#[derive(Debug, Default, Clone, Copy)]
pub struct ProcWriters;

impl WriterCheck for ProcWriters {
    fn writers(&mut self, files: &[PathBuf]) -> HashMap<PathBuf, Writer> {
        if cfg!(target_os = "linux") {
            scan(Path::new("/proc"), files)
        } else {
            HashMap::new()
        }
    }
}

/// The writers of `files` among the processes under `proc`.
fn scan(proc: &Path, files: &[PathBuf]) -> HashMap<PathBuf, Writer> {
    // Each file by its real path (what /proc's links and a resolved `-o` name), back to the
    // path it was asked by.
    let real: HashMap<PathBuf, &PathBuf> = files
        .iter()
        .map(|f| (std::fs::canonicalize(f).unwrap_or_else(|_| f.clone()), f))
        .collect();
    let mut found = HashMap::new();
    let Ok(entries) = std::fs::read_dir(proc) else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let dir = entry.path();
        if let Some(target) = ncu_output(&dir)
            && let Some(file) = matching(&real, &target)
        {
            found.insert(file.clone(), Writer::Ncu { pid });
            continue;
        }
        for fd in writing_descriptors(&dir, &real) {
            if found.contains_key(fd) {
                continue;
            }
            let name = std::fs::read_to_string(dir.join("comm"))
                .map(|c| c.trim().to_string())
                .unwrap_or_default();
            found.insert(fd.clone(), Writer::Process { pid, name });
        }
    }
    found
}

/// The files of `real` the process at `dir` holds open for writing.
fn writing_descriptors<'a>(dir: &Path, real: &HashMap<PathBuf, &'a PathBuf>) -> Vec<&'a PathBuf> {
    let mut out = Vec::new();
    // Another user's process: not readable, nothing known.
    let Ok(fds) = std::fs::read_dir(dir.join("fd")) else {
        return out;
    };
    for fd in fds.flatten() {
        let Ok(target) = std::fs::read_link(fd.path()) else {
            continue;
        };
        let Some(file) = real.get(&target) else {
            continue;
        };
        let info = dir.join("fdinfo").join(fd.file_name());
        if std::fs::read_to_string(info).is_ok_and(|text| opened_for_writing(&text)) {
            out.push(*file);
        }
    }
    out
}

/// Whether an `fdinfo` text says the descriptor was opened for writing (`flags:` in octal,
/// access mode `O_WRONLY` or `O_RDWR`).
fn opened_for_writing(fdinfo: &str) -> bool {
    fdinfo
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        .is_some_and(|flags| flags & 0o3 != 0)
}

/// The report an ncu process at `dir` writes: its `-o`/`--export` name, resolved against its
/// working folder, with `.ncu-rep` added as ncu adds it. `None` for any other process.
fn ncu_output(dir: &Path) -> Option<PathBuf> {
    let cmdline = std::fs::read(dir.join("cmdline")).ok()?;
    let args: Vec<String> = cmdline
        .split(|&b| b == 0)
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    let name = export_name(&args)?;
    let cwd = std::fs::read_link(dir.join("cwd")).ok()?;
    Some(cwd.join(report_name(&name)))
}

/// The export name given to ncu in `args` (a command line: ncu itself, or the shell running
/// its launcher script), `None` when the command is no ncu or names no output.
fn export_name(args: &[String]) -> Option<String> {
    let is_ncu = |a: &String| Path::new(a).file_name().is_some_and(|n| n == "ncu");
    // `ncu …`, or `/bin/sh /opt/…/ncu …` (the launcher script).
    let start = args.iter().take(2).position(is_ncu)?;
    let mut rest = args[start + 1..].iter();
    while let Some(arg) = rest.next() {
        if arg == "-o" || arg == "--export" {
            return rest.next().cloned();
        }
        if let Some(value) = arg.strip_prefix("--export=") {
            return Some(value.to_string());
        }
    }
    None
}

/// ncu's report file name for an export name: `.ncu-rep` is added unless it ends so.
fn report_name(name: &str) -> String {
    if name.ends_with(".ncu-rep") {
        name.to_string()
    } else {
        format!("{name}.ncu-rep")
    }
}

/// The file of `real` that ncu's output `target` names: the same path, or, where the name
/// holds ncu's macros (`%p` the process ID, `%i` a number, `%h` the host, `%q{VAR}`), a file
/// in the same folder whose name has the literal parts in order.
fn matching<'a>(real: &HashMap<PathBuf, &'a PathBuf>, target: &Path) -> Option<&'a PathBuf> {
    let target = normalized(target);
    if let Some(file) = real.get(&target) {
        return Some(*file);
    }
    let pattern = target.file_name()?.to_str()?;
    if !pattern.contains('%') {
        return None;
    }
    let parts = literal_parts(pattern);
    real.iter()
        .filter(|(path, _)| path.parent() == target.parent())
        .find(|(path, _)| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|name| fits(name, &parts))
        })
        .map(|(_, file)| *file)
}

/// A path with `.` left out and `..` taken back (ncu's `-o ../runs/x`), without touching the
/// disk: the report may not exist yet.
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The literal parts of a name with ncu's macros (`run_%p_%i.ncu-rep` → `run_`, `_`,
/// `.ncu-rep`).
fn literal_parts(pattern: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            if let Some(last) = parts.last_mut() {
                last.push(c);
            }
            continue;
        }
        match chars.next() {
            Some('%') => {
                if let Some(last) = parts.last_mut() {
                    last.push('%');
                }
            }
            Some('q') if chars.peek() == Some(&'{') => {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
                parts.push(String::new());
            }
            _ => parts.push(String::new()),
        }
    }
    parts
}

/// Whether `name` starts with the first part, ends with the last and holds the others in
/// order between them.
fn fits(name: &str, parts: &[String]) -> bool {
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return false;
    };
    if parts.len() < 2 {
        return name == first;
    }
    let Some(mut rest) = name.strip_prefix(first.as_str()) else {
        return false;
    };
    let Some(middle_end) = rest.len().checked_sub(last.len()) else {
        return false;
    };
    if !rest.ends_with(last.as_str()) {
        return false;
    }
    rest = &rest[..middle_end];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part.as_str()) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn ncu_command_lines_name_their_output() {
        assert_eq!(
            export_name(&args("ncu --set basic -f -o out/slow ./slow")).as_deref(),
            Some("out/slow")
        );
        // The launcher script run by a shell, as `ps` shows ncu.
        assert_eq!(
            export_name(&args(
                "/bin/sh /opt/nvidia/nsight-compute/2025.3.1/ncu --export=run ./app -o x"
            ))
            .as_deref(),
            Some("run")
        );
        // The application's own `-o` after ncu's is not ncu's.
        assert_eq!(
            export_name(&args("ncu --export first ./app -o second")).as_deref(),
            Some("first")
        );
        assert_eq!(export_name(&args("ncu ./app")), None);
        assert_eq!(export_name(&args("cp -o a b")), None);
        assert_eq!(report_name("out/slow"), "out/slow.ncu-rep");
        assert_eq!(report_name("slow.ncu-rep"), "slow.ncu-rep");
        assert_eq!(
            normalized(Path::new("/w/./a/../runs/x.ncu-rep")),
            PathBuf::from("/w/runs/x.ncu-rep")
        );
    }

    #[test]
    fn macros_match_the_names_ncu_makes_of_them() {
        let parts = literal_parts("run_%p_%i.ncu-rep");
        assert_eq!(parts, ["run_", "_", ".ncu-rep"]);
        assert!(fits("run_4242_3.ncu-rep", &parts));
        assert!(!fits("walk_4242_3.ncu-rep", &parts));
        assert!(!fits("run_4242.ncu-rep", &parts));
        assert_eq!(literal_parts("a%q{HOME}b%%"), ["a", "b%"]);
        assert!(fits("a-x-b%", &literal_parts("a%q{HOME}b%%")));
    }

    #[test]
    fn write_access_is_read_from_fdinfo() {
        assert!(opened_for_writing("pos:\t0\nflags:\t0100001\nmnt_id:\t1\n"));
        assert!(opened_for_writing("flags:\t02\n"));
        assert!(!opened_for_writing("pos:\t0\nflags:\t0100000\n"));
        assert!(!opened_for_writing("pos:\t0\n"));
    }

    /// This very process, holding a file open for writing, is found writing it; once the
    /// file is closed, nobody is.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_held_open_for_writing_has_a_writer() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.ncu-rep");
        let mut file = std::fs::File::create(&path).unwrap();
        file.write_all(b"NVR\0").unwrap();
        let other = dir.path().join("other.ncu-rep");
        std::fs::write(&other, b"NVR\0").unwrap();
        let read_only = std::fs::File::open(&other).unwrap();
        let files = vec![path.clone(), other.clone()];
        let found = ProcWriters.writers(&files);
        assert_eq!(
            found.get(&path),
            Some(&Writer::Process {
                pid: std::process::id(),
                name: std::fs::read_to_string("/proc/self/comm")
                    .unwrap()
                    .trim()
                    .to_string()
            })
        );
        // Open for reading only: no writer.
        assert_eq!(found.get(&other), None);
        drop((file, read_only));
        assert!(ProcWriters.writers(&files).is_empty());
    }
}
