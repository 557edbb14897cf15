//! Sets of boxes proven dead during the search, after Festival's learned patterns.
//!
//! Take some of a position's boxes alone, the others lifted off the board: that can only
//! make pushes easier. If no sequence of pushes then gets those boxes all onto goals, no
//! solution of the position can either, nor of any position that holds the same boxes
//! with the player in the same area of the lifted board. A search that keeps pushing
//! (`learn`) proves such sets; `dead` then finds them in the positions of every later
//! search of the level.
//!
//! The set starts as the boxes that are not free: a box the player can push both across
//! and along is lifted at once (its own pushes can only make room), so the set is the
//! stuck part of the position. A set proven dead is then shrunk, box by box, to the
//! smallest set the search still proves, so that it matches many positions.

use crate::board::{Board, Cell, NONE};
use crate::corral_deadlock::{key_of, mark, BoxSearch};
use crate::reach::Reach;

/// Sets of more boxes are not searched.
pub const MAX_SET: usize = 12;
/// At most this many sets are kept (matching costs a look at each set whose first box is
/// among the position's).
const MAX_SETS: usize = 4096;

type Key = [Cell; MAX_SET + 1];

pub struct DeadSets {
    /// The sets' boxes, sorted, `NONE` after the last.
    sets: Vec<Key>,
    /// Per set, `words` words: the cells of the player's area on the lifted board.
    areas: Vec<u64>,
    words: usize,
    /// Cell -> the sets whose smallest box stands there.
    by_cell: Vec<Vec<u32>>,
    search: BoxSearch<{ MAX_SET + 1 }>,
    /// Searches run and the positions they visited (for `--stats`; `len` counts the sets).
    pub searches: u64,
    pub nodes: u64,
}

impl DeadSets {
    pub fn new(cells: usize) -> DeadSets {
        DeadSets {
            sets: Vec::new(),
            areas: Vec::new(),
            words: cells.div_ceil(64),
            by_cell: vec![Vec::new(); cells],
            search: BoxSearch::new(cells),
            searches: 0,
            nodes: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// Does the position (its boxes on `occupied`, the player on `player`) hold a set
    /// proven dead, with the player in its area?
    pub fn dead(&self, occupied: &[bool], boxes: &[Cell], player: Cell) -> bool {
        boxes.iter().any(|&b| {
            self.by_cell[b as usize].iter().any(|&id| {
                let (set, area) = (&self.sets[id as usize], id as usize * self.words);
                let word = self.areas[area + player as usize / 64];
                word >> (player % 64) & 1 == 1 && set.iter().take_while(|&&c| c != NONE).all(|&c| occupied[c as usize])
            })
        })
    }

    /// Search the position's stuck boxes alone, `limit` positions at most; if they are
    /// proven dead, keep the smallest set found dead among them and return true (true too
    /// if the position holds a set known already).
    pub fn learn(&mut self, board: &Board, boxes: &[Cell], player: Cell, limit: usize) -> bool {
        if self.sets.len() >= MAX_SETS {
            return false;
        }
        mark(&mut self.search.occupied, boxes, true);
        let known = self.dead(&self.search.occupied, boxes, player);
        mark(&mut self.search.occupied, boxes, false);
        if known {
            return true;
        }
        let mut set: Vec<Cell> = boxes.to_vec();
        self.lift_free(board, &mut set, player);
        if set.len() > MAX_SET {
            // Boxes on goals are lifted too: the set then asks whether the others can reach
            // goals at all.
            set.retain(|&b| !board.is_goal[b as usize]);
            self.lift_free(board, &mut set, player);
        }
        if set.is_empty() || set.len() > MAX_SET {
            return false;
        }
        if !self.stuck(board, &set, player, limit) {
            return false;
        }
        let mut i = 0;
        while i < set.len() && set.len() > 1 {
            let b = set.remove(i);
            if !self.stuck(board, &set, player, limit) {
                set.insert(i, b);
                i += 1;
            }
        }
        set.sort_unstable();
        let search = &mut self.search;
        mark(&mut search.occupied, &set, true);
        search.reach.fill(board, &search.occupied, player);
        mark(&mut search.occupied, &set, false);
        let id = self.sets.len() as u32;
        let mut area = vec![0u64; self.words];
        for c in 0..board.n {
            if search.reach.reached(c as Cell) {
                area[c / 64] |= 1 << (c % 64);
            }
        }
        self.areas.extend_from_slice(&area);
        self.sets.push(key_of(&set, NONE));
        self.by_cell[set[0] as usize].push(id);
        true
    }

    /// Take the free boxes out of `set`, one at a time, each on the board the earlier
    /// ones left, until none is free.
    fn lift_free(&mut self, board: &Board, set: &mut Vec<Cell>, player: Cell) {
        let search = &mut self.search;
        mark(&mut search.occupied, set, true);
        loop {
            search.reach.fill(board, &search.occupied, player);
            let Some(i) = set.iter().position(|&b| free(&search.reach, board, &search.occupied, b)) else { break };
            search.occupied[set[i] as usize] = false;
            set.swap_remove(i);
        }
        mark(&mut search.occupied, set, false);
    }

    /// Breadth-first over the pushes of `set` alone, a free box lifted as soon as there is
    /// one: true if it runs out of positions within `limit` without every box left on a
    /// goal.
    fn stuck(&mut self, board: &Board, set: &[Cell], player: Cell, limit: usize) -> bool {
        self.searches += 1;
        let search = &mut self.search;
        let mut root: Key = key_of(set, player);
        root[..MAX_SET].sort_unstable();
        search.start(root);
        let mut expanded = 0;
        while let Some(state) = search.next() {
            if expanded >= limit {
                return false;
            }
            let n = state[..MAX_SET].iter().take_while(|&&c| c != NONE).count();
            if state[..n].iter().all(|&b| board.is_goal[b as usize]) {
                return false;
            }
            if !search.enter(board, &state, n) {
                continue;
            }
            expanded += 1;
            self.nodes += 1;
            match state[..n].iter().position(|&b| free(&search.reach, board, &search.occupied, b)) {
                Some(i) => {
                    let mut child = state;
                    child[i] = NONE;
                    child[..MAX_SET].sort_unstable();
                    search.offer(child);
                }
                None => search.push_children(board, &state, n),
            }
            mark(&mut search.occupied, &state[..n], false);
        }
        true
    }
}

/// Can the player (in the area of the latest fill) push the box on `b` both across and
/// along?
fn free(reach: &Reach, board: &Board, occupied: &[bool], b: Cell) -> bool {
    let can = |d: usize| reach.push_to(board, occupied, b, d).is_some();
    (can(0) || can(1)) && (can(2) || can(3))
}
