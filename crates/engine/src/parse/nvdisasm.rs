//! Every NVIDIA `nvdisasm` on the machine and the GPU architectures each can read. Searched
//! (once per process): `PATH`, the CUDA toolkit (`$CUDA_HOME`, `$CUDA_PATH`,
//! `/usr/local/cuda*`, `/opt/cuda`), conda's `cuda-nvdisasm` (`$CONDA_PREFIX/bin`), and the
//! Python environments of the active virtual or conda environment, of the `python3` on `PATH`
//! and of the user site: pip's `nvidia-cuda-nvdisasm` (`nvidia/cu*/bin/`) and the copy the
//! Triton wheel carries (`triton/backends/nvidia/bin/`, CUDA 12 up to Triton 3.5). Each tool's
//! CUDA release (`nvdisasm --version`) says which architectures it handles: CUDA 13 refuses
//! Maxwell, Pascal and Volta, which CUDA 12 reads.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The pip line that installs nvdisasm without the CUDA toolkit (CUDA 13: Turing and newer).
pub const PIP_INSTALL: &str = "pip install nvidia-cuda-nvdisasm";

/// A way to a CUDA 12 nvdisasm (Maxwell to Blackwell) without the CUDA toolkit.
pub const CUDA12_INSTALL: &str = "pip install \"triton<3.6\" in a throwaway virtual environment \
     (its triton/backends/nvidia/bin/nvdisasm is CUDA 12), a CUDA 12 toolkit, or conda's cuda-nvdisasm=12";

/// Where the search looks, for messages.
pub const SEARCHED: &str = "PATH, $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda*/bin, /opt/cuda/bin, \
     $CONDA_PREFIX/bin and the Python environments' nvidia/cu*/bin and triton/backends/nvidia/bin";

/// A CUDA release (`12.8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Release {
    pub major: u32,
    pub minor: u32,
}

impl std::fmt::Display for Release {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl Release {
    /// The release in `nvdisasm --version`'s text (`Cuda compilation tools, release 12.8,
    /// V12.8.55`).
    pub fn from_version_text(text: &str) -> Option<Release> {
        let rest = &text[text.find("release ")? + "release ".len()..];
        let number: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let mut parts = number.split('.').filter_map(|p| p.parse().ok());
        Some(Release {
            major: parts.next()?,
            minor: parts.next().unwrap_or(0),
        })
    }

    /// The SM versions (`61` for sm_61) this release's nvdisasm reads: the lowest and, where
    /// known, the highest. Releases newer than any known read everything from their lowest on.
    pub fn arch_range(self) -> (u32, Option<u32>) {
        match (self.major, self.minor) {
            (13.., _) => (75, None),
            (12, 9..) => (50, Some(121)),
            (12, 8) => (50, Some(120)),
            (12, _) => (50, Some(90)),
            (11, 8..) => (35, Some(90)),
            (11, 1..) => (35, Some(87)),
            (11, _) => (35, Some(80)),
            (10, _) => (30, Some(75)),
            _ => (20, Some(72)),
        }
    }

    /// Whether this release's nvdisasm reads code of `sm`.
    pub fn handles(self, sm: u32) -> bool {
        let (low, high) = self.arch_range();
        sm >= low && high.is_none_or(|h| sm <= h)
    }
}

/// The family name of an SM version, for messages (`sm_61 (Pascal)`).
pub fn arch_name(sm: u32) -> String {
    let family = match sm {
        30..=37 => "Kepler",
        50..=53 => "Maxwell",
        60..=62 => "Pascal",
        70..=72 => "Volta",
        75 => "Turing",
        80..=88 => "Ampere",
        89 => "Ada",
        90..=99 => "Hopper",
        100..=129 => "Blackwell",
        _ => "",
    };
    if family.is_empty() {
        format!("sm_{sm}")
    } else {
        format!("sm_{sm} ({family})")
    }
}

/// One nvdisasm program and its CUDA release (`None` when `--version` did not say).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nvdisasm {
    pub path: PathBuf,
    pub release: Option<Release>,
}

