//! Sets of boxes proven dead during the search, after Festival's learned patterns.
//!
//! Take some of a position's boxes alone, the others lifted off the board: that can only
//! make pushes easier. If no sequence of pushes then gets those boxes all onto goals, no
//! solution of the position can either, nor of any position that holds the same boxes
//! with the player in the same area of the lifted board. A search that keeps pushing
//! (`learn`) proves such sets; `dead` then finds them in the positions of every later
//! search of the level.
//!
//! The set starts as the boxes that cannot get out of the way: a box the player can push
//! both across and along, or push a step and then walk round to push back (a wobbler,
//! after Festival), is lifted at once, before the search and during it, so the set is the
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

type SetKey = [Cell; MAX_SET + 1];

pub struct DeadSets {
    /// The sets' boxes, sorted, `NONE` after the last.
    sets: Vec<SetKey>,
    /// Per set, `words` words: the cells of the player's area on the lifted board.
    areas: Vec<u64>,
    words: usize,
    /// Cell -> the sets whose smallest box stands there.
    by_cell: Vec<Vec<u32>>,
    search: BoxSearch<{ MAX_SET + 1 }>,
    /// The player's area after a trial push (`movable`).
    trial: Reach,
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
            trial: Reach::new(cells),
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
        self.lift_movable(board, &mut set, player);
        if set.len() > MAX_SET {
            // Boxes on goals are lifted too: the set then asks whether the others can reach
            // goals at all.
            set.retain(|&b| !board.is_goal[b as usize]);
            self.lift_movable(board, &mut set, player);
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
        search.reach.fill_among(board, &set, player);
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

    /// Lift the boxes of `set` that can get out of the way (`movable`), one at a time,
    /// each on the board the earlier lifts left, until none can.
    fn lift_movable(&mut self, board: &Board, set: &mut Vec<Cell>, player: Cell) {
        let search = &mut self.search;
        mark(&mut search.occupied, set, true);
        loop {
            search.reach.fill_among(board, set, player);
            let (reach, occupied, trial) = (&search.reach, &mut search.occupied, &mut self.trial);
            let Some(i) = (0..set.len()).find(|&i| movable(reach, trial, board, occupied, set[i])) else { break };
            search.occupied[set[i] as usize] = false;
            set.swap_remove(i);
        }
        mark(&mut search.occupied, set, false);
    }

    /// Breadth-first over the pushes of `set` alone, a movable box lifted as soon as there is
    /// one: true if it runs out of positions within `limit` without every box left on a
    /// goal.
    fn stuck(&mut self, board: &Board, set: &[Cell], player: Cell, limit: usize) -> bool {
        self.searches += 1;
        let search = &mut self.search;
        let mut root: SetKey = key_of(set, player);
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
            let (reach, occupied, trial) = (&search.reach, &mut search.occupied, &mut self.trial);
            match (0..n).find(|&i| movable(reach, trial, board, occupied, state[i])) {
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

/// Can the box on `b` get out of the way? The player (in the area of the latest fill) can
/// push it both across and along, or push it a step and walk round to push it back (a
/// wobbler, after Festival). `occupied` is left as it was.
fn movable(reach: &Reach, trial: &mut Reach, board: &Board, occupied: &mut [bool], b: Cell) -> bool {
    let pushed: [Option<Cell>; 4] = std::array::from_fn(|d| reach.push_to(board, occupied, b, d));
    if (pushed[0].is_some() || pushed[1].is_some()) && (pushed[2].is_some() || pushed[3].is_some()) {
        return true;
    }
    (0..4).any(|d| {
        let Some(to) = pushed[d] else { return false };
        let beyond = board.step(to, d);
        if beyond == NONE || occupied[beyond as usize] {
            return false;
        }
        occupied[b as usize] = false;
        occupied[to as usize] = true;
        let round = trial.connects(board, occupied, b, beyond);
        occupied[to as usize] = false;
        occupied[b as usize] = true;
        round
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `lift_movable` leaves of the map's boxes, the player on his start.
    fn left_after_lifting(text: &str) -> Vec<Cell> {
        let board = Board::from_text(text);
        let mut sets = DeadSets::new(board.n);
        let mut set = board.start_boxes.clone();
        sets.lift_movable(&board, &mut set, board.start_player);
        set
    }

    /// A box against a wall cannot be pushed across, but the player can push it a step
    /// and walk round to push it back: a wobbler, lifted. In a corridor he cannot get
    /// round: it stays, as does a box he cannot push at all.
    #[test]
    fn wobblers_are_lifted_and_boxes_he_cannot_get_round_are_not() {
        assert!(left_after_lifting("########\n#      #\n#@ $  .#\n########\n").is_empty());
        assert_eq!(left_after_lifting("#######\n#@ $ .#\n#######\n").len(), 1);
        let pocket = "######\n#@  .#\n### $#\n  ####\n";
        assert_eq!(left_after_lifting(pocket).len(), 1);
    }
}
