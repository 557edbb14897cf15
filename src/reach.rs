//! Player flood fill: which cells the player can walk to without pushing.
//!
//! A generation stamp replaces clearing the visited array, so a fill costs only the
//! cells it visits.

use crate::board::{Board, Cell, NONE};

pub struct Reach {
    stamp: Vec<u32>,
    generation: u32,
    stack: Vec<Cell>,
}

impl Reach {
    pub fn new(cells: usize) -> Reach {
        Reach { stamp: vec![0; cells], generation: 0, stack: Vec::with_capacity(cells) }
    }

    /// Fill from `from` through cells not marked in `occupied`; returns the smallest cell
    /// reached, which is the canonical player cell of the area.
    pub fn fill(&mut self, board: &Board, occupied: &[bool], from: Cell) -> Cell {
        self.flood(board, occupied, NONE, &[from]).0
    }

    /// Fill from every free cell of `seeds`, with `wall` (or `NONE`) blocking as well as
    /// the boxes. Returns the smallest cell reached (`NONE` if none) and how many cells
    /// were reached, so that callers can charge the work.
    pub fn flood(&mut self, board: &Board, occupied: &[bool], wall: Cell, seeds: &[Cell]) -> (Cell, usize) {
        let g = self.next_generation();
        let mut min = NONE;
        let mut count = 0;
        self.stack.clear();
        for &s in seeds {
            if s != wall && !occupied[s as usize] && self.stamp[s as usize] != g {
                self.stamp[s as usize] = g;
                self.stack.push(s);
            }
        }
        while let Some(c) = self.stack.pop() {
            min = min.min(c);
            count += 1;
            for &t in &board.nbr[c as usize] {
                if t != NONE && t != wall && self.stamp[t as usize] != g && !occupied[t as usize] {
                    self.stamp[t as usize] = g;
                    self.stack.push(t);
                }
            }
        }
        (min, count)
    }

    /// A fresh stamp value: every cell counts as unvisited again.
    fn next_generation(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.generation
    }

    /// How many separate areas of free floor the `occupied` cells cut the board into.
    pub fn count_areas(&mut self, board: &Board, occupied: &[bool]) -> u16 {
        let g = self.next_generation();
        self.count_unstamped(board, occupied, g)
    }

    /// `count_areas` right after a `fill` on the same layout: the player's area is
    /// already flooded and counts as one. Afterwards `reached` answers for every cell.
    pub fn count_areas_after_fill(&mut self, board: &Board, occupied: &[bool]) -> u16 {
        let g = self.generation;
        self.count_unstamped(board, occupied, g).saturating_add(1)
    }

    /// Flood and count the free areas whose cells are not yet stamped `g`.
    fn count_unstamped(&mut self, board: &Board, occupied: &[bool], g: u32) -> u16 {
        let mut areas = 0u16;
        for start in 0..board.n {
            if occupied[start] || self.stamp[start] == g {
                continue;
            }
            areas = areas.saturating_add(1);
            self.stamp[start] = g;
            self.stack.clear();
            self.stack.push(start as Cell);
            while let Some(c) = self.stack.pop() {
                for &t in &board.nbr[c as usize] {
                    if t != NONE && self.stamp[t as usize] != g && !occupied[t as usize] {
                        self.stamp[t as usize] = g;
                        self.stack.push(t);
                    }
                }
            }
        }
        areas
    }

    /// Was `c` reached by the latest fill?
    #[inline]
    pub fn reached(&self, c: Cell) -> bool {
        self.stamp[c as usize] == self.generation
    }

    /// Where the box on `b` goes if the player, in the area of the latest fill, pushes it
    /// in direction `d`: `None` unless it lands on a free cell that is not dead forward.
    #[inline]
    pub fn push_to(&self, board: &Board, occupied: &[bool], b: Cell, d: usize) -> Option<Cell> {
        let (to, stand) = (board.step(b, d), board.step(b, d ^ 1));
        let ok = to != NONE
            && stand != NONE
            && !occupied[to as usize]
            && !board.dead_fwd[to as usize]
            && self.reached(stand);
        ok.then_some(to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_split_the_area() {
        let b = Board::from_text("#######\n#  $ @#\n#.######\n");
        let mut occ = vec![false; b.n];
        for &c in &b.start_boxes {
            occ[c as usize] = true;
        }
        let mut r = Reach::new(b.n);
        let min = r.fill(&b, &occ, b.start_player);
        assert_eq!(b.xy(min), (4, 1));
        assert!(r.reached(b.start_player));
        let left = b.grid_of.iter().position(|&g| g == b.width + 1).unwrap() as Cell;
        assert!(!r.reached(left));
        occ.iter_mut().for_each(|o| *o = false);
        let min = r.fill(&b, &occ, b.start_player);
        assert!(r.reached(left));
        assert_eq!(b.xy(min), (1, 1));
    }

    #[test]
    fn areas_are_counted() {
        let b = Board::from_text("#######\n#  $ @#\n#.######\n");
        let mut occ = vec![false; b.n];
        assert_eq!(Reach::new(b.n).count_areas(&b, &occ), 1);
        for &c in &b.start_boxes {
            occ[c as usize] = true;
        }
        assert_eq!(Reach::new(b.n).count_areas(&b, &occ), 2);
        let mut r = Reach::new(b.n);
        r.fill(&b, &occ, b.start_player);
        assert_eq!(r.count_areas_after_fill(&b, &occ), 2);
    }
}
