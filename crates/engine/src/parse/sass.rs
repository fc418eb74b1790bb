//! SASS text for a cubin from an NVIDIA `nvdisasm` that reads its architecture
//! ([`super::nvdisasm`]), cached by the cubin's content hash, rendered the way Nsight Compute prints instructions (predicate column of six
//! characters, branch targets as absolute addresses, no trailing `;`).

use super::nvdisasm::{self, Nvdisasm};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

/// Why no disassembly could be had.
#[derive(Debug, thiserror::Error)]
pub enum SassError {
    #[error(
        "nvdisasm was not found (looked in {}); `{}` installs it (Turing and newer), and {} reads Maxwell to Blackwell",
        nvdisasm::SEARCHED,
        nvdisasm::PIP_INSTALL,
        nvdisasm::CUDA12_INSTALL
    )]
    NotInstalled,
    #[error(
        "no nvdisasm found reads {arch} code (found: {found}); a CUDA 12 nvdisasm does: {}",
        nvdisasm::CUDA12_INSTALL
    )]
    NoneForArch { arch: String, found: String },
    #[error("nvdisasm failed: {0}")]
    Failed(String),
}

/// Which nvdisasm programs disassemble and where their output is cached: the one a cubin's
/// architecture needs is picked from them.
#[derive(Debug, Clone)]
pub struct Disassembler {
    tools: Tools,
    /// The folder disassemblies are cached in (none: not cached).
    cache: Option<PathBuf>,
    /// How long one run may take before it is stopped.
    time_limit: std::time::Duration,
}

#[derive(Debug, Clone)]
enum Tools {
    /// Every nvdisasm found on this machine ([`nvdisasm::found`]).
    Found,
    /// These alone, in this order.
    Only(Vec<Nvdisasm>),
}

impl Default for Disassembler {
    fn default() -> Self {
        Disassembler::found()
    }
}

impl Disassembler {
    /// Every nvdisasm on this machine, cached in the user's cache folder.
    pub fn found() -> Disassembler {
        Disassembler {
            tools: Tools::Found,
            cache: cache_dir(),
            time_limit: TIME_LIMIT,
        }
    }

    /// The nvdisasm programs at `paths` alone (first preferred), cached in the user's cache
    /// folder.
    pub fn only(paths: impl IntoIterator<Item = PathBuf>) -> Disassembler {
        Disassembler {
            tools: Tools::Only(paths.into_iter().map(Nvdisasm::at).collect()),
            cache: cache_dir(),
            time_limit: TIME_LIMIT,
        }
    }

    /// No nvdisasm and no cache: no SASS text is made.
    pub fn none() -> Disassembler {
        Disassembler {
            tools: Tools::Only(Vec::new()),
            cache: None,
            time_limit: TIME_LIMIT,
        }
    }

    /// The same programs, caching in `cache` (none: not cached).
    pub fn with_cache(mut self, cache: Option<PathBuf>) -> Disassembler {
        self.cache = cache;
        self
    }

    /// The same programs, each run stopped after `limit`.
    pub fn with_time_limit(mut self, limit: std::time::Duration) -> Disassembler {
        self.time_limit = limit;
        self
    }

    /// The programs it may run.
    pub fn tools(&self) -> &[Nvdisasm] {
        match &self.tools {
            Tools::Found => nvdisasm::found(),
            Tools::Only(tools) => tools,
        }
    }

    /// The `nvdisasm -c` text of a cubin, from the cache or by running nvdisasm.
    pub fn disassemble(&self, cubin: &[u8]) -> Result<String, SassError> {
        self.run_cached(cubin, "sass", &[], usize::MAX)
    }

    /// The `nvdisasm -c --print-life-ranges` text of a cubin: each instruction followed by its
    /// register life ranges ([`super::life_ranges`]). nvdisasm leaves the padding after the
    /// last instruction out of it, so the SASS text comes from [`Self::disassemble`].
    pub fn life_ranges(&self, cubin: &[u8]) -> Result<String, SassError> {
        // Life ranges are a bonus: one try, with the program preferred for the architecture.
        self.run_cached(cubin, "life-ranges", &["--print-life-ranges"], 1)
    }

