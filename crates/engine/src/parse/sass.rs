//! SASS text for a cubin from NVIDIA's `nvdisasm` where one is found ([`super::nvdisasm`]),
//! cached by the cubin's
//! content hash, rendered the way Nsight Compute prints instructions (predicate column of six
//! characters, branch targets as absolute addresses, no trailing `;`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

/// Why no disassembly could be had.
#[derive(Debug, thiserror::Error)]
pub enum SassError {
    #[error(
        "nvdisasm was not found (looked in {}); `{}` installs it",
        super::nvdisasm::SEARCHED,
        super::nvdisasm::PIP_INSTALL
    )]
    NotInstalled,
    #[error("nvdisasm failed: {0}")]
    Failed(String),
}

/// The `nvdisasm -c` text of a cubin, from the cache or by running nvdisasm.
pub fn disassemble(cubin: &[u8]) -> Result<String, SassError> {
    run_cached(cubin, "sass", &[])
}

/// The `nvdisasm -c --print-life-ranges` text of a cubin: each instruction followed by its
/// register life ranges ([`super::life_ranges`]). nvdisasm leaves the padding after the last
/// instruction out of it, so the SASS text comes from [`disassemble`].
pub fn life_ranges(cubin: &[u8]) -> Result<String, SassError> {
    run_cached(cubin, "life-ranges", &["--print-life-ranges"])
}

/// nvdisasm's output for a cubin with `-c` and `args`, cached under the cubin's hash and
/// `kind`.
fn run_cached(cubin: &[u8], kind: &str, args: &[&str]) -> Result<String, SassError> {
    let cache = cache_dir().map(|d| d.join(format!("{:016x}.{kind}", fnv1a(cubin))));
    if let Some(text) = cache.as_ref().and_then(|p| std::fs::read_to_string(p).ok()) {
        return Ok(text);
    }
    let Some(tool) = super::nvdisasm::locate() else {
        return Err(SassError::NotInstalled);
    };
    // nvdisasm reads a file: the cubin goes into a folder of its own, removed with it.
    let dir = tempfile::Builder::new()
        .prefix("sightline-sass-")
        .tempdir()
        .map_err(|e| SassError::Failed(e.to_string()))?;
    let input = dir.path().join(format!("{:016x}.cubin", fnv1a(cubin)));
    std::fs::write(&input, cubin).map_err(|e| SassError::Failed(e.to_string()))?;
    let output = Command::new(tool).arg("-c").args(args).arg(&input).output();
    drop(dir);
    let output = match output {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(SassError::NotInstalled),
        Err(e) => return Err(SassError::Failed(e.to_string())),
    };
    if !output.status.success() {
        return Err(SassError::Failed(
            String::from_utf8_lossy(&output.stderr).trim().to_string(),
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    if let Some(path) = cache
        && let Some(parent) = path.parent()
        && std::fs::create_dir_all(parent).is_ok()
    {
        let _ = std::fs::write(path, &text);
    }
    Ok(text)
}

/// Where disassemblies are kept.
fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("sightline").join("sass"))
}

/// FNV-1a, 64 bits: a content hash stable across builds.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The instructions of one code section of `nvdisasm -c` output, by offset, rendered as
/// Nsight Compute prints them for a function loaded at `base`.
pub fn function_sass(text: &str, section: &str, base: u64) -> Vec<(u64, String)> {
    let mut inside = false;
    let mut raw: Vec<(u64, String)> = Vec::new();
    let mut labels: HashMap<String, u64> = HashMap::new();
    let mut pending_labels: Vec<String> = Vec::new();
    for line in text.lines() {
        // Life ranges (`--print-life-ranges`) follow labels and code as a `//` comment.
        let t = line.split("//").next().unwrap_or(line).trim();
        // `.section NAME,...` starts a section; `.sectioninfo` and `.sectionflags` lines
        // describe the current one.
        if let Some(rest) = t.strip_prefix(".section")
            && rest.starts_with(char::is_whitespace)
        {
            inside = rest.trim().split(',').next().map(str::trim) == Some(section);
            continue;
        }
        if !inside {
            continue;
        }
        // Branch labels (`.L_x_3:`) and the functions a section holds besides its kernel
        // (`$__internal_0_$__cuda_sm20_sqrt_rn_f32_slowpath:`, a call target).
        if let Some(label) = t.strip_suffix(':')
            && !label.is_empty()
            && !label.contains(char::is_whitespace)
            && !label.starts_with("/*")
        {
            pending_labels.push(label.to_string());
            continue;
        }
        let Some(rest) = t.strip_prefix("/*") else {
            continue;
        };
        let Some((offset, code)) = rest.split_once("*/") else {
            continue;
        };
        let Ok(offset) = u64::from_str_radix(offset.trim(), 16) else {
            continue;
        };
        for l in pending_labels.drain(..) {
            labels.insert(l, offset);
        }
        raw.push((
            offset,
            code.trim().trim_end_matches(';').trim_end().to_string(),
        ));
    }
    raw.into_iter()
        .map(|(offset, code)| (offset, render(&code, &labels, base)))
        .collect()
}

/// `code` without its `(* ... *)` comments.
fn without_comments(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(start) = rest.find("(*") {
        let Some(len) = rest[start..].find("*)") else {
            break;
        };
        out.push_str(&rest[..start]);
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out.trim_end().to_string()
}

/// One instruction as Nsight Compute prints it.
fn render(code: &str, labels: &HashMap<String, u64>, base: u64) -> String {
    let (predicate, rest) = match code.strip_prefix('@') {
        Some(_) => code.split_once(' ').unwrap_or((code, "")),
        None => ("", code),
    };
    // Register reuse flags are an encoding detail Nsight Compute does not print, nor the
    // comments newer nvdisasm versions add (`(*"SpillRefill"*)`).
    let mut body = without_comments(rest.trim()).replace(".reuse", "");
    // Branch targets: `(.L_x_0) -> absolute address.
    while let Some(start) = body.find("`(") {
        let Some(len) = body[start..].find(')') else {
            break;
        };
        let label = &body[start + 2..start + len];
        let Some(offset) = labels.get(label) else {
            break;
        };
        // nvdisasm leaves out the comma between a register and the target
        // (`RET.REL.NODEC R2 `(.text.k)`); ncu prints `RET.REL.NODEC R2, 0x…`.
        let before = body[..start].trim_end();
        let comma = if before.contains(' ') && !before.ends_with(',') {
            ", "
        } else {
            " "
        };
        let target = format!("{comma}0x{:x}", base + offset);
        body.replace_range(before.len()..start + len + 1, &target);
    }
    format!("{predicate:<6}{body}")
}