impl Nvdisasm {
    /// The nvdisasm at `path`, its release asked of it.
    pub fn at(path: PathBuf) -> Nvdisasm {
        let release = Command::new(&path)
            .arg("--version")
            .output()
            .ok()
            .and_then(|o| Release::from_version_text(&String::from_utf8_lossy(&o.stdout)));
        Nvdisasm { path, release }
    }

    /// Whether it reads code of `sm`; a tool of unknown release is tried on anything.
    pub fn handles(&self, sm: u32) -> bool {
        self.release.is_none_or(|r| r.handles(sm))
    }

    /// `12.8 (/path/to/nvdisasm)`, for messages.
    pub fn describe(&self) -> String {
        match self.release {
            Some(r) => format!("CUDA {r} ({})", self.path.display()),
            None => self.path.display().to_string(),
        }
    }
}

/// Every nvdisasm found on this machine, in the order searched (each program once), with its
/// release. Searched once per process.
pub fn found() -> &'static [Nvdisasm] {
    static FOUND: OnceLock<Vec<Nvdisasm>> = OnceLock::new();
    FOUND.get_or_init(|| {
        let mut seen: Vec<PathBuf> = Vec::new();
        candidates()
            .into_iter()
            .map(|d| d.join(program()))
            .filter(|p| p.is_file())
            .filter(|p| {
                let key = p.canonicalize().unwrap_or_else(|_| p.clone());
                let new = !seen.contains(&key);
                seen.push(key);
                new
            })
            .map(Nvdisasm::at)
            .collect()
    })
}

/// The program name on this platform.
fn program() -> &'static str {
    if cfg!(windows) {
        "nvdisasm.exe"
    } else {
        "nvdisasm"
    }
}

/// The folders that may hold an nvdisasm, in the order they are preferred.
fn candidates() -> Vec<PathBuf> {
    let env_dir = |var: &str| {
        std::env::var_os(var)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(
        ["CUDA_HOME", "CUDA_PATH"]
            .into_iter()
            .filter_map(env_dir)
            .map(|d| d.join("bin")),
    );
    dirs.extend(toolkit_dirs());
    dirs.extend(env_dir("CONDA_PREFIX").map(|d| d.join("bin")));
    let site_packages = ["VIRTUAL_ENV", "CONDA_PREFIX"]
        .into_iter()
        .filter_map(env_dir)
        .flat_map(|root| site_packages_of(&root))
        .chain(python_site_packages());
    for sp in site_packages {
        dirs.extend(python_bin_dirs(&sp));
    }
    dirs
}

/// `/usr/local/cuda/bin`, then `/usr/local/cuda-*/bin` newest first, then `/opt/cuda/bin`.
fn toolkit_dirs() -> Vec<PathBuf> {
    let mut versioned = entries_starting_with(Path::new("/usr/local"), "cuda-");
    versioned.sort_by_key(|p| std::cmp::Reverse(version_key(p)));
    std::iter::once(PathBuf::from("/usr/local/cuda"))
        .chain(versioned)
        .chain(std::iter::once(PathBuf::from("/opt/cuda")))
        .map(|d| d.join("bin"))
        .collect()
}

/// The entries of `dir` whose names start with `prefix` (none when it cannot be read).
fn entries_starting_with(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(prefix))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The numbers of a name such as `cuda-12.10` (so 12.10 sorts after 12.9).
fn version_key(path: &Path) -> Vec<u64> {
    path.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|part| part.parse().ok())
        .collect()
}

/// `lib/python3*/site-packages` (and `Lib/site-packages`) under an environment's root.
fn site_packages_of(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("Lib").join("site-packages")];
    out.extend(
        entries_starting_with(&root.join("lib"), "python")
            .into_iter()
            .map(|p| p.join("site-packages")),
    );
    out
}

