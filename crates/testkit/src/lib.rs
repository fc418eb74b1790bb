//! What sightline's tests share, in every crate of the workspace: fixture paths and bytes
//! (xz-compressed or plain), temporary folders, NVIDIA's readings of the fixtures (the truth
//! oracle and its comparisons in [`oracle`]), reports as ncu writes them ([`arrival`],
//! [`ncu_2026_3_report`]), the size sweep ([`sweep_fixture`]), the public text corpus
//! ([`text_public`]), bombs made by hand ([`zstd_frames`], [`comment_bomb`]), CPU time ([`cpu_time`]), a
//! child's peak memory ([`child_peak`]) and the counting allocators of the memory tests
//! ([`live_heap`], [`live_bytes`], [`largest_allocation`]). Paths are found from the root of
//! the repository ([`repo_root`]), so a test finds them from whichever crate it belongs to.

pub mod arrival;
pub mod child_peak;
pub mod comment_bomb;
pub mod cpu_time;
pub mod largest_allocation;
pub mod live_bytes;
pub mod live_heap;
pub mod ncu_2026_3_report;
pub mod oracle;
pub mod pair_fixture;
pub mod source_fixture;
pub mod sweep_fixture;
pub mod text_public;
pub mod zstd_frames;

use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The stems (under `fixtures/`) of the reports made for result kinds and print variants: each
/// has a `.ncu-rep`, a truth file and its details page.
pub const KIND_REPORTS: [&str; 8] = [
    "range/range_profiler",
    "range/range_nvtx",
    "range/apprange",
    "range/range_kernels",
    "graph/graph_graph",
    "graph/graph_node",
    "variants/metrics_only",
    "variants/multiproc",
];

/// The root of the repository (this crate is `crates/testkit` in it).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository holds crates/testkit")
}

/// A path relative to the root of the repository (`fixtures/...`, `docs/...`).
pub fn repo_path(rel: &str) -> PathBuf {
    repo_root().join(rel)
}

/// A path in the corpus shared beside the repository (`../shared/corpus/REL`).
pub fn corpus_path(rel: &str) -> PathBuf {
    repo_root().join("../shared/corpus").join(rel)
}

/// The path of a fixture, relative to `fixtures/`.
pub fn fixture_path(rel: &str) -> PathBuf {
    repo_root().join("fixtures").join(rel)
}

/// The bytes of a fixture; a `.xz` file is decompressed in memory.
pub fn fixture_bytes(rel: &str) -> Vec<u8> {
    let path = fixture_path(rel);
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if rel.ends_with(".xz") {
        let mut out = Vec::new();
        xz2::read::XzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .expect("xz");
        out
    } else {
        raw
    }
}

/// A fresh folder for one test's temporary files (named by the process, so test binaries that
/// run at the same time do not share one).
pub fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sightline-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fixture as a plain file (decompressed when it is `.xz`) in `dir`.
pub fn fixture_file(dir: &Path, rel: &str) -> PathBuf {
    let name = Path::new(rel.trim_end_matches(".xz"))
        .file_name()
        .unwrap()
        .to_owned();
    let path = dir.join(name);
    std::fs::write(&path, fixture_bytes(rel)).unwrap();
    path
}

/// A temporary folder of fixtures, removed when dropped.
pub struct TempFixtures(pub PathBuf);

impl TempFixtures {
    /// A fresh folder named for the test and the process.
    pub fn new(name: &str) -> TempFixtures {
        TempFixtures(temp_dir(name))
    }

    /// The fixture `rel` (decompressed when `.xz`) written as `name` in the folder.
    pub fn add(&self, name: &str, rel: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, fixture_bytes(rel)).unwrap();
        path
    }
}

impl Drop for TempFixtures {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The JSON a command printed, once it succeeded (its standard error in the failure).
pub fn printed_json(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the command prints JSON")
}

/// Every fixture file one folder below `fixtures/`, relative to `fixtures/`, sorted.
pub fn fixture_files() -> Vec<String> {
    let root = fixture_path("");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            let rel = path.strip_prefix(&root).unwrap();
            out.push(rel.to_string_lossy().to_string());
        }
    }
    out.sort();
    out
}

