//! A side's lower bound, kept from node to node: the matching of `crate::bound` on this
//! side's push distances (or, switched off, each box's nearest target summed). The
//! expanding node's matching is its predecessor's (or its own parent's, recalled)
//! repaired, one augmentation per box that moved, and a child's is its parent's with the
//! moved box's row re-inserted.

use crate::board::{Board, Cell, FAR};
use crate::bound::{Matching, IMPOSSIBLE};
use crate::limits::COST_ROWS_LIMIT;
use crate::table::NO_PARENT;

/// One side's bound: the distances to its targets and the matchings over them.
pub(super) struct Bound<'a> {
    /// Cells on the board, and boxes (as many as targets).
    n: usize,
    nboxes: usize,
    /// The matching bound, else nearest-target sums (`Switches::matching`).
    matching: bool,
    /// Distances box -> target: `distances[j * n + c]` pushes from cell `c` to target `j`
    /// (forward) or from it (backward).
    distances: &'a [u16],
    /// The same by cell, `[c * nboxes + j]`, as matching costs: a child's row is one copy
    /// (read from `distances`, its entries lie a whole board apart, a cache miss each on
    /// big levels). Empty past `COST_ROWS_LIMIT` entries.
    cost_rows: Vec<i32>,
    /// Cell -> number of the target on it (its column in `distances`).
    target_index: Vec<u16>,
    parent_match: Matching,
    child_match: Matching,
    /// The boxes (rows) `parent_match` was last solved for; empty before the first.
    matched: Vec<Cell>,
    /// Scratch for repairing `parent_match`: cell -> its row in `matched` (checked
    /// against it, never cleared), new row -> old row, and the new rows' costs.
    row_of_cell: Vec<u16>,
    old_row: Vec<Option<usize>>,
    fresh: Vec<i32>,
    /// One box's costs to every target.
    row: Vec<i32>,
    /// The parent's release costs (`Matching::release_costs`) for the box in slot
    /// `released`, made at its second child that needs a repair: a box moved whole has
    /// dozens of children, each then priced in one pass. `repaired`: the slot of the last
    /// child repaired.
    release: Vec<i64>,
    released: Option<(usize, bool)>,
    repaired: Option<usize>,
    /// Recently expanded nodes' matchings, by node number modulo `recalled.len()`: the
    /// node, its boxes (`nboxes` a node) and its duals (`Matching::duals_len`). Phases
    /// whose queues take turns jump between lines of the search, so a node's parent was
    /// mostly expanded a few hundred to a few thousand nodes before it; its matching
    /// then costs one augmentation, not one per box that no goal of its own settles.
    recalled: Vec<u32>,
    recalled_boxes: Vec<Cell>,
    recalled_duals: Vec<i32>,
}

/// More moved boxes than this and the parent's matching is solved afresh (an
/// augmentation per moved box would cost more).
const MAX_REPAIRED_ROWS: usize = 3;
/// Expanded nodes' matchings kept, at most (`Bound::recalled`), and the bytes for them.
const RECALLED: usize = 4096;
const RECALLED_BYTES: usize = 1 << 22;

/// A push distance as a matching cost: unreachable is `IMPOSSIBLE`.
#[inline]
fn matching_cost(d: u16) -> i32 {
    if d == FAR {
        IMPOSSIBLE
    } else {
        d as i32
    }
}