/// The site-packages folders (user site included) of the `python3` on PATH, one per line of
/// its answer; none when there is no Python.
fn python_site_packages() -> Vec<PathBuf> {
    const ASK: &str = "import site\n\
        for p in site.getsitepackages() + [site.getusersitepackages()]:\n    print(p)";
    ["python3", "python"]
        .into_iter()
        .find_map(|python| {
            let out = Command::new(python).arg("-c").arg(ASK).output().ok()?;
            out.status.success().then(|| {
                String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(PathBuf::from)
                    .collect()
            })
        })
        .unwrap_or_default()
}

/// The folders under a site-packages folder that wheels put nvdisasm in: `nvidia/cu*/bin`
/// (pip's `nvidia-cuda-nvdisasm`: `nvidia/cu13/bin/nvdisasm`) and `nvidia/cuda_nvdisasm/bin`,
/// newest CUDA first, then Triton's `triton/backends/nvidia/bin`.
fn python_bin_dirs(site_packages: &Path) -> Vec<PathBuf> {
    let mut dirs = entries_starting_with(&site_packages.join("nvidia"), "cu");
    dirs.sort_by_key(|p| std::cmp::Reverse(version_key(p)));
    dirs.into_iter()
        .map(|d| d.join("bin"))
        .chain(std::iter::once(
            site_packages
                .join("triton")
                .join("backends")
                .join("nvidia")
                .join("bin"),
        ))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_wheel_layouts_under_a_site_packages_folder() {
        let root = std::env::temp_dir().join(format!("sightline-nvdisasm-{}", std::process::id()));
        let sp = root.join("lib").join("python3.12").join("site-packages");
        let triton = sp.join("triton/backends/nvidia/bin");
        for dir in [
            sp.join("nvidia/cu12/bin"),
            sp.join("nvidia/cu13/bin"),
            triton.clone(),
        ] {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(program()), b"").unwrap();
        }
        let found: Vec<PathBuf> = site_packages_of(&root)
            .iter()
            .flat_map(|sp| python_bin_dirs(sp))
            .map(|d| d.join(program()))
            .filter(|p| p.is_file())
            .collect();
        assert_eq!(
            found,
            vec![
                sp.join("nvidia/cu13/bin").join(program()),
                sp.join("nvidia/cu12/bin").join(program()),
                triton.join(program()),
            ]
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn versioned_toolkits_sort_newest_first() {
        let mut v = [
            PathBuf::from("/usr/local/cuda-12.9"),
            PathBuf::from("/usr/local/cuda-12.10"),
            PathBuf::from("/usr/local/cuda-11.8"),
        ];
        v.sort_by_key(|p| std::cmp::Reverse(version_key(p)));
        assert_eq!(v[0], PathBuf::from("/usr/local/cuda-12.10"));
        assert_eq!(v[2], PathBuf::from("/usr/local/cuda-11.8"));
    }

    #[test]
    fn the_release_says_which_architectures_are_read() {
        // What pip's nvidia-cuda-nvdisasm and Triton 3.5's copy print.
        let cuda13 = Release::from_version_text(
            "nvdisasm: NVIDIA (R) CUDA disassembler\nCuda compilation tools, release 13.0, V13.0.88\n",
        )
        .unwrap();
        let cuda12 =
            Release::from_version_text("Cuda compilation tools, release 12.8, V12.8.55").unwrap();
        assert_eq!(
            cuda12,
            Release {
                major: 12,
                minor: 8
            }
        );
        for sm in [61, 70] {
            assert!(!cuda13.handles(sm), "CUDA 13 refuses {}", arch_name(sm));
            assert!(cuda12.handles(sm), "CUDA 12 reads {}", arch_name(sm));
        }
        for sm in [75, 80, 90, 120] {
            assert!(cuda13.handles(sm) && cuda12.handles(sm), "sm_{sm}");
        }
        assert!(
            !Release {
                major: 12,
                minor: 4
            }
            .handles(100)
        );
        assert_eq!(Release::from_version_text("no version here"), None);
        assert_eq!(arch_name(61), "sm_61 (Pascal)");
    }
}