/// Parses a fixture with the shared parser, naming it by its path without `.xz`.
pub fn load_fixture(rel: &str) -> sightline_engine::model::Report {
    let bytes = fixture_bytes(rel);
    let name = fixture_path(rel.trim_end_matches(".xz"));
    sightline_engine::parse::parse_bytes(&name, &bytes).unwrap_or_else(|e| panic!("{e}"))
}

/// One metric of the oracle.
#[derive(Debug, Deserialize)]
pub struct TruthMetric {
    pub kind: String,
    pub unit: String,
    #[serde(rename = "type")]
    pub ty: i64,
    #[serde(default)]
    pub value: serde_json::Value,
    #[serde(default)]
    pub n_instances: Option<usize>,
    #[serde(default)]
    pub instances: Vec<(serde_json::Value, serde_json::Value)>,
}

/// One result of the oracle.
#[derive(Debug, Deserialize)]
pub struct TruthResult {
    pub range: u64,
    pub action: u64,
    pub name: String,
    pub function: String,
    pub mangled: String,
    pub metrics: BTreeMap<String, TruthMetric>,
    #[serde(default)]
    pub rules: Vec<serde_json::Value>,
}

impl TruthResult {
    /// A numeric metric value of the oracle; panics naming the kernel when it is missing.
    pub fn number(&self, key: &str) -> f64 {
        self.metrics
            .get(key)
            .and_then(|m| m.value.as_f64())
            .unwrap_or_else(|| panic!("{}: no {key}", self.function))
    }

    /// The guidance of every key performance indicator of the result's rules, as (metric,
    /// text) pairs, sorted; indicators without guidance are left out.
    pub fn guidance(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .rules
            .iter()
            .filter_map(|rule| rule.get("focus_metrics")?.as_array())
            .flatten()
            .filter_map(|f| {
                let info = f.get("info")?.as_str().filter(|i| !i.is_empty())?;
                Some((f.get("name")?.as_str()?.to_string(), info.to_string()))
            })
            .collect();
        out.sort();
        out
    }
}

/// Loads a `*.truth.json.xz` oracle. Python's JSON writer stores unset doubles as bare `NaN`,
/// which JSON does not allow; they are read as `null` (a value that is not there).
pub fn load_truth(rel: &str) -> Vec<TruthResult> {
    let text = String::from_utf8(fixture_bytes(rel)).expect("utf-8 truth");
    serde_json::from_str(&nan_to_null(&text)).expect("truth json")
}