impl<'a> Bound<'a> {
    /// The bound towards `targets`, `distances` pushes away (see the field), with at most
    /// `memory` bytes for recalled matchings.
    pub fn new(board: &Board, targets: &[Cell], distances: &'a [u16], matching: bool, memory: usize) -> Bound<'a> {
        let (n, nboxes) = (board.n, targets.len());
        let mut target_index = vec![u16::MAX; n];
        for (j, &t) in targets.iter().enumerate() {
            target_index[t as usize] = j as u16;
        }
        let mut cost_rows = Vec::new();
        if n * nboxes <= COST_ROWS_LIMIT {
            cost_rows = vec![0; n * nboxes];
            for (j, column) in distances.chunks_exact(n).enumerate() {
                for (c, &d) in column.iter().enumerate() {
                    cost_rows[c * nboxes + j] = matching_cost(d);
                }
            }
        }
        let each = 4 + 2 * nboxes + 4 * Matching::duals_len(nboxes);
        let recall = if matching { RECALLED.min(RECALLED_BYTES.min(memory) / each) } else { 0 };
        Bound {
            n,
            nboxes,
            matching,
            distances,
            cost_rows,
            target_index,
            parent_match: Matching::new(nboxes),
            child_match: Matching::new(nboxes),
            matched: Vec::new(),
            row_of_cell: vec![0; n],
            old_row: vec![None; nboxes],
            fresh: vec![0; nboxes * nboxes],
            row: vec![0; nboxes],
            release: Vec::new(),
            released: None,
            repaired: None,
            recalled: vec![NO_PARENT; recall],
            recalled_boxes: vec![0; recall * nboxes],
            recalled_duals: vec![0; recall * Matching::duals_len(nboxes)],
        }
    }

    /// The bytes of the cost rows, which come out of the side's memory.
    pub fn rows_bytes(&self) -> usize {
        self.cost_rows.len() * std::mem::size_of::<i32>()
    }

    /// The bytes of the recalled matchings, which do too.
    pub fn recalled_bytes(&self) -> usize {
        self.recalled.len() * 4 + self.recalled_boxes.len() * 2 + self.recalled_duals.len() * 4
    }

    /// Pushes from each cell to the target on `target` (forward; from it, backward).
    pub fn distances_to(&self, target: Cell) -> &'a [u16] {
        let j = self.target_index[target as usize] as usize;
        &self.distances[j * self.n..(j + 1) * self.n]
    }

    #[inline]
    fn cost(&self, cell: Cell, target: usize) -> i32 {
        matching_cost(self.distances[target * self.n + cell as usize])
    }

    fn fill_row(&mut self, cell: Cell) {
        let nb = self.nboxes;
        if self.cost_rows.is_empty() {
            for j in 0..nb {
                self.row[j] = self.cost(cell, j);
            }
        } else {
            let c = cell as usize;
            self.row[..nb].copy_from_slice(&self.cost_rows[c * nb..(c + 1) * nb]);
        }
    }

    /// Sum of each box's nearest target: the bound used when matching is switched off.
    fn nearest_sum(&self, boxes: impl Iterator<Item = Cell>) -> i32 {
        boxes
            .map(|b| (0..self.nboxes).map(|j| self.cost(b, j)).min().unwrap_or(0))
            .fold(0i32, |a, c| a.saturating_add(c))
    }

    /// The bound of node `node` (`NO_PARENT` for none), the child of `parent`, whose
    /// sorted boxes are `boxes`, its full matching loaded for its children (`of_child`).
    pub fn of_parent(&mut self, boxes: &[Cell], node: u32, parent: u32) -> i32 {
        if !self.matching {
            return self.nearest_sum(boxes.iter().copied());
        }
        (self.released, self.repaired) = (None, None);
        let h = match self.repair_parent_match(boxes) {
            Some(h) => h,
            None => match self.recall(parent).then(|| self.repair_parent_match(boxes)).flatten() {
                Some(h) => h,
                None => {
                    self.load_rows(boxes);
                    self.parent_match.solve()
                }
            },
        };
        self.keep(node);
        h
    }

    /// `matched` and `parent_match`'s costs for `boxes`.
    fn load_rows(&mut self, boxes: &[Cell]) {
        let n = self.nboxes;
        for k in 0..n {
            self.fill_row(boxes[k]);
            self.parent_match.cost[k * n..(k + 1) * n].copy_from_slice(&self.row);
        }
        boxes.clone_into(&mut self.matched);
    }

