//! Helpers for tests that check a pruning rule against the truth on tiny maps.

use std::collections::HashSet;

use crate::board::{Board, Cell, NONE};
use crate::level::Level;
use crate::reach::Reach;

/// Can the position be solved? Breadth-first over every push; for tiny maps only.
pub fn solvable(board: &Board, boxes: &[Cell], player: Cell) -> bool {
    let mut reach = Reach::new(board.n);
    let mut occupied = vec![false; board.n];
    let key = |boxes: &[Cell], player: Cell, reach: &mut Reach, occupied: &mut Vec<bool>| {
        let mut k = boxes.to_vec();
        k.sort_unstable();
        k.iter().for_each(|&b| occupied[b as usize] = true);
        k.push(reach.fill(board, occupied, player));
        k.iter().take(boxes.len()).for_each(|&b| occupied[b as usize] = false);
        k
    };
    let root = key(boxes, player, &mut reach, &mut occupied);
    let mut seen = HashSet::from([root.clone()]);
    let mut queue = vec![root];
    while let Some(state) = queue.pop() {
        let (boxes, player) = state.split_at(state.len() - 1);
        if boxes.iter().all(|&b| board.is_goal[b as usize]) {
            return true;
        }
        boxes.iter().for_each(|&b| occupied[b as usize] = true);
        reach.fill(board, &occupied, player[0]);
        let mut children = Vec::new();
        for (i, &b) in boxes.iter().enumerate() {
            for d in 0..4 {
                let (to, stand) = (board.step(b, d), board.step(b, d ^ 1));
                if to != NONE && stand != NONE && !occupied[to as usize] && reach.reached(stand) {
                    let mut moved = boxes.to_vec();
                    moved[i] = to;
                    children.push((moved, b));
                }
            }
        }
        boxes.iter().for_each(|&b| occupied[b as usize] = false);
        for (moved, p) in children {
            let k = key(&moved, p, &mut reach, &mut occupied);
            if seen.insert(k.clone()) {
                queue.push(k);
            }
        }
    }
    false
}

/// Random small rooms, the same sequence for the same seed (xorshift).
pub struct Rooms {
    seed: u64,
}

impl Rooms {
    pub fn new(seed: u64) -> Rooms {
        Rooms { seed }
    }

    /// A number below `m`.
    pub fn below(&mut self, m: u64) -> u64 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        self.seed % m
    }

    /// A `w` x `h` room walled round, with fewer than `walls` inner walls, then each of
    /// `marks` (map characters) on a free cell of its own, in that order. `None` if
    /// fewer than `min_free` cells are free or the map is not a valid level.
    pub fn room(&mut self, w: usize, h: usize, walls: u64, min_free: usize, marks: &[u8]) -> Option<(Board, String)> {
        let mut grid = vec![b' '; w * h];
        for _ in 0..self.below(walls) {
            grid[self.below((w * h) as u64) as usize] = b'#';
        }
        let mut free: Vec<usize> = (0..w * h).filter(|&i| grid[i] == b' ').collect();
        if free.len() < min_free.max(marks.len()) {
            return None;
        }
        for &mark in marks {
            let at = free.swap_remove(self.below(free.len() as u64) as usize);
            grid[at] = mark;
        }
        let border = "#".repeat(w + 2);
        let mut text = format!("{}\n", border);
        for row in grid.chunks(w) {
            text.push('#');
            text.push_str(std::str::from_utf8(row).unwrap());
            text.push_str("#\n");
        }
        text.push_str(&border);
        text.push('\n');
        let board = Board::analyse(&Level::parse(&text).ok()?).ok()?;
        Some((board, text))
    }
}
