//! Open lists: which stored node a side expands next.
//!
//! A plain best-first search keeps one queue ordered by priority. A feature-space search
//! (after FESS, Shoham and Schaeffer 2020) groups nodes into cells by a few coarse
//! features of their position and serves the cells round robin, best-first inside each
//! cell: no single measure of progress can lead the whole search into one plateau.
//!
//! Every push takes a node's rank and, for the cells, a rank of its own: the same one, or
//! with advisor weights (see `search`) the count of pushes on the node's path that no
//! advisor suggested, as FESS orders the moves within a cell.

use crate::state::QuickMap;

/// Buckets of equal priority; LIFO inside a bucket, which makes ties go deep.
pub struct BucketQueue {
    buckets: Vec<Vec<u32>>,
    min: usize,
    len: usize,
}

impl BucketQueue {
    pub fn new() -> Self {
        BucketQueue { buckets: Vec::new(), min: 0, len: 0 }
    }

    pub fn push(&mut self, priority: usize, node: u32) {
        if priority >= self.buckets.len() {
            self.buckets.resize_with(priority + 1, Vec::new);
        }
        self.buckets[priority].push(node);
        self.min = self.min.min(priority);
        self.len += 1;
    }

    pub fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        while self.buckets[self.min].is_empty() {
            self.min += 1;
        }
        self.len -= 1;
        self.buckets[self.min].pop()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Coarse features of a position; equal features share a cell of the feature space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features {
    /// Boxes resting on goals.
    pub packed: u16,
    /// Separate areas of free floor the boxes cut the level into.
    pub areas: u16,
    /// Boxes standing in doorways between rooms (FESS's room connectivity).
    pub doorways: u16,
}

/// Cells of the feature space, each a best-first queue, visited round robin; with best
/// turns, every other turn goes to the best cell that holds nodes (as FESS's packing
/// search alternates): the most boxes packed, then the fewest areas, then the fewest
/// boxes in doorways.
pub struct FeatureQueue {
    index: QuickMap<Features, usize>,
    cells: Vec<BucketQueue>,
    cursor: usize,
    len: usize,
    /// With best turns: the cells, best first, and whose turn it is.
    ranked: Option<Vec<(Features, usize)>>,
    best_turn: bool,
}

/// Lower is a better cell.
fn cell_rank(f: &Features) -> (std::cmp::Reverse<u16>, u16, u16) {
    (std::cmp::Reverse(f.packed), f.areas, f.doorways)
}

impl FeatureQueue {
    pub fn new(best_turns: bool) -> Self {
        let ranked = best_turns.then(Vec::new);
        FeatureQueue { index: QuickMap::default(), cells: Vec::new(), cursor: 0, len: 0, ranked, best_turn: false }
    }

    pub fn push(&mut self, features: Features, priority: usize, node: u32) {
        let cells = &mut self.cells;
        let ranked = &mut self.ranked;
        let at = *self.index.entry(features).or_insert_with(|| {
            cells.push(BucketQueue::new());
            if let Some(r) = ranked {
                let rank = cell_rank(&features);
                r.insert(r.partition_point(|(f, _)| cell_rank(f) < rank), (features, cells.len() - 1));
            }
            cells.len() - 1
        });
        self.cells[at].push(priority, node);
        self.len += 1;
    }

    pub fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        if let Some(ranked) = &self.ranked {
            self.best_turn = !self.best_turn;
            if self.best_turn {
                let &(_, best) = ranked.iter().find(|(_, i)| !self.cells[*i].is_empty())?;
                self.len -= 1;
                return self.cells[best].pop();
            }
        }
        loop {
            self.cursor = (self.cursor + 1) % self.cells.len();
            if let Some(node) = self.cells[self.cursor].pop() {
                self.len -= 1;
                return Some(node);
            }
        }
    }

    /// How many cells the search has touched.
    #[cfg(test)]
    pub fn cells(&self) -> usize {
        self.cells.len()
    }
}

/// Two orders over one set of nodes, taking turns (Röger and Helmert's alternation):
/// each node sits in both queues and is served by whichever reaches it first. The feature
/// cells by their own rank, and a plain-ranked order: best-first, or the cells again
/// (`cells`). With advisor weights a cell's own rank counts the unadvised pushes on a
/// node's path, so inside a cell the nodes go nearly breadth first by those pushes, and a
/// level whose solution needs long runs of them is found much sooner by the plain rank.
pub struct Alternation {
    plain: PlainOrder,
    features: FeatureQueue,
    served: Vec<u64>,
    turn: bool,
}

/// The plain rank's queue of an alternation.
enum PlainOrder {
    Best(BucketQueue),
    Cells(FeatureQueue),
}

impl Alternation {
    pub fn new() -> Self {
        let plain = PlainOrder::Best(BucketQueue::new());
        Alternation { plain, features: FeatureQueue::new(false), served: Vec::new(), turn: false }
    }

    /// The feature cells by their own rank and by plain rank, each with best turns or not
    /// (`FeatureQueue::new`).
    pub fn cells(best_turns: bool) -> Self {
        let plain = PlainOrder::Cells(FeatureQueue::new(best_turns));
        // The cells by their own rank go first.
        Alternation { plain, features: FeatureQueue::new(best_turns), served: Vec::new(), turn: true }
    }