    /// Keep the matching just loaded as node `node`'s, for its children.
    fn keep(&mut self, node: u32) {
        if self.recalled.is_empty() || node == NO_PARENT {
            return;
        }
        let (nb, d) = (self.nboxes, Matching::duals_len(self.nboxes));
        let k = node as usize % self.recalled.len();
        self.recalled[k] = node;
        self.recalled_boxes[k * nb..(k + 1) * nb].copy_from_slice(&self.matched);
        self.parent_match.save_duals(&mut self.recalled_duals[k * d..(k + 1) * d]);
    }

    /// Load `node`'s matching, if it is still kept (`parent_match` is scratch here).
    fn recall(&mut self, node: u32) -> bool {
        if self.recalled.is_empty() || node == NO_PARENT {
            return false;
        }
        let (nb, d) = (self.nboxes, Matching::duals_len(self.nboxes));
        let k = node as usize % self.recalled.len();
        if self.recalled[k] != node {
            return false;
        }
        let boxes = std::mem::take(&mut self.recalled_boxes);
        self.load_rows(&boxes[k * nb..(k + 1) * nb]);
        self.recalled_boxes = boxes;
        self.parent_match.restore_duals(&self.recalled_duals[k * d..(k + 1) * d]);
        true
    }

    /// The bound of the child of the last `of_parent` node (boxes `boxes`) whose box in
    /// slot `slot` moved to `to`.
    pub fn of_child(&mut self, boxes: &[Cell], slot: usize, to: Cell) -> i32 {
        if self.matching {
            self.fill_row(to);
            if let Some(cost) = self.parent_match.kept_column_cost(slot, &self.row) {
                return cost;
            }
            if self.repaired == Some(slot) && self.released.map_or(true, |(s, _)| s != slot) {
                self.released = Some((slot, self.parent_match.release_costs(slot, &mut self.release)));
            }
            if self.released == Some((slot, true)) {
                return self.parent_match.cost_with_row(slot, &self.release, &self.row);
            }
            self.repaired = Some(slot);
            self.child_match.repaired_row_cost(&self.parent_match, slot, &self.row)
        } else {
            let moved = boxes.iter().enumerate().map(|(i, &b)| if i == slot { to } else { b });
            self.nearest_sum(moved)
        }
    }

    /// A best-first search mostly expands a child of the node it expanded last, whose
    /// boxes differ by one: the last matching, its rows reordered and the moved boxes'
    /// rows replaced, is then repaired with an augmentation per moved box instead of
    /// solved afresh. `None` if too many boxes moved.
    fn repair_parent_match(&mut self, boxes: &[Cell]) -> Option<i32> {
        let n = self.nboxes;
        if self.matched.len() != n || !self.parent_match.potentials_are_small() {
            return None;
        }
        mark_rows(&mut self.row_of_cell, &self.matched);
        let mut moved = 0;
        for k in 0..n {
            let c = boxes[k];
            self.old_row[k] = row_in(&self.row_of_cell, &self.matched, c);
            if self.old_row[k].is_none() {
                moved += 1;
                if moved > MAX_REPAIRED_ROWS {
                    return None;
                }
                self.fill_row(c);
                self.fresh[k * n..(k + 1) * n].copy_from_slice(&self.row);
            }
        }
        self.matched.copy_from_slice(boxes);
        Some(self.parent_match.rebase(&self.old_row, &self.fresh))
    }
}

/// Record in `row_of_cell` (cell -> row; scratch, never cleared) the row of each of
/// `layout`'s boxes, for `row_in`.
fn mark_rows(row_of_cell: &mut [u16], layout: &[Cell]) {
    for (p, &c) in layout.iter().enumerate() {
        row_of_cell[c as usize] = p as u16;
    }
}

