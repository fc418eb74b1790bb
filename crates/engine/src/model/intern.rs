//! Interned strings: each distinct metric name, unit or text value is stored once for the whole
//! process and named by a 4-byte id. [`MetricKey`] and [`Unit`] are the typed ids the model
//! uses; both compare, hash, print and serialize as their text, so maps keyed by them keep the
//! order by name and can be searched with a `&str` without allocating.
//!
//! Reading a symbol's text takes no lock: the texts live in chunks of doubling size that are
//! only ever appended to. Interning takes a read lock on the index, and a write lock the first
//! time a text is seen. Texts are kept until the process ends; they are the distinct names,
//! units and text values of the reports opened, a few thousand even for the largest reports.

use serde::{Serialize, Serializer};
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::{LazyLock, OnceLock, RwLock};

/// Slots in the first chunk; chunk `k` holds `FIRST_CHUNK << k` texts.
const FIRST_CHUNK: usize = 256;
/// Enough chunks for every `u32` id.
const CHUNKS: usize = 25;

/// The process-wide table of texts.
struct Table {
    chunks: [OnceLock<Box<[OnceLock<&'static str>]>>; CHUNKS],
    index: RwLock<Index>,
}

/// The id of each text, and how many there are.
struct Index {
    ids: HashMap<&'static str, u32>,
    len: usize,
}

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    let table = Table {
        chunks: std::array::from_fn(|_| OnceLock::new()),
        index: RwLock::new(Index {
            ids: HashMap::new(),
            len: 0,
        }),
    };
    // Id 0 is the empty text, the default unit.
    table.insert_new(&mut table.write(), "");
    table
});

/// The chunk and the position in it of id `id`.
fn slot_of(id: usize) -> (usize, usize) {
    let n = id / FIRST_CHUNK + 1;
    let chunk = (usize::BITS - 1 - n.leading_zeros()) as usize;
    (chunk, id - FIRST_CHUNK * ((1 << chunk) - 1))
}

impl Table {
    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Index> {
        self.index.write().unwrap_or_else(|e| e.into_inner())
    }

    fn text(&self, id: u32) -> &'static str {
        let (chunk, at) = slot_of(id as usize);
        self.chunks
            .get(chunk)
            .and_then(OnceLock::get)
            .and_then(|c| c.get(at))
            .and_then(OnceLock::get)
            .copied()
            .unwrap_or("")
    }

    fn find(&self, text: &str) -> Option<u32> {
        let index = self.index.read().unwrap_or_else(|e| e.into_inner());
        index.ids.get(text).copied()
    }

    fn intern(&self, text: &str, keep: impl FnOnce() -> &'static str) -> u32 {
        if let Some(id) = self.find(text) {
            return id;
        }
        let mut index = self.write();
        match index.ids.get(text) {
            Some(&id) => id,
            None => self.insert_new(&mut index, keep()),
        }
    }

    /// Stores a text not in the table yet. Past `u32::MAX` texts (more than memory holds) the
    /// empty text's id is returned.
    fn insert_new(&self, index: &mut Index, text: &'static str) -> u32 {
        let Ok(id) = u32::try_from(index.len) else {
            return 0;
        };
        let (chunk, at) = slot_of(index.len);
        let Some(cell) = self.chunks.get(chunk) else {
            return 0;
        };
        let slots =
            cell.get_or_init(|| (0..FIRST_CHUNK << chunk).map(|_| OnceLock::new()).collect());
        if let Some(slot) = slots.get(at) {
            let _ = slot.set(text);
        }
        index.ids.insert(text, id);
        index.len += 1;
        id
    }
}

/// The heap bytes the process-wide table holds (texts, slots and index). The table is kept for
/// the whole process, so memory measurements of a report's own data leave it out.
pub fn table_bytes() -> usize {
    let index = TABLE.index.read().unwrap_or_else(|e| e.into_inner());
    let texts: usize = index.ids.keys().map(|t| t.len()).sum();
    let slots: usize = TABLE
        .chunks
        .iter()
        .filter_map(OnceLock::get)
        .map(|c| c.len() * std::mem::size_of::<OnceLock<&'static str>>())
        .sum();
    texts + slots + index.ids.capacity() * (std::mem::size_of::<(&str, u32)>() + 1)
}

/// One interned text.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Symbol(u32);

impl Symbol {
    fn new(text: &str) -> Self {
        Symbol(TABLE.intern(text, || Box::leak(text.to_owned().into_boxed_str())))
    }

    fn from_static(text: &'static str) -> Self {
        Symbol(TABLE.intern(text, || text))
    }

    fn from_string(text: String) -> Self {
        if let Some(id) = TABLE.find(&text) {
            return Symbol(id);
        }
        let mut index = TABLE.write();
        match index.ids.get(text.as_str()) {
            Some(&id) => Symbol(id),
            None => Symbol(TABLE.insert_new(&mut index, Box::leak(text.into_boxed_str()))),
        }
    }

    fn find(text: &str) -> Option<Self> {
        TABLE.find(text).map(Symbol)
    }

    fn as_str(self) -> &'static str {
        TABLE.text(self.0)
    }

    fn cmp_text(self, other: Self) -> Ordering {
        if self == other {
            Ordering::Equal
        } else {
            self.as_str().cmp(other.as_str())
        }
    }
}