    pub fn push(&mut self, features: Features, priority: usize, cell_priority: usize, node: u32) {
        match &mut self.plain {
            PlainOrder::Best(q) => q.push(priority, node),
            PlainOrder::Cells(q) => q.push(features, priority, node),
        }
        self.features.push(features, cell_priority, node);
    }

    fn pop_plain(&mut self) -> Option<u32> {
        match &mut self.plain {
            PlainOrder::Best(q) => q.pop(),
            PlainOrder::Cells(q) => q.pop(),
        }
    }

    pub fn pop(&mut self) -> Option<u32> {
        self.turn = !self.turn;
        loop {
            let node = if self.turn {
                self.pop_plain().or_else(|| self.features.pop())
            } else {
                self.features.pop().or_else(|| self.pop_plain())
            }?;
            let (word, bit) = (node as usize / 64, node % 64);
            if word >= self.served.len() {
                self.served.resize(word + 1, 0);
            }
            if self.served[word] & (1 << bit) == 0 {
                self.served[word] |= 1 << bit;
                return Some(node);
            }
        }
    }
}

/// A side's open list.
pub enum Open {
    Best(BucketQueue),
    Features(FeatureQueue),
    Alternation(Alternation),
}

impl Open {
    /// Does this list group nodes by features (so they must be computed)?
    pub fn wants_features(&self) -> bool {
        !matches!(self, Open::Best(_))
    }

    /// Queue `node` with its rank in a best-first list and its rank in a feature cell.
    pub fn push(&mut self, features: Features, priority: usize, cell_priority: usize, node: u32) {
        match self {
            Open::Best(q) => q.push(priority, node),
            Open::Features(q) => q.push(features, cell_priority, node),
            Open::Alternation(q) => q.push(features, priority, cell_priority, node),
        }
    }

    /// How many feature cells the list has touched (0 without cells).
    #[cfg(test)]
    pub fn cells(&self) -> usize {
        match self {
            Open::Best(_) => 0,
            Open::Features(q) => q.cells(),
            Open::Alternation(q) => q.features.cells(),
        }
    }

    pub fn pop(&mut self) -> Option<u32> {
        match self {
            Open::Best(q) => q.pop(),
            Open::Features(q) => q.pop(),
            Open::Alternation(q) => q.pop(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_pop_lowest_priority_last_in_first() {
        let mut q = BucketQueue::new();
        q.push(3, 30);
        q.push(1, 10);
        q.push(1, 11);
        q.push(2, 20);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![11, 10, 20, 30]);
        assert!(q.is_empty());
    }

    #[test]
    fn feature_cells_take_turns() {
        let a = Features { packed: 0, areas: 1, doorways: 0 };
        let b = Features { packed: 1, areas: 1, doorways: 0 };
        let mut q = FeatureQueue::new(false);
        q.push(a, 5, 1);
        q.push(a, 4, 2);
        q.push(a, 6, 3);
        q.push(b, 9, 4);
        // Cell b is visited in its turn even though all of a's nodes rank better.
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![4, 2, 1, 3]);
        assert_eq!(q.cells(), 2);
    }

    #[test]
    fn with_best_turns_every_other_pop_serves_the_best_cell_with_nodes() {
        let low = Features { packed: 0, areas: 1, doorways: 0 };
        let split = Features { packed: 2, areas: 3, doorways: 0 };
        let best = Features { packed: 2, areas: 1, doorways: 0 };
        let order = |best_turns| {
            let mut q = FeatureQueue::new(best_turns);
            for (f, priority, node) in [(low, 1, 1), (low, 2, 2), (split, 1, 3), (best, 5, 4), (best, 6, 5)] {
                q.push(f, priority, node);
            }
            std::iter::from_fn(move || q.pop()).collect::<Vec<u32>>()
        };
        // Best turn (4), the next cell in turn (split: 3), best (5), the next in turn
        // (low: 1), best again: the best cell with nodes left is low now (2).
        assert_eq!(order(true), vec![4, 3, 5, 1, 2]);
        // Without them the cells only take turns.
        assert_eq!(order(false), vec![3, 4, 1, 5, 2]);
    }

    #[test]
    fn alternation_serves_each_node_once() {
        let a = Features { packed: 0, areas: 1, doorways: 0 };
        let b = Features { packed: 1, areas: 1, doorways: 0 };
        let mut q = Alternation::new();
        q.push(a, 1, 1, 1);
        q.push(a, 2, 2, 2);
        q.push(b, 3, 3, 3);
        // Best first (1), then the feature turn goes to cell b (3), then best again (2).
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![1, 3, 2]);
    }

    #[test]
    fn cells_twice_take_turns_by_their_own_rank_and_by_plain_rank() {
        let a = Features { packed: 0, areas: 1, doorways: 0 };
        let mut q = Alternation::cells(false);
        q.push(a, 1, 9, 1);
        q.push(a, 2, 5, 2);
        q.push(a, 3, 0, 3);
        q.push(a, 4, 1, 4);
        // By cell rank (3), by plain rank (1), by cell rank (4), by plain rank (2).
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![3, 1, 4, 2]);
    }

    #[test]
    fn cells_rank_by_their_own_priority() {
        let a = Features { packed: 0, areas: 1, doorways: 0 };
        let mut q = Alternation::new();
        q.push(a, 1, 9, 1);
        q.push(a, 2, 5, 2);
        q.push(a, 3, 0, 3);
        // Best first by the first rank (1), the cell by the second (3), best again (2).
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![1, 3, 2]);
    }
}
