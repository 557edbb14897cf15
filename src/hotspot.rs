//! Hotspots (after FESS's hotspot advisor): a box on cell `a` blocks a box on cell `b`
//! when `b` could reach a goal with the board empty but can no more with `a` walled up.
//! Counted over a layout's pairs of boxes, this says how much the boxes are in each
//! other's way; a push that lowers the count is worth trying early.
//!
//! The model is relaxed as the dead-cell analysis is: a lone box, and each push needs
//! only the cell behind the box free of walls and of the blocker, not a player able to
//! get there. So a blocker counts when it stands in a corridor or a door the other
//! box must pass, which is what the advisor is about.

use crate::board::{Board, Cell, NONE};
use crate::limits::HOTSPOT_MAX_CELLS;

pub struct Hotspots {
    /// Words in a row of the two tables below.
    words: usize,
    /// Row `a`, bit `b`: a box on `a` blocks one on `b`. Empty when not built.
    blocked: Vec<u64>,
    /// The same transposed, row `b`, bit `a`: a child's pairs are then two rows ANDed
    /// with the layout, not a lookup per box.
    blockers: Vec<u64>,
}

impl Hotspots {
    pub fn heap_bytes(&self) -> usize {
        (self.blocked.capacity() + self.blockers.capacity()) * 8
    }

    pub fn analyse(board: &Board) -> Hotspots {
        let n = board.n;
        let words = n.div_ceil(64);
        if n > HOTSPOT_MAX_CELLS {
            return Hotspots { words, blocked: Vec::new(), blockers: Vec::new() };
        }
        let mut blocked = vec![0u64; n * words];
        let mut blockers = vec![0u64; n * words];
        let mut alive = vec![u32::MAX; n];
        let mut queue: Vec<Cell> = Vec::with_capacity(n);
        for a in 0..n {
            // Pull every box back from the goals with `a` a wall: what is reached is alive.
            let stamp = a as u32;
            queue.clear();
            for &g in &board.goals {
                if g as usize != a {
                    alive[g as usize] = stamp;
                    queue.push(g);
                }
            }
            let mut head = 0;
            while head < queue.len() {
                let x = queue[head];
                head += 1;
                for d in 0..4 {
                    let y = board.step(x, d);
                    if y == NONE || y as usize == a || alive[y as usize] == stamp {
                        continue;
                    }
                    let player = board.step(y, d);
                    if player == NONE || player as usize == a {
                        continue;
                    }
                    alive[y as usize] = stamp;
                    queue.push(y);
                }
            }
            for b in 0..n {
                if b != a && !board.dead_fwd[b] && alive[b] != stamp {
                    blocked[a * words + b / 64] |= 1 << (b % 64);
                    blockers[b * words + a / 64] |= 1 << (a % 64);
                }
            }
        }
        Hotspots { words, blocked, blockers }
    }

    #[inline]
    pub fn blocks(&self, a: Cell, b: Cell) -> bool {
        if self.blocked.is_empty() {
            return false;
        }
        self.blocked[a as usize * self.words + b as usize / 64] & (1 << (b % 64)) != 0
    }

    /// `boxes` as a bit set of cells, for `pairs_with`.
    pub fn layout(&self, boxes: &[Cell], set: &mut Vec<u64>) {
        set.clear();
        set.resize(self.words, 0);
        for &b in boxes {
            set[b as usize / 64] |= 1 << (b % 64);
        }
    }

    /// Ordered pairs of boxes in `boxes` where the first blocks the second.
    #[cfg(test)]
    pub fn pairs(&self, boxes: &[Cell]) -> u32 {
        if self.blocked.is_empty() {
            return 0;
        }
        let mut count = 0;
        for &a in boxes {
            for &b in boxes {
                count += self.blocks(a, b) as u32;
            }
        }
        count
    }

    /// Pairs the box on `at` takes part in with the boxes of `layout` (see `layout`),
    /// `skip`'s box left out (a cell never blocks itself).
    pub fn pairs_with(&self, layout: &[u64], at: Cell, skip: Cell) -> u32 {
        if self.blocked.is_empty() {
            return 0;
        }
        let row = at as usize * self.words;
        let (blocked, blockers) = (&self.blocked[row..row + self.words], &self.blockers[row..row + self.words]);
        let count: u32 = layout
            .iter()
            .zip(blocked.iter().zip(blockers))
            .map(|(l, (x, y))| (l & x).count_ones() + (l & y).count_ones())
            .sum();
        let skipped = layout[skip as usize / 64] >> (skip % 64) & 1 != 0;
        count - if skipped { self.blocks(at, skip) as u32 + self.blocks(skip, at) as u32 } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CORRIDOR: &str = "##########\n#@       #\n#  $     #\n#     $  ######\n#            ..#\n################\n";

    #[test]
    fn a_box_in_a_corridor_blocks_the_boxes_behind_it() {
        // The only way to the goals is the corridor on the bottom right.
        let board = Board::from_text(CORRIDOR);
        let spots = Hotspots::analyse(&board);
        let (door, left, mid) = (board.cell_at(10, 4), board.cell_at(3, 2), board.cell_at(6, 3));
        assert!(spots.blocks(door, left) && spots.blocks(door, mid));
        assert!(!spots.blocks(left, door) && !spots.blocks(left, mid) && !spots.blocks(mid, left));
        // A box already on a goal is never blocked.
        assert!(!spots.blocks(door, board.cell_at(13, 4)));
        assert_eq!(spots.pairs(&[left, mid, door]), 2);
        assert_eq!(spots.pairs(&[left, mid]), 0);
    }

    #[test]
    fn the_pairs_of_one_box_are_what_it_adds_to_the_count() {
        let board = Board::from_text(CORRIDOR);
        let spots = Hotspots::analyse(&board);
        let cells: Vec<Cell> = (0..board.n as Cell).filter(|&c| !board.dead_fwd[c as usize]).collect();
        for (i, &x) in cells.iter().enumerate() {
            let boxes = [x, cells[(i * 7 + 3) % cells.len()], cells[(i * 5 + 1) % cells.len()]];
            if boxes[1] == x || boxes[2] == x || boxes[1] == boxes[2] {
                continue;
            }
            let without = spots.pairs(&boxes[1..]);
            let mut layout = Vec::new();
            spots.layout(&boxes, &mut layout);
            assert_eq!(spots.pairs_with(&layout, x, x), spots.pairs(&boxes) - without);
            // Against a count box by box, from every cell, the skipped box on the layout
            // or off it.
            let by_box = |at: Cell, skip: Cell| -> u32 {
                let pair = |b: Cell| spots.blocks(at, b) as u32 + spots.blocks(b, at) as u32;
                boxes.iter().filter(|&&b| b != skip).map(|&b| pair(b)).sum()
            };
            for &at in &cells {
                for skip in [x, boxes[2], at] {
                    assert_eq!(spots.pairs_with(&layout, at, skip), by_box(at, skip));
                }
            }
        }
    }
}
