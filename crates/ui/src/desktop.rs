//! Desktop integration for the current user: the `.desktop` entry, the `.ncu-rep` MIME type
//! (glob and `NVR\0` magic) and the icon, written under `$XDG_DATA_HOME` (`~/.local/share`),
//! then the desktop databases refreshed with the tools that are installed.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The desktop entry (`Exec=sightline %F`).
pub const DESKTOP_FILE: &str = include_str!("../../../assets/linux/sightline.desktop");
/// The shared-mime-info type of `*.ncu-rep`.
pub const MIME_XML: &str = include_str!("../../../assets/linux/sightline.xml");
/// The 256×256 icon.
pub const ICON_PNG: &[u8] = include_bytes!("../../../assets/icons/sightline.png");
/// The MIME type of reports.
pub const MIME_TYPE: &str = "application/x-ncu-rep";
/// The app id: names the desktop file, the icon and the window class.
pub const APP_ID: &str = "sightline";

/// Why the desktop files could not be installed.
#[derive(Debug, thiserror::Error)]
pub enum DesktopError {
    #[error("no home directory: set HOME or XDG_DATA_HOME")]
    NoDataHome,
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What an install did.
#[derive(Debug, Default)]
pub struct InstallReport {
    pub written: Vec<PathBuf>,
    /// Tools that ran, with their outcome.
    pub ran: Vec<String>,
    /// Tools that are not installed.
    pub missing: Vec<String>,
}

/// `$XDG_DATA_HOME`, else `~/.local/share`.
pub fn data_home() -> Result<PathBuf, DesktopError> {
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".local/share"))
        .ok_or(DesktopError::NoDataHome)
}

/// The desktop entry with `Exec` pointing at `exe` when `sightline` on `PATH` is another
/// program (or none), so the entry works for a binary run from a build folder.
pub fn desktop_entry_for(exe: Option<&Path>) -> String {
    let Some(exe) = exe else {
        return DESKTOP_FILE.to_string();
    };
    let on_path = find_on_path(APP_ID);
    let same = match (&on_path, exe.canonicalize().ok()) {
        (Some(p), Some(e)) => p.canonicalize().ok().as_ref() == Some(&e),
        _ => false,
    };
    if same {
        return DESKTOP_FILE.to_string();
    }
    let quoted = quote_exec(&exe.display().to_string());
    DESKTOP_FILE
        .lines()
        .map(|l| {
            if l.starts_with("Exec=") {
                format!("Exec={quoted} %F")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Quotes an `Exec` argument when it needs it (Desktop Entry spec, "The Exec key").
fn quote_exec(arg: &str) -> String {
    let special = |c: char| " \t\n\"'\\><~|&;$*?#()`".contains(c);
    if !arg.chars().any(special) {
        return arg.to_string();
    }
    let mut out = String::from("\"");
    for c in arg.chars() {
        if matches!(c, '"' | '`' | '$' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// An executable of that name on `PATH`.
fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn write(path: &Path, bytes: &[u8], report: &mut InstallReport) -> Result<(), DesktopError> {
    let io = |source| DesktopError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    std::fs::write(path, bytes).map_err(io)?;
    report.written.push(path.to_path_buf());
    Ok(())
}

/// Writes the three files under `data_home` (no tools run).
pub fn write_files(data_home: &Path, exe: Option<&Path>) -> Result<InstallReport, DesktopError> {
    let mut report = InstallReport::default();
    write(
        &data_home
            .join("applications")
            .join(format!("{APP_ID}.desktop")),
        desktop_entry_for(exe).as_bytes(),
        &mut report,
    )?;
    write(
        &data_home
            .join("mime/packages")
            .join(format!("{APP_ID}.xml")),
        MIME_XML.as_bytes(),
        &mut report,
    )?;
    write(
        &data_home
            .join("icons/hicolor/256x256/apps")
            .join(format!("{APP_ID}.png")),
        ICON_PNG,
        &mut report,
    )?;
    Ok(report)
}

/// Runs a desktop tool when it is installed; its failure is reported, not fatal.
fn run_tool(program: &str, args: &[&str], report: &mut InstallReport) {
    if find_on_path(program).is_none() {
        report.missing.push(program.to_string());
        return;
    }
    let outcome = match Command::new(program).args(args).output() {
        Ok(out) if out.status.success() => "ok".to_string(),
        Ok(out) => format!(
            "failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ),
        Err(e) => format!("could not run: {e}"),
    };
    report
        .ran
        .push(format!("{program} {}: {outcome}", args.join(" ")));
}

/// Registers the app, its icon and the `.ncu-rep` type for the current user.
pub fn install_for_current_user() -> Result<InstallReport, DesktopError> {
    let home = data_home()?;
    let exe = std::env::current_exe().ok();
    let mut report = write_files(&home, exe.as_deref())?;
    let mime_dir = home.join("mime").display().to_string();
    let apps_dir = home.join("applications").display().to_string();
    let desktop_name = format!("{APP_ID}.desktop");
    run_tool("update-mime-database", &[&mime_dir], &mut report);
    run_tool("update-desktop-database", &[&apps_dir], &mut report);
    run_tool(
        "xdg-mime",
        &["default", &desktop_name, MIME_TYPE],
        &mut report,
    );
    Ok(report)
}

/// `sightline --install-desktop`: installs and prints what happened; returns the exit code.
pub fn run_install() -> i32 {
    match install_for_current_user() {
        Ok(report) => {
            for p in &report.written {
                println!("wrote {}", p.display());
            }
            for r in &report.ran {
                println!("ran {r}");
            }
            for m in &report.missing {
                println!("skipped {m} (not installed)");
            }
            0
        }
        Err(e) => {
            eprintln!("sightline: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assets_declare_the_type_and_the_command() {
        assert!(DESKTOP_FILE.contains("\nExec=sightline %F\n"));
        assert!(DESKTOP_FILE.contains("\nMimeType=application/x-ncu-rep;\n"));
        assert!(MIME_XML.contains(r#"<glob pattern="*.ncu-rep"/>"#));
        assert!(MIME_XML.contains(r#"value="NVR\0""#));
        assert!(ICON_PNG.starts_with(b"\x89PNG\r\n\x1a\n"));
    }

    #[test]
    fn writes_the_three_files() {
        let dir = std::env::temp_dir().join(format!("sightline-desktop-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let exe = Path::new("/opt/my tools/sightline");
        let report = write_files(&dir, Some(exe)).unwrap();
        assert_eq!(report.written.len(), 3);
        let desktop = std::fs::read_to_string(dir.join("applications/sightline.desktop")).unwrap();
        assert!(
            desktop.contains("\nExec=\"/opt/my tools/sightline\" %F\n"),
            "{desktop}"
        );
        assert!(desktop.contains("MimeType=application/x-ncu-rep;"));
        let xml = std::fs::read_to_string(dir.join("mime/packages/sightline.xml")).unwrap();
        assert_eq!(xml, MIME_XML);
        let icon = std::fs::read(dir.join("icons/hicolor/256x256/apps/sightline.png")).unwrap();
        assert_eq!(icon, ICON_PNG);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