/// The row of a box on `c` in `layout`, if it has one, right after `mark_rows(layout)`:
/// a stale mark from another layout fails the check against `layout`.
fn row_in(row_of_cell: &[u16], layout: &[Cell], c: Cell) -> Option<usize> {
    let p = row_of_cell[c as usize] as usize;
    (p < layout.len() && layout[p] == c).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::numbers;

    /// A node's bound is the same whether its matching is solved afresh, repaired from the
    /// last node's, or recalled from its parent's: random trees of layouts (a box moved to
    /// any free cell per child), expanded in random order, with room for a few matchings
    /// (so that nodes evict each other) and for many, against a fresh solve.
    #[test]
    fn recalled_matchings_bound_as_a_fresh_solve() {
        let text = "##########\n#  .  .  #\n# $$ $$  #\n#@ .. .. #\n#  $$  $ #\n#  .  $. #\n##########\n";
        let board = Board::from_text(text);
        let (n, nb) = (board.n, board.goals.len());
        let fresh = |boxes: &[Cell]| {
            let mut m = Matching::new(nb);
            for (k, &b) in boxes.iter().enumerate() {
                for j in 0..nb {
                    m.cost[k * nb + j] = matching_cost(board.to_goal[j * n + b as usize]);
                }
            }
            m.solve().min(IMPOSSIBLE)
        };
        let mut recalls = 0;
        for (seed, memory) in [(1, 300), (2, 1 << 16), (3, 1 << 16)] {
            let mut rnd = numbers(seed);
            let mut bound = Bound::new(&board, &board.goals, &board.to_goal, true, memory);
            let mut nodes: Vec<(Vec<Cell>, u32)> = vec![(board.start_boxes.clone(), NO_PARENT)];
            let mut waiting = vec![0u32];
            while nodes.len() < 3000 && !waiting.is_empty() {
                // Mostly a recent node, as a best-first search takes them.
                let span = if rnd(4) == 0 { 1000 } else { 8 };
                let pick = waiting.len() - 1 - rnd(waiting.len().min(span));
                let node = waiting.swap_remove(pick);
                let (boxes, parent) = nodes[node as usize].clone();
                let kept = bound.recalled.contains(&parent);
                let h = bound.of_parent(&boxes, node, parent).min(IMPOSSIBLE);
                assert_eq!(h, fresh(&boxes), "{boxes:?}");
                recalls += kept as usize;
                for _ in 0..1 + rnd(3) {
                    let (slot, to) = (rnd(nb), rnd(n) as Cell);
                    if boxes.contains(&to) {
                        continue;
                    }
                    let mut child = boxes.clone();
                    child[slot] = to;
                    let h = bound.of_child(&boxes, slot, to).min(IMPOSSIBLE);
                    child.sort_unstable();
                    assert_eq!(h, fresh(&child), "{child:?}");
                    waiting.push(nodes.len() as u32);
                    nodes.push((child, node));
                }
            }
        }
        assert!(recalls > 1000, "{recalls} parents recalled");
    }

    /// A row of matching costs by cell (`Bound::cost_rows`) is the row read from the
    /// distances, both ways and with unreachable targets, as it is past the size limit.
    #[test]
    fn cost_rows_by_cell_match_the_distances() {
        let board = Board::from_text("#######\n#@ $ .#\n# #$# #\n#  . ##\n#######\n");
        let sides = [(&board.goals, &board.to_goal), (&board.start_boxes, &board.from_start)];
        for (targets, distances) in sides {
            let mut bound = Bound::new(&board, targets, distances, true, 0);
            assert!(!bound.cost_rows.is_empty());
            let rows = std::mem::take(&mut bound.cost_rows);
            let nb = bound.nboxes;
            let mut far = 0;
            for c in 0..board.n as Cell {
                bound.fill_row(c);
                assert_eq!(bound.row[..nb], rows[c as usize * nb..(c as usize + 1) * nb]);
                far += bound.row[..nb].iter().filter(|&&x| x == IMPOSSIBLE).count();
            }
            assert!(far > 0, "the level has cells from which some target cannot be reached");
        }
    }
}
