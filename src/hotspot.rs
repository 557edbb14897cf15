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
    n: usize,
    /// Bit `a * n + b`: a box on `a` blocks one on `b`. Empty when not built.
    blocks: Vec<u64>,
}

impl Hotspots {
    pub fn heap_bytes(&self) -> usize {
        self.blocks.capacity() * 8
    }

    pub fn analyse(board: &Board) -> Hotspots {
        let n = board.n;
        if n > HOTSPOT_MAX_CELLS {
            return Hotspots { n, blocks: Vec::new() };
        }
        let mut blocks = vec![0u64; (n * n).div_ceil(64)];
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
                    let bit = a * n + b;
                    blocks[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        Hotspots { n, blocks }
    }

    #[inline]
    pub fn blocks(&self, a: Cell, b: Cell) -> bool {
        if self.blocks.is_empty() {
            return false;
        }
        let bit = a as usize * self.n + b as usize;
        self.blocks[bit / 64] & (1 << (bit % 64)) != 0
    }

    /// Ordered pairs of boxes in `boxes` where the first blocks the second.
    #[cfg(test)]
    pub fn pairs(&self, boxes: &[Cell]) -> u32 {
        if self.blocks.is_empty() {
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

    /// Pairs the box on `at` takes part in with the others of `boxes` (itself skipped:
    /// a cell never blocks itself).
    pub fn pairs_with(&self, boxes: &[Cell], at: Cell, skip: Cell) -> u32 {
        if self.blocks.is_empty() {
            return 0;
        }
        let mut count = 0;
        for &b in boxes {
            if b != skip {
                count += self.blocks(at, b) as u32 + self.blocks(b, at) as u32;
            }
        }
        count
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
            assert_eq!(spots.pairs_with(&boxes, x, x), spots.pairs(&boxes) - without);
        }
    }
}
