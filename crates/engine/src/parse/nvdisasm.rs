//! Where NVIDIA's `nvdisasm` is found: a path the user set, else `PATH`, the CUDA toolkit
//! (`$CUDA_HOME`, `$CUDA_PATH`, `/usr/local/cuda*`, `/opt/cuda`), and the Python environments
//! that `pip install nvidia-cuda-nvdisasm` installs into (`nvidia/cu*/bin/` of the active
//! virtual or conda environment, of the site-packages `python3` reports, and of the user
//! site). The search runs once per process; a path set later is used as it is.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{OnceLock, RwLock};

/// The pip line that installs nvdisasm without the CUDA toolkit.
pub const PIP_INSTALL: &str = "pip install nvidia-cuda-nvdisasm";

/// Where the search looks, for messages.
pub const SEARCHED: &str = "PATH, $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda*/bin, /opt/cuda/bin \
     and the Python environment's nvidia/cu*/bin";

static CONFIGURED: RwLock<Option<PathBuf>> = RwLock::new(None);
static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Sets (or with `None` clears) the nvdisasm the user chose; it is used before any search.
pub fn set_configured(path: Option<PathBuf>) {
    if let Ok(mut c) = CONFIGURED.write() {
        *c = path.filter(|p| !p.as_os_str().is_empty());
    }
}

/// The nvdisasm to run: the configured one when it is a file, else the first found.
pub fn locate() -> Option<PathBuf> {
    let configured = CONFIGURED.read().ok().and_then(|c| c.clone());
    if let Some(p) = configured.filter(|p| p.is_file()) {
        return Some(p);
    }
    FOUND.get_or_init(search).clone()
}

/// The program name on this platform.
fn program() -> &'static str {
    if cfg!(windows) {
        "nvdisasm.exe"
    } else {
        "nvdisasm"
    }
}

fn search() -> Option<PathBuf> {
    let env_dirs = |var: &str| std::env::var_os(var).map(PathBuf::from);
    let path_dirs = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    let found = |dirs: &mut dyn Iterator<Item = PathBuf>| {
        dirs.map(|d| d.join(program())).find(|p| p.is_file())
    };
    found(&mut path_dirs.into_iter())
        .or_else(|| {
            found(
                &mut ["CUDA_HOME", "CUDA_PATH"]
                    .into_iter()
                    .filter_map(env_dirs)
                    .map(|d| d.join("bin")),
            )
        })
        .or_else(|| found(&mut toolkit_dirs().into_iter()))
        .or_else(|| {
            let roots = ["VIRTUAL_ENV", "CONDA_PREFIX"]
                .into_iter()
                .filter_map(env_dirs)
                .flat_map(|root| site_packages_of(&root))
                .chain(python_site_packages());
            found(&mut roots.flat_map(|sp| nvidia_bin_dirs(&sp)))
        })
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

/// `nvidia/cu*/bin` (the wheel's layout: `nvidia/cu13/bin/nvdisasm`) and
/// `nvidia/cuda_nvdisasm/bin` under a site-packages folder, newest CUDA first.
fn nvidia_bin_dirs(site_packages: &Path) -> Vec<PathBuf> {
    let mut dirs = entries_starting_with(&site_packages.join("nvidia"), "cu");
    dirs.sort_by_key(|p| std::cmp::Reverse(version_key(p)));
    dirs.into_iter().map(|d| d.join("bin")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_wheel_layout_under_a_site_packages_folder() {
        let root = std::env::temp_dir().join(format!("sightline-nvdisasm-{}", std::process::id()));
        let sp = root.join("lib").join("python3.12").join("site-packages");
        for cu in ["cu12", "cu13"] {
            std::fs::create_dir_all(sp.join("nvidia").join(cu).join("bin")).unwrap();
        }
        std::fs::write(sp.join("nvidia/cu12/bin").join(program()), b"").unwrap();
        std::fs::write(sp.join("nvidia/cu13/bin").join(program()), b"").unwrap();
        let found = site_packages_of(&root)
            .iter()
            .flat_map(|sp| nvidia_bin_dirs(sp))
            .map(|d| d.join(program()))
            .find(|p| p.is_file());
        assert_eq!(found, Some(sp.join("nvidia/cu13/bin").join(program())));
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
}
