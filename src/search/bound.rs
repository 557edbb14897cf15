//! A side's lower bound, kept from node to node: the matching of `crate::bound` on this
//! side's push distances (or, switched off, each box's nearest target summed). The
//! expanding node's matching is its predecessor's repaired, one augmentation per box that
//! moved, and a child's is its parent's with the moved box's row re-inserted.

use crate::board::{Board, Cell, FAR};
use crate::bound::{Matching, IMPOSSIBLE};
use crate::limits::COST_ROWS_LIMIT;

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
    /// Earlier nodes' matchings and their boxes, for repairs: phases whose queues take
    /// turns jump between lines of the search, and solving afresh costs an augmentation
    /// per box. `next_spare` is the slot a matching goes to next.
    spare_matches: Vec<(Vec<Cell>, Matching)>,
    next_spare: usize,
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
}

/// More moved boxes than this and the parent's matching is solved afresh (an
/// augmentation per moved box would cost more).
const MAX_REPAIRED_ROWS: usize = 3;
/// Spare matchings kept for repairs (see `Bound::closest_matching`).
const SPARE_MATCHES: usize = 4;

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
    /// The bound towards `targets`, `distances` pushes away (see the field).
    pub fn new(board: &Board, targets: &[Cell], distances: &'a [u16], matching: bool) -> Bound<'a> {
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
            spare_matches: Vec::new(),
            next_spare: 0,
            row_of_cell: vec![0; n],
            old_row: vec![None; nboxes],
            fresh: vec![0; nboxes * nboxes],
            row: vec![0; nboxes],
            release: Vec::new(),
            released: None,
            repaired: None,
        }
    }

    /// The bytes of the cost rows, which come out of the side's memory.
    pub fn rows_bytes(&self) -> usize {
        self.cost_rows.len() * std::mem::size_of::<i32>()
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

    /// The bound of the node whose sorted boxes are `boxes`, its full matching loaded for
    /// its children (`of_child`).
    pub fn of_parent(&mut self, boxes: &[Cell]) -> i32 {
        if !self.matching {
            return self.nearest_sum(boxes.iter().copied());
        }
        let n = self.nboxes;
        (self.released, self.repaired) = (None, None);
        self.closest_matching(boxes);
        if let Some(h) = self.repair_parent_match(boxes) {
            return h;
        }
        for k in 0..n {
            self.fill_row(boxes[k]);
            self.parent_match.cost[k * n..(k + 1) * n].copy_from_slice(&self.row);
        }
        boxes.clone_into(&mut self.matched);
        self.parent_match.solve()
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

    /// Make the stored matching whose boxes differ least from `boxes` the one to
    /// repair; one about to be solved afresh over is kept among the spares.
    fn closest_matching(&mut self, boxes: &[Cell]) {
        let mut best = moved_rows(&mut self.row_of_cell, boxes, &self.matched);
        let mut pick = None;
        for i in 0..self.spare_matches.len() {
            let moved = moved_rows(&mut self.row_of_cell, boxes, &self.spare_matches[i].0);
            if moved < best && moved <= MAX_REPAIRED_ROWS {
                (best, pick) = (moved, Some(i));
            }
        }
        let slot = match pick {
            Some(i) => i,
            None if best > MAX_REPAIRED_ROWS && self.matched.len() == self.nboxes => {
                if self.spare_matches.len() < SPARE_MATCHES {
                    self.spare_matches.push((Vec::new(), Matching::new(self.nboxes)));
                }
                let i = self.next_spare % self.spare_matches.len();
                self.next_spare = i + 1;
                i
            }
            None => return,
        };
        let spare = &mut self.spare_matches[slot];
        std::mem::swap(&mut self.matched, &mut spare.0);
        std::mem::swap(&mut self.parent_match, &mut spare.1);
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

/// How many of `boxes` are not among `layout`'s (more than all if it has none), with
/// `row_of_cell` as scratch.
fn moved_rows(row_of_cell: &mut [u16], boxes: &[Cell], layout: &[Cell]) -> usize {
    if layout.len() != boxes.len() {
        return boxes.len() + 1;
    }
    mark_rows(row_of_cell, layout);
    boxes.iter().filter(|&&c| row_in(row_of_cell, layout, c).is_none()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of matching costs by cell (`Bound::cost_rows`) is the row read from the
    /// distances, both ways and with unreachable targets, as it is past the size limit.
    #[test]
    fn cost_rows_by_cell_match_the_distances() {
        let board = Board::from_text("#######\n#@ $ .#\n# #$# #\n#  . ##\n#######\n");
        let sides = [(&board.goals, &board.to_goal), (&board.start_boxes, &board.from_start)];
        for (targets, distances) in sides {
            let mut bound = Bound::new(&board, targets, distances, true);
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
