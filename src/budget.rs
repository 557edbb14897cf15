//! The time and memory budget shared by every search of one run.

use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Budget {
    start: Instant,
    deadline: Instant,
    /// Bytes the search tables together may use.
    pub memory_bytes: usize,
    /// Expansion cap for deterministic runs (`bench`, `--nodes`); `None` in normal runs.
    /// The deadline holds as well.
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

    /// A budget for one phase of a portfolio: `fraction` of what is left (time or nodes).
    pub fn share(&self, fraction: f64, expansions_so_far: u64) -> Budget {
        let now = Instant::now();
        let left = self.deadline.saturating_duration_since(now);
        Budget {
            start: self.start,
            deadline: now + left.mul_f64(fraction.clamp(0.0, 1.0)),
            memory_bytes: self.memory_bytes,
            node_limit: self
                .node_limit
                .map(|n| (n.saturating_sub(expansions_so_far) as f64 * fraction.clamp(0.0, 1.0)) as u64),
        }
    }

    #[inline]
    pub fn expired(&self, expansions: u64) -> bool {
        self.node_limit.is_some_and(|limit| expansions >= limit) || Instant::now() >= self.deadline
    }

    /// The deadline alone, for checks inside one expansion: the node limit is counted by
    /// the loop around it.
    #[inline]
    pub fn past_deadline(&self) -> bool {
        Instant::now() >= self.deadline
    }

    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_ends_before_the_whole() {
        let whole = Budget::new(Instant::now(), 10.0, 1 << 20);
        let half = whole.share(0.5, 0);
        assert!(half.deadline < whole.deadline);
        assert!(half.deadline > Instant::now() + Duration::from_secs(4));
        let nodes = Budget::nodes(1000, 1 << 20).share(0.25, 200);
        assert_eq!(nodes.node_limit, Some(200));
        assert!(nodes.expired(200) && !nodes.expired(199));
    }
}