/// Replaces bare `NaN` tokens (outside strings) with `null`.
pub fn nan_to_null(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = json;
    while let Some(c) = rest.chars().next() {
        if !in_string && rest.starts_with("NaN") {
            out.push_str("null");
            rest = &rest[3..];
            continue;
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn json_to_value(v: &serde_json::Value, kind: &str) -> sightline_engine::model::Value {
    use sightline_engine::model::Value;
    match v {
        serde_json::Value::String(s) => Value::Str(s.as_str().into()),
        serde_json::Value::Number(n) if kind == "uint64" || kind == "uint32" => n
            .as_u64()
            .map_or_else(|| Value::Double(n.as_f64().unwrap_or(f64::NAN)), Value::U64),
        serde_json::Value::Number(n) => Value::Double(n.as_f64().unwrap_or(f64::NAN)),
        _ => Value::Missing,
    }
}

/// Builds a model result straight from the oracle (for analysis tests that need exact inputs).
pub fn truth_to_result(t: &TruthResult, id: u64) -> sightline_engine::model::KernelResult {
    use sightline_engine::model::{Instance, KernelName, KernelResult, Metric};
    let mut r = KernelResult {
        id,
        name: KernelName {
            demangled: t.name.clone(),
            function: t.function.clone(),
            mangled: Some(t.mangled.clone()),
        },
        ..KernelResult::default()
    };
    for (name, m) in &t.metrics {
        let mut metric = Metric::new(
            Some(name.into()),
            json_to_value(&m.value, &m.kind),
            m.unit.as_str(),
        );
        metric.instances = m
            .instances
            .iter()
            .map(|(id, v)| Instance {
                id: Some(json_to_value(id, "uint64")),
                value: json_to_value(v, &m.kind),
            })
            .collect();
        r.metrics_mut().insert(name.into(), metric);
    }
    r
}

/// xorshift64*: a small deterministic generator, so a failing damaged input can be rebuilt
/// from its seed.
pub struct XorShift(pub u64);

impl XorShift {
    /// A generator from any seed (zero would stay zero).
    pub fn new(seed: u64) -> Self {
        XorShift(seed | 1)
    }
    /// The next number of the sequence.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// Column spans of a dash rule under or over a printed table (`---- ----- ---`), as byte
/// ranges.
pub fn rule_spans(rule: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, b) in rule.bytes().enumerate() {
        match (b, start) {
            (b'-', None) => start = Some(i),
            (b' ', Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, rule.len()));
    }
    out
}

/// The CUDA 12 nvdisasm the Triton wheel carries, in the test environment's virtual
/// environment (`scripts/test.sh` installs `triton<3.6` there): Maxwell to Blackwell.
pub fn cuda12_nvdisasm() -> PathBuf {
    let (venv, _) = pip_nvdisasm();
    std::fs::read_dir(venv.join("lib"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|python| {
            python
                .path()
                .join("site-packages/triton/backends/nvidia/bin/nvdisasm")
        })
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "{}: no triton/backends/nvidia/bin/nvdisasm (pip install \"triton<3.6\")",
                venv.display()
            )
        })
}

/// pip's nvdisasm of the test environment ([`pip_nvdisasm`]) alone, caching nothing.
pub fn pip_disassembler() -> sightline_engine::parse::sass::Disassembler {
    sightline_engine::parse::sass::Disassembler::only([pip_nvdisasm().1]).with_cache(None)
}

/// The virtual environment holding pip's `nvidia-cuda-nvdisasm` (`scripts/test.sh` makes it and
/// names it in `SIGHTLINE_TEST_VENV`; an active environment's `VIRTUAL_ENV` works too), and the
/// `nvidia/cu*/bin/nvdisasm` in it.
pub fn pip_nvdisasm() -> (PathBuf, PathBuf) {
    let venv = std::env::var_os("SIGHTLINE_TEST_VENV")
        .or_else(|| std::env::var_os("VIRTUAL_ENV"))
        .map(PathBuf::from)
        .expect(
            "no virtual environment with nvdisasm: run scripts/test.sh, or \
             `python3 -m venv V && V/bin/pip install nvidia-cuda-nvdisasm` and set \
             SIGHTLINE_TEST_VENV=V",
        );
    let tool = std::fs::read_dir(venv.join("lib"))
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|python| {
            std::fs::read_dir(python.path().join("site-packages/nvidia"))
                .into_iter()
                .flatten()
                .flatten()
                .map(|cu| cu.path().join("bin/nvdisasm"))
        })
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{}: no nvidia/cu*/bin/nvdisasm", venv.display()));
    (venv, tool)
}

/// A folder holding an `nvdisasm` that prints CUDA 13.0's version and hangs on anything else.
pub fn hanging_nvdisasm(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin");
    let tool = bin.join("nvdisasm");
    std::fs::write(
        &tool,
        "#!/bin/sh\ncase \"$1\" in\n  --version) echo 'Cuda compilation tools, release 13.0, V13.0.88';;\n  *) exec sleep 600;;\nesac\n",
    )
    .expect("write");
    let mut perms = std::fs::metadata(&tool).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&tool, perms).expect("chmod");
    tool
}
