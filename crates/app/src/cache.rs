//! One small cache for what views derive from the open reports: the value is computed again
//! only when its key (the inputs it depends on) changes.

/// A value derived from a key, kept until the key changes.
#[derive(Debug, Clone)]
pub struct Cached<K, V> {
    entry: Option<(K, V)>,
}

impl<K, V> Default for Cached<K, V> {
    fn default() -> Self {
        Cached { entry: None }
    }
}

impl<K: PartialEq, V> Cached<K, V> {
    /// The value for `key`, computed by `compute` only when the key differs from the last one.
    pub fn get_or_compute(&mut self, key: K, compute: impl FnOnce(&K) -> V) -> &V {
        let stale = self.entry.as_ref().is_none_or(|(k, _)| *k != key);
        if stale {
            let value = compute(&key);
            self.entry = Some((key, value));
        }
        match &self.entry {
            Some((_, value)) => value,
            None => unreachable!("the entry was just set"),
        }
    }

    /// The value, whatever key it was computed for.
    pub fn get(&self) -> Option<&V> {
        self.entry.as_ref().map(|(_, v)| v)
    }

    /// Forgets the value (its memory is given back).
    pub fn clear(&mut self) {
        self.entry = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computes_again_only_when_the_key_changes() {
        let mut calls = 0;
        let mut cache: Cached<u32, String> = Cached::default();
        for key in [1, 1, 2, 2, 1] {
            let value = cache.get_or_compute(key, |k| {
                calls += 1;
                format!("v{k}")
            });
            assert_eq!(value, &format!("v{key}"));
        }
        assert_eq!(calls, 3);
        cache.clear();
        assert!(cache.get().is_none());
    }
}
