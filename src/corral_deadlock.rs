//! Corral deadlocks proven by a small search over the corral's own boxes.
//!
//! A corral is free floor the player cannot reach; its barrier is the boxes next to it.
//! Take the barrier boxes alone, every other box lifted off the board: that can only
//! make pushes easier. If no sequence of pushes of those boxes then gets them all onto
//! goals, no solution of the whole position can either (it would push them there too),
//! so the position is dead. The search gives up, proving nothing, once the boxes all
//! stand on goals or after a node limit; with a barrier of more than `SEALED_BARRIER`
//! boxes also once the player gets into the corral (it is open; most such positions are
//! fine, and the search would rarely finish). Results are cached by barrier and player
//! area: the same corral comes back in many positions that differ elsewhere.

use crate::board::{Board, Cell, NONE};
use crate::corral::Corrals;
use crate::freeze::Freeze;
use crate::reach::Reach;
use crate::state::{QuickMap, QuickSet};

/// Corrals with more barrier boxes are not searched: the search would rarely finish.
pub const MAX_BARRIER: usize = 8;
/// Positions one search may visit before it gives up.
const NODE_LIMIT: usize = 400;
/// A barrier of at most this many boxes is searched to the end, through the player
/// getting into the corral: a box pushed into a pocket lets him in without freeing
/// anything, and dead ends of that kind can keep the search from solving a level
/// (docs/experiments/2026-11-22-corrals-searched-to-the-end.md). Bigger barriers once
/// opened wander the whole board and seldom finish.
const SEALED_BARRIER: usize = 3;
/// ... with this node limit. A search that proves its corral dead mostly does so within a
/// few positions, one that proves nothing spends the whole limit: at 100, those took most
/// of the corral searches' time (docs/experiments/2026-11-28-quick-hasher-box-stamped-floods.md).
const SEALED_NODE_LIMIT: usize = 40;

/// Past this many cached results, only areas' smallest cells are added (a bound on memory).
const ALIASES_UP_TO: usize = 1 << 20;

type Key = [Cell; MAX_BARRIER + 1];

pub struct CorralDeadlocks {
    /// Barrier boxes (sorted) and a cell of the player's area (its smallest, or where a
    /// position had him) -> dead.
    cache: QuickMap<Key, bool>,
    search: BoxSearch<{ MAX_BARRIER + 1 }>,
    barrier: Vec<Cell>,
    cells: Vec<Cell>,
    /// Searches run and the positions they visited (for `--stats`).
    pub searches: u64,
    pub nodes: u64,
}

impl CorralDeadlocks {
    pub fn new(cells: usize) -> CorralDeadlocks {
        CorralDeadlocks {
            cache: QuickMap::default(),
            search: BoxSearch::new(cells),
            barrier: Vec::with_capacity(MAX_BARRIER),
            cells: Vec::new(),
            searches: 0,
            nodes: 0,
        }
    }

    /// Is any corral labelled by the last `corrals.analyse` of this position (the player
    /// on `player`) a proven deadlock?
    pub fn any_dead(&mut self, board: &Board, corrals: &Corrals, player: Cell) -> bool {
        (1..=corrals.count()).any(|k| self.corral_dead(board, corrals, player, k))
    }

    fn corral_dead(&mut self, board: &Board, corrals: &Corrals, player: Cell, k: u32) -> bool {
        self.barrier.clear();
        self.barrier.extend_from_slice(corrals.barrier(k));
        if self.barrier.len() > MAX_BARRIER {
            return false;
        }
        let work = self.barrier.iter().any(|&b| !board.is_goal[b as usize]);
        if !work {
            return false; // an empty goal inside is the matching bound's business
        }
        self.barrier.sort_unstable();
        // Any cell of the player's area names it as well as its smallest one does, and
        // the player's own cell needs no flood: most positions are found under it.
        let here = key_of(&self.barrier, player);
        if let Some(&d) = self.cache.get(&here) {
            return d;
        }
        mark(&mut self.search.occupied, &self.barrier, true);
        let area = self.search.reach.fill_among(board, &self.barrier, player);
        let key = key_of(&self.barrier, area);
        let dead = match self.cache.get(&key) {
            Some(&d) => d,
            None => {
                self.cells.clear();
                let limit = if self.barrier.len() <= SEALED_BARRIER {
                    SEALED_NODE_LIMIT
                } else {
                    self.cells.extend((0..board.n as Cell).filter(|&c| corrals.label(c) == k));
                    NODE_LIMIT
                };
                let d = self.search(board, key, limit);
                self.cache.insert(key, d);
                d
            }
        };
        if self.cache.len() < ALIASES_UP_TO {
            self.cache.insert(here, dead);
        }
        mark(&mut self.search.occupied, &self.barrier, false);
        dead
    }