    /// The programs that read the cubin's architecture, in the order preferred.
    fn tools_for(&self, cubin: &[u8]) -> Result<Vec<&Nvdisasm>, SassError> {
        let tools = self.tools();
        if tools.is_empty() {
            return Err(SassError::NotInstalled);
        }
        let Some(sm) = super::cubin::sm_of(cubin) else {
            return Ok(tools.iter().collect());
        };
        let fit: Vec<&Nvdisasm> = tools.iter().filter(|t| t.handles(sm)).collect();
        if fit.is_empty() {
            return Err(SassError::NoneForArch {
                arch: nvdisasm::arch_name(sm),
                found: tools
                    .iter()
                    .map(Nvdisasm::describe)
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        Ok(fit)
    }

    /// nvdisasm's output for a cubin with `-c` and `args`, cached under the cubin's hash and
    /// `kind`; the first `tries` programs that read the cubin's architecture are tried until
    /// one succeeds.
    fn run_cached(
        &self,
        cubin: &[u8],
        kind: &str,
        args: &[&str],
        tries: usize,
    ) -> Result<String, SassError> {
        let cache = self
            .cache
            .as_ref()
            .map(|d| d.join(format!("{:016x}.{kind}", fnv1a(cubin))));
        if let Some(text) = cache.as_ref().and_then(|p| std::fs::read_to_string(p).ok()) {
            return Ok(text);
        }
        let mut error = SassError::NotInstalled;
        for tool in self.tools_for(cubin)?.into_iter().take(tries) {
            match run(&tool.path, cubin, args, self.time_limit) {
                Ok(text) => {
                    if let Some(path) = cache
                        && let Some(parent) = path.parent()
                        && std::fs::create_dir_all(parent).is_ok()
                    {
                        let _ = std::fs::write(path, &text);
                    }
                    return Ok(text);
                }
                Err(e) => error = e,
            }
        }
        Err(error)
    }
}

/// How long one nvdisasm run may take before it is stopped (the largest modules of the
/// corpus take a few seconds).
pub const TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

/// Runs nvdisasm at `tool` with `-c` and `args` on the cubin, stopped after `limit`.
///
/// The cubin, the output and the error text are files without a name (unlinked at once), so
/// nothing is left in the temporary folder whatever ends the process. nvdisasm reads the cubin
/// as its standard input, named `/dev/stdin`: a regular file it can seek in.
fn run(
    tool: &std::path::Path,
    cubin: &[u8],
    args: &[&str],
    limit: std::time::Duration,
) -> Result<String, SassError> {
    use std::io::{Read, Seek};
    let failed = |e: std::io::Error| SassError::Failed(e.to_string());
    let (input, stdin, _named) = cubin_input(cubin).map_err(failed)?;
    let mut stdout = tempfile::tempfile().map_err(failed)?;
    let mut stderr = tempfile::tempfile().map_err(failed)?;
    let spawned = Command::new(tool)
        .arg("-c")
        .args(args)
        .arg(input)
        .stdin(stdin)
        .stdout(stdout.try_clone().map_err(failed)?)
        .stderr(stderr.try_clone().map_err(failed)?)
        .spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(SassError::NotInstalled),
        Err(e) => return Err(failed(e)),
    };
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(failed)? {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(SassError::Failed(format!(
                "{} gave no answer in {} s and was stopped",
                tool.display(),
                limit.as_secs_f64()
            )));
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let read_all = |file: &mut std::fs::File| -> Result<String, SassError> {
        let mut bytes = Vec::new();
        file.rewind().map_err(failed)?;
        file.read_to_end(&mut bytes).map_err(failed)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    };
    if !status.success() {
        return Err(SassError::Failed(read_all(&mut stderr)?.trim().to_string()));
    }
    read_all(&mut stdout)
}

/// The cubin as nvdisasm's input: the path to name and the standard input to give, and the
/// named file to keep until it ends where there is one. On Unix the cubin is a file without a
/// name given as the standard input (`/dev/stdin`), so nothing is left behind whatever ends the
/// process.
#[cfg(unix)]
fn cubin_input(
    cubin: &[u8],
) -> std::io::Result<(
    PathBuf,
    std::process::Stdio,
    Option<tempfile::NamedTempFile>,
)> {
    use std::io::{Seek, Write};
    let mut file = tempfile::tempfile()?;
    file.write_all(cubin)?;
    file.rewind()?;
    Ok((PathBuf::from("/dev/stdin"), file.into(), None))
}

#[cfg(not(unix))]
fn cubin_input(
    cubin: &[u8],
) -> std::io::Result<(
    PathBuf,
    std::process::Stdio,
    Option<tempfile::NamedTempFile>,
)> {
    use std::io::Write;
    let mut file = tempfile::Builder::new()
        .prefix("sightline-sass-")
        .suffix(".cubin")
        .tempfile()?;
    file.write_all(cubin)?;
    file.flush()?;
    Ok((
        file.path().to_path_buf(),
        std::process::Stdio::null(),
        Some(file),
    ))
}

/// Where disassemblies are kept: `$SIGHTLINE_CACHE_DIR/sass`, else
/// `$XDG_CACHE_HOME/sightline/sass` (`~/.cache/sightline/sass`).
pub fn cache_dir() -> Option<PathBuf> {
    let own = |var: &str| {
        std::env::var_os(var)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = own("SIGHTLINE_CACHE_DIR") {
        return Some(dir.join("sass"));
    }
    let base = own("XDG_CACHE_HOME").or_else(|| own("HOME").map(|h| h.join(".cache")))?;
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