/// A typed interned text: `Copy`, 4 bytes, ordered, hashed, printed and serialized as its text.
macro_rules! interned {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct $name(Symbol);

        impl $name {
            /// The id of `text`, interning it when it is new.
            pub fn new(text: &str) -> Self {
                $name(Symbol::new(text))
            }

            /// The id of a text that lives for the whole program (no copy is kept).
            pub fn from_static(text: &'static str) -> Self {
                $name(Symbol::from_static(text))
            }

            /// The id of `text` when it was interned before; never adds a text.
            pub fn find(text: &str) -> Option<Self> {
                Symbol::find(text).map($name)
            }

            /// The text.
            pub fn as_str(&self) -> &'static str {
                self.0.as_str()
            }

            /// The number standing for the text for the whole process (texts are numbered
            /// from 0 as they are first seen), to index tables of what is known per text.
            pub fn id(&self) -> usize {
                (self.0).0 as usize
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name(Symbol(0))
            }
        }

        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                self.as_str()
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }

        /// Consistent with `Ord` and `Hash`, which both use the text.
        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                self.as_str()
            }
        }

        impl Ord for $name {
            fn cmp(&self, other: &Self) -> Ordering {
                self.0.cmp_text(other.0)
            }
        }

        impl PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Hash for $name {
            fn hash<H: Hasher>(&self, state: &mut H) {
                self.as_str().hash(state);
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                self.as_str() == other.as_str()
            }
        }

        impl PartialEq<$name> for str {
            fn eq(&self, other: &$name) -> bool {
                self == other.as_str()
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.as_str()
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                $name::new(text)
            }
        }

        impl From<&String> for $name {
            fn from(text: &String) -> Self {
                $name::new(text)
            }
        }

        impl From<String> for $name {
            fn from(text: String) -> Self {
                $name(Symbol::from_string(text))
            }
        }

        impl From<$name> for String {
            fn from(key: $name) -> Self {
                key.as_str().to_string()
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(self.as_str(), f)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    };
}

interned!(
    /// A metric's key in a result: its ncu name (`gpu__time_duration.sum`), or `Section/Label`
    /// for a row without one.
    MetricKey
);

interned!(
    /// A unit as printed or stored (`ns`, `byte/s`, `%`; empty when none).
    Unit
);

interned!(
    /// A string value (a device name, a cache configuration, a metric list, an opcode).
    Text
);

#[cfg(test)]
mod tests {
    use super::{FIRST_CHUNK, MetricKey, Unit, slot_of};
    use std::collections::{BTreeMap, HashSet};

    #[test]
    fn slots_cover_every_id_once() {
        assert_eq!(slot_of(0), (0, 0));
        assert_eq!(slot_of(FIRST_CHUNK - 1), (0, FIRST_CHUNK - 1));
        assert_eq!(slot_of(FIRST_CHUNK), (1, 0));
        assert_eq!(slot_of(3 * FIRST_CHUNK - 1), (1, 2 * FIRST_CHUNK - 1));
        assert_eq!(slot_of(3 * FIRST_CHUNK), (2, 0));
        assert_eq!(slot_of(u32::MAX as usize).0, super::CHUNKS - 1);
    }

    #[test]
    fn one_id_per_text_and_the_text_back() {
        let a = MetricKey::new("gpu__time_duration.sum");
        let b = MetricKey::from(String::from("gpu__time_duration.sum"));
        assert_eq!(a, b);
        assert_eq!(a.as_str(), "gpu__time_duration.sum");
        assert_eq!(MetricKey::find("gpu__time_duration.sum"), Some(a));
        assert_eq!(MetricKey::find("intern_test__never_interned.sum"), None);
        assert_eq!(Unit::default(), "");
        assert!(Unit::default().is_empty());
        assert_eq!(Unit::from_static("ns"), Unit::new("ns"));
        assert_eq!(std::mem::size_of::<MetricKey>(), 4);
        assert_eq!(std::mem::size_of::<Option<MetricKey>>(), 8);
    }

    #[test]
    fn order_hash_and_serde_follow_the_text() {
        // Interned in reverse order, so ids and text order differ.
        let names = [
            "sm__throughput.avg",
            "dram__bytes.sum",
            "Memory Workload/L1",
        ];
        let keys: Vec<MetricKey> = names.iter().map(|n| MetricKey::new(n)).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        let mut texts = names.to_vec();
        texts.sort();
        assert_eq!(sorted.iter().map(|k| k.as_str()).collect::<Vec<_>>(), texts);
        let map: BTreeMap<MetricKey, usize> = keys.iter().copied().zip(0..).collect();
        assert_eq!(map.get("dram__bytes.sum"), Some(&1));
        assert_eq!(map.get("dram__bytes"), None);
        let set: HashSet<MetricKey> = keys.iter().copied().collect();
        assert!(set.contains("Memory Workload/L1"));
        assert_eq!(
            serde_json::to_string(&map).ok().as_deref(),
            Some(r#"{"Memory Workload/L1":2,"dram__bytes.sum":1,"sm__throughput.avg":0}"#)
        );
        assert_eq!(format!("{:?}", keys[0]), r#""sm__throughput.avg""#);
    }

    #[test]
    fn interning_from_many_threads_agrees() {
        let texts: Vec<String> = (0..2000)
            .map(|i| format!("intern_test__t{i}.sum"))
            .collect();
        let ids: Vec<Vec<MetricKey>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| s.spawn(|| texts.iter().map(MetricKey::from).collect::<Vec<_>>()))
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        assert_eq!(ids.len(), 4);
        for run in &ids {
            assert_eq!(run, &ids[0]);
            assert!(run.iter().zip(&texts).all(|(k, t)| k == t));
        }
    }
}