    /// Breadth-first over the barrier boxes' pushes from `root`; true if it runs out of
    /// positions within `limit` without every box reaching a goal or the player reaching
    /// a cell of `cells` (the corral's, or none). Leaves `occupied` as it found it (the
    /// root's boxes).
    fn search(&mut self, board: &Board, root: Key, limit: usize) -> bool {
        self.searches += 1;
        let nb = self.barrier.len();
        let search = &mut self.search;
        mark(&mut search.occupied, &self.barrier, false);
        search.start(root);
        let mut expanded = 0;
        let mut dead = true;
        while let Some(state) = search.next() {
            if expanded >= limit {
                dead = false;
                break;
            }
            if state[..nb].iter().all(|&b| board.is_goal[b as usize]) {
                dead = false;
                break;
            }
            if !search.enter(board, &state, nb) {
                continue;
            }
            expanded += 1;
            self.nodes += 1;
            let opened = self.cells.iter().any(|&c| search.reach.reached(c));
            if !opened {
                search.push_children(board, &state, nb);
            }
            mark(&mut search.occupied, &state[..nb], false);
            if opened {
                dead = false;
                break;
            }
        }
        mark(&mut search.occupied, &self.barrier, true);
        dead
    }
}

/// The working space of a breadth-first search over the pushes of a few boxes alone
/// (corral searches, `dead_sets`). A position is `N - 1` box cells, sorted, `NONE` after
/// the last, then a cell of the player. A child is queued with the player where the push
/// left him; the flood that a position needs anyway for its pushes names his area, and a
/// position whose area was expanded before is skipped then: one flood per position
/// instead of one more per child.
pub struct BoxSearch<const N: usize> {
    /// The boxes of the position being expanded, between `enter` and the caller taking
    /// them off; the player's area in `reach`.
    pub occupied: Vec<bool>,
    pub reach: Reach,
    freeze: Freeze,
    /// Positions queued (the player where a push left him) and expanded (his area's
    /// smallest cell).
    seen: QuickSet<[Cell; N]>,
    expanded: QuickSet<[Cell; N]>,
    queue: Vec<[Cell; N]>,
    head: usize,
}

impl<const N: usize> BoxSearch<N> {
    pub fn new(cells: usize) -> BoxSearch<N> {
        BoxSearch {
            occupied: vec![false; cells],
            reach: Reach::new(cells),
            freeze: Freeze::new(cells),
            seen: QuickSet::default(),
            expanded: QuickSet::default(),
            queue: Vec::new(),
            head: 0,
        }
    }

    /// A new search from `root`.
    pub fn start(&mut self, root: [Cell; N]) {
        self.seen.clear();
        self.expanded.clear();
        self.queue.clear();
        self.head = 0;
        self.offer(root);
    }

    /// The next position queued.
    pub fn next(&mut self) -> Option<[Cell; N]> {
        let state = *self.queue.get(self.head)?;
        self.head += 1;
        Some(state)
    }

    /// Queue `child` unless it was queued before.
    pub fn offer(&mut self, child: [Cell; N]) {
        if self.seen.insert(child) {
            self.queue.push(child);
        }
    }

    /// Put the `n` boxes of `state` on the board and flood the player's area: true if
    /// that area was not expanded before (the caller takes the boxes off when done),
    /// false with the boxes taken off again.
    pub fn enter(&mut self, board: &Board, state: &[Cell; N], n: usize) -> bool {
        mark(&mut self.occupied, &state[..n], true);
        let mut at = *state;
        at[N - 1] = self.reach.fill_among(board, &state[..n], state[N - 1]);
        if self.expanded.insert(at) {
            return true;
        }
        mark(&mut self.occupied, &state[..n], false);
        false
    }

