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
    /// The node limit stands for the time (`--work`): the phases with work of their own
    /// leave the last phase its reserve of it, as they leave it a share of the time.
    pub reserve_nodes: bool,
}

impl Budget {
    pub fn new(start: Instant, seconds: f64, memory_bytes: usize) -> Budget {
        let secs = if seconds.is_finite() && seconds > 0.0 { seconds.min(1e6) } else { 0.0 };
        Budget {
            start,
            deadline: start + Duration::from_secs_f64(secs),
            memory_bytes,
            node_limit: None,
            reserve_nodes: false,
        }
    }

    /// A budget bounded only by expansions, so results do not depend on machine speed.
    pub fn nodes(limit: u64, memory_bytes: usize) -> Budget {
        let start = Instant::now();
        let deadline = start + Duration::from_secs(1_000_000);
        Budget { start, deadline, memory_bytes, node_limit: Some(limit), reserve_nodes: false }
    }

    /// A budget for one phase of a portfolio: at most `work` expansions (`None`: no cap of
    /// its own) within what the whole budget has left. A phase with work of its own also
    /// ends when only `reserve` of the whole time is left, which the last phase keeps (and
    /// of the node limit, when it stands for the time: `reserve_nodes`).
    pub fn phase(&self, work: Option<u64>, expansions_so_far: u64, reserve: f64) -> Budget {
        let reserve = reserve.clamp(0.0, 1.0);
        let mut limit = self.node_limit;
        if let (Some(n), Some(_), true) = (limit, work, self.reserve_nodes) {
            limit = Some((n as f64 * (1.0 - reserve)) as u64);
        }
        let left = limit.map(|n| n.saturating_sub(expansions_so_far));
        let node_limit = match (left, work) {
            (Some(left), Some(work)) => Some(left.min(work)),
            (left, work) => left.or(work),
        };
        let deadline = match work {
            Some(_) => self.deadline - (self.deadline - self.start).mul_f64(reserve),
            None => self.deadline,
        };
        Budget { node_limit, deadline, ..self.clone() }
    }

    /// `fraction` of what is left, in time and in expansions (the optimal modes split
    /// their budget so).
    #[cfg(not(judge))]
    pub fn share(&self, fraction: f64, expansions_so_far: u64) -> Budget {
        let fraction = fraction.clamp(0.0, 1.0);
        let now = Instant::now();
        let left = self.deadline.saturating_duration_since(now);
        Budget {
            deadline: now + left.mul_f64(fraction),
            node_limit: self.node_limit.map(|n| (n.saturating_sub(expansions_so_far) as f64 * fraction) as u64),
            ..self.clone()
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

    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phase_has_its_work_within_what_is_left() {
        let whole = Budget::new(Instant::now(), 10.0, 1 << 20);
        assert_eq!(whole.phase(None, 0, 0.25).node_limit, None);
        assert_eq!(whole.phase(Some(500), 7, 0.25).node_limit, Some(500));
        // The last phase has the whole time; the others leave it a quarter.
        assert_eq!(whole.phase(None, 0, 0.25).deadline, whole.deadline);
        assert_eq!(whole.phase(Some(500), 0, 0.25).deadline, whole.deadline - Duration::from_millis(2500));
        let nodes = Budget::nodes(1000, 1 << 20);
        assert_eq!(nodes.phase(Some(300), 200, 0.25).node_limit, Some(300));
        assert_eq!(nodes.phase(Some(900), 200, 0.25).node_limit, Some(800));
        assert_eq!(nodes.phase(None, 200, 0.25).node_limit, Some(800));
        assert_eq!(nodes.phase(None, 2000, 0.25).node_limit, Some(0));
        let phase = nodes.phase(Some(300), 200, 0.25);
        assert!(phase.expired(300) && !phase.expired(299));
    }

    /// With `--work`, the phases with work leave the last one its reserve of the
    /// expansions, as they leave it a share of the time.
    #[test]
    fn work_keeps_the_reserve_in_expansions() {
        let work = Budget { reserve_nodes: true, ..Budget::nodes(1000, 1 << 20) };
        assert_eq!(work.phase(Some(300), 200, 0.25).node_limit, Some(300));
        assert_eq!(work.phase(Some(900), 200, 0.25).node_limit, Some(550));
        assert_eq!(work.phase(Some(900), 800, 0.25).node_limit, Some(0));
        assert_eq!(work.phase(None, 200, 0.25).node_limit, Some(800));
    }
}
