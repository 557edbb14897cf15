//! The time and memory budget shared by every search of one run.

use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Budget {
    start: Instant,
    deadline: Instant,
    /// Bytes the search tables together may use.
    pub memory_bytes: usize,
    /// Expansion cap for deterministic runs (`bench`); `None` in normal runs.
    pub node_limit: Option<u64>,
}

impl Budget {
    pub fn new(start: Instant, seconds: f64, memory_bytes: usize) -> Budget {
        let secs = if seconds.is_finite() && seconds > 0.0 { seconds.min(1e6) } else { 0.0 };
        Budget { start, deadline: start + Duration::from_secs_f64(secs), memory_bytes, node_limit: None }
    }

    /// A budget bounded only by expansions, so results do not depend on machine speed.
    pub fn nodes(limit: u64, memory_bytes: usize) -> Budget {
        let start = Instant::now();
        Budget { start, deadline: start + Duration::from_secs(1_000_000), memory_bytes, node_limit: Some(limit) }
    }

    #[inline]
    pub fn expired(&self, expansions: u64) -> bool {
        match self.node_limit {
            Some(limit) => expansions >= limit,
            None => Instant::now() >= self.deadline,
        }
    }

    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}