    /// Queue every push of the entered position's boxes whose box is not frozen off a
    /// goal.
    pub fn push_children(&mut self, board: &Board, state: &[Cell; N], n: usize) {
        for (i, &b) in state[..n].iter().enumerate() {
            for d in 0..4 {
                let Some(to) = self.reach.push_to(board, &self.occupied, b, d) else { continue };
                self.occupied[b as usize] = false;
                self.occupied[to as usize] = true;
                let frozen = self.freeze.is_deadlock(board, &self.occupied, to);
                self.occupied[to as usize] = false;
                self.occupied[b as usize] = true;
                let mut child = *state;
                child[i] = to;
                child[..n].sort_unstable();
                child[N - 1] = b;
                if !frozen {
                    self.offer(child);
                }
            }
        }
    }
}

/// Put `boxes` on the board of `occupied`, or take them off.
pub fn mark(occupied: &mut [bool], boxes: &[Cell], on: bool) {
    for &b in boxes {
        occupied[b as usize] = on;
    }
}

/// A search key: `boxes`, then `NONE` up to the last entry, which is `last` (the
/// player's cell or his area's).
pub fn key_of<const N: usize>(boxes: &[Cell], last: Cell) -> [Cell; N] {
    let mut key = [NONE; N];
    key[..boxes.len()].copy_from_slice(boxes);
    key[N - 1] = last;
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reach::Areas;
    use crate::testing::{for_random_positions, solvable, Draw};

    /// The player's area and the corrals of the board's start position.
    fn corrals_at_start(board: &Board) -> (Reach, Corrals) {
        let mut occupied = vec![false; board.n];
        mark(&mut occupied, &board.start_boxes, true);
        let (mut reach, mut areas) = (Reach::new(board.n), Areas::new(board.n));
        areas.label_with_reach(board, &occupied, board.start_boxes.len(), board.start_player, &mut reach);
        let mut corrals = Corrals::new(board.n);
        corrals.analyse(board, &occupied, &board.start_boxes, &reach, &areas);
        (reach, corrals)
    }

    /// Both corral boxes can be pushed into the pocket, which lets the player in, but
    /// each push only ends with them jammed: searched to the end, a barrier of two is
    /// proven dead, where stopping once the player got in proved nothing.
    #[test]
    fn a_box_pushed_into_a_pocket_does_not_open_its_corral() {
        let text = "########\n#..$   #\n#   #  #\n#   #$##\n#@    #\n#######\n";
        let board = Board::from_text(text);
        let boxes = board.start_boxes.clone();
        assert!(!solvable(&board, &boxes, board.start_player));
        let (_, corrals) = corrals_at_start(&board);
        assert_eq!(corrals.count(), 1);
        let mut searcher = CorralDeadlocks::new(board.n);
        assert!(searcher.any_dead(&board, &corrals, board.start_player));
        assert!(searcher.nodes < SEALED_NODE_LIMIT as u64, "{} positions", searcher.nodes);
    }

    /// Small random maps: every position a corral search calls dead must be unsolvable,
    /// and the search must find some (else this test proves nothing).
    #[test]
    fn every_corral_called_dead_is_unsolvable() {
        let mut proven = 0;
        // A 6x5 room with a few inner walls, three boxes, three goals and the player.
        let draw = Draw::rooms(6, 5, 5, 0, b"...$$$@");
        for_random_positions(0x1234_5678_9abc_def0, 3000, draw, |p| {
            let (board, boxes, text) = (p.board, &p.boxes, &p.text);
            let (reach, corrals) = corrals_at_start(board);
            let mut searcher = CorralDeadlocks::new(board.n);
            let dead = searcher.any_dead(board, &corrals, p.player);
            if dead {
                proven += 1;
                let solvable = solvable(board, boxes, p.player);
                assert!(!solvable, "called dead but solvable:\n{}", text);
            }
            // Anywhere in his area the player gets the same verdict, from the cache.
            let searches = searcher.searches;
            for c in (0..board.n as Cell).filter(|&c| reach.reached(c)) {
                assert_eq!(searcher.any_dead(board, &corrals, c), dead, "{}", text);
            }
            assert_eq!(searcher.searches, searches);
        });
        assert!(proven >= 10, "only {} dead corrals found", proven);
    }
}
