//! Boxes frozen on goals never move again: from then on they are walls. The board they
//! leave is analysed again, like the map at the start (dead squares by the player's
//! side), and a position is dead when one of its other boxes can reach none of the goals
//! still open there, or when the frozen boxes shut the player out of an empty goal or of
//! a box off its goal.
//!
//! The static tables cannot see this: a goal row filled from one end, say, cuts the
//! player's only way round to the far side of a box elsewhere. One analysis serves
//! every position with the same frozen boxes and the player in the same region of the
//! board they leave; it is cached, up to a memory bound.

use crate::board::{Board, Cell, NONE};
use crate::freeze::Freeze;
use crate::level::Level;
use crate::limits::FROZEN_GOALS_MAX_CELLS;
use crate::reach::{Areas, Reach};
use crate::state::QuickMap;

/// Cached analyses may hold this many bytes; past it, new frozen sets go unchecked.
const CACHE_BYTES: usize = 48 << 20;

/// The board left by a set of frozen boxes, seen from one region of it.
struct Walled {
    /// `None` when the analysis failed (a board too big); no verdicts then.
    board: Option<Board>,
    /// The goals a box can reach from each of its sides (`Board::analyse_forward`).
    goal_sets: Vec<u64>,
    /// Cell of the full board -> cell of `board`, or `NONE` outside the player's region.
    cell_of: Vec<Cell>,
}

pub struct FrozenWalls {
    /// Frozen boxes (sorted), then the smallest cell of the player's region around them
    /// -> index in `boards`.
    index: QuickMap<Vec<Cell>, u32>,
    boards: Vec<Walled>,
    /// Frozen boxes (sorted) -> for each cell, the smallest cell of its region of the board
    /// they leave (`NONE` on them): most positions share a few frozen sets, and this saves
    /// filling the player's region again for each.
    regions: QuickMap<Vec<Cell>, Vec<Cell>>,
    bytes: usize,
    /// The board of the position `dead` looked at last, for its children.
    current: Option<u32>,
    freeze: Freeze,
    frozen: Vec<Cell>,
    is_frozen: Vec<bool>,
    reach: Reach,
    /// Labels the regions of a frozen set's board (`regions_of_frozen`).
    areas: Areas,
    key: Vec<Cell>,
    assignment: Assignment,
    /// Analyses made (for `--stats`).
    pub analyses: u64,
}

impl FrozenWalls {
    pub fn new(cells: usize) -> FrozenWalls {
        FrozenWalls {
            index: QuickMap::default(),
            boards: Vec::new(),
            regions: QuickMap::default(),
            bytes: 0,
            current: None,
            freeze: Freeze::new(cells),
            frozen: Vec::new(),
            is_frozen: vec![false; cells],
            reach: Reach::new(cells),
            areas: Areas::new(cells),
            key: Vec::new(),
            assignment: Assignment::default(),
            analyses: 0,
        }
    }

    /// Is the position (`occupied` marks `boxes`; the player on `player`) dead because
    /// of the boxes frozen on goals in it? Its board serves `child_dead` after.
    pub fn dead(&mut self, board: &Board, occupied: &[bool], boxes: &[Cell], player: Cell) -> bool {
        self.current = None;
        if board.n > FROZEN_GOALS_MAX_CELLS {
            return false;
        }
        self.frozen.clear();
        self.freeze.frozen_on_goals(board, occupied, boxes.iter().copied(), &mut self.frozen);
        if self.frozen.is_empty() {
            return false;
        }
        self.frozen.sort_unstable();
        self.frozen.iter().for_each(|&b| self.is_frozen[b as usize] = true);
        let region = match self.regions.get(&self.frozen) {
            Some(regions) => regions[player as usize],
            None if self.bytes < CACHE_BYTES => {
                let regions = self.regions_of_frozen(board);
                self.bytes += (self.frozen.len() + regions.len()) * 2;
                let region = regions[player as usize];
                self.regions.insert(self.frozen.clone(), regions);
                region
            }
            None => self.reach.fill(board, &self.is_frozen, player),
        };
        self.key.clear();
        self.key.extend_from_slice(&self.frozen);
        self.key.push(region);
        let at = match self.index.get(&self.key) {
            Some(&at) => Some(at),
            None if self.bytes < CACHE_BYTES => {
                self.analyses += 1;
                let walled = walled(board, &self.is_frozen, player);
                let n = walled.board.as_ref().map_or(0, |b| b.n);
                let tables = walled.cell_of.len() * 2 + n * n + n * 16 + walled.goal_sets.len() * 8;
                self.bytes += self.key.len() * 2 + tables;
                self.boards.push(walled);
                let at = self.boards.len() as u32 - 1;
                self.index.insert(self.key.clone(), at);
                Some(at)
            }
            None => None,
        };
        self.current = at;
        let dead = at.is_some_and(|at| {
            let is_frozen = &self.is_frozen;
            let walled = &self.boards[at as usize];
            is_dead(board, walled, occupied, boxes, player, |b| is_frozen[b as usize], &mut self.assignment)
        });
        self.frozen.iter().for_each(|&b| self.is_frozen[b as usize] = false);
        dead
    }

    /// For each cell, the smallest cell of its region of the board that the boxes marked
    /// in `is_frozen` leave; `NONE` on those boxes.
    fn regions_of_frozen(&mut self, board: &Board) -> Vec<Cell> {
        self.areas.label(board, &self.is_frozen);
        (0..board.n as Cell).map(|c| self.areas.smallest_in_area_of(c)).collect()
    }

    /// After `dead` said no for a position: is its child, in which a box moved to `to`
    /// (freezing nothing more) and the player stands on `player`, dead on the same board?
    pub fn child_dead(&self, board: &Board, to: Cell, player: Cell) -> bool {
        let walled = match self.current {
            Some(at) => &self.boards[at as usize],
            None => return false,
        };
        let inner = match &walled.board {
            Some(inner) => inner,
            None => return false,
        };
        match (walled.cell_of[to as usize], walled.cell_of[player as usize]) {
            (NONE, _) => !board.is_goal[to as usize],
            (_, NONE) => false,
            (c, p) => inner.dead_from(&inner.dead_fwd_sides, c, p),
        }
    }
}

/// The board with the cells in `walls` walled up, as the player on `player` sees it.
fn walled(board: &Board, walls: &[bool], player: Cell) -> Walled {
    let w = board.width;
    let h = board.grid_of.iter().max().map_or(0, |&g| g / w + 1);
    let mut level = Level {
        width: w,
        height: h,
        walls: vec![true; w * h],
        goals: vec![false; w * h],
        boxes: vec![false; w * h],
        player: board.grid_of[player as usize],
    };
    for c in 0..board.n {
        let g = board.grid_of[c];
        level.walls[g] = walls[c];
        // Every open goal holds a box here: the analysis wants as many boxes as goals,
        // and only its goals matter.
        let open_goal = board.is_goal[c] && !walls[c];
        level.goals[g] = open_goal;
        level.boxes[g] = open_goal;
    }
    let mut cell_of = vec![NONE; board.n];
    let (walled, goal_sets) = match Board::analyse_forward(&level) {
        Ok(analysed) => analysed,
        Err(_) => return Walled { board: None, goal_sets: Vec::new(), cell_of },
    };
    for (i, &g) in walled.grid_of.iter().enumerate() {
        // Grid indices are the same: the level keeps the full board's width.
        if let Ok(c) = board.grid_of.binary_search(&g) {
            cell_of[c] = i as Cell;
        }
    }
    Walled { board: Some(walled.without_search_tables()), goal_sets, cell_of }
}

/// Is the position dead on `walled`? `scratch` is the goal assignment's working space.
fn is_dead(
    board: &Board,
    walled: &Walled,
    occupied: &[bool],
    boxes: &[Cell],
    player: Cell,
    is_frozen: impl Fn(Cell) -> bool,
    scratch: &mut Assignment,
) -> bool {
    let inner = match &walled.board {
        Some(inner) => inner,
        None => return false,
    };
    // Outside the player's region nothing ever moves again: every goal there must be
    // filled and every box there on a goal.
    let shut_out = |c: Cell| walled.cell_of[c as usize] == NONE && !is_frozen(c);
    if board.goals.iter().any(|&g| shut_out(g) && !occupied[g as usize]) {
        return true;
    }
    if boxes.iter().any(|&b| shut_out(b) && !board.is_goal[b as usize]) {
        return true;
    }
    let p = walled.cell_of[player as usize];
    let inside = boxes.iter().map(|&b| walled.cell_of[b as usize]).filter(|&c| c != NONE);
    if walled.goal_sets.is_empty() {
        return inside.into_iter().any(|c| inner.dead_from(&inner.dead_fwd_sides, c, p));
    }
    // Each box needs a goal of its own among those it can reach from the player's side.
    let words = inner.goals.len().div_ceil(64);
    scratch.sets.clear();
    scratch.sets.extend(inside.map(|c| (c as usize * 4 + inner.side_towards(c, p)) * words));
    !scratch.all_placed(&walled.goal_sets, words, inner.goals.len())
}

/// Kuhn's augmenting paths over the boxes' reachable goal sets (also `Plan::stranded`'s,
/// which starts from the matching of a node's parent: `clear`, `hold`, then `place_one`).
#[derive(Default)]
pub(crate) struct Assignment {
    /// Per box: where its goal set starts in the sets' words.
    pub(crate) sets: Vec<usize>,
    /// Per goal: the box holding it, or `u32::MAX`.
    owner: Vec<u32>,
    /// Per goal: the round that last visited it.
    visited: Vec<u32>,
    round: u32,
    /// Did the last `place_one` place its box?
    placed: bool,
}

impl Assignment {
    /// Can every box in `sets` get a goal of its own?
    pub(crate) fn all_placed(&mut self, goal_sets: &[u64], words: usize, goals: usize) -> bool {
        if self.sets.len() > goals {
            return false;
        }
        self.clear(goals);
        (0..self.sets.len()).all(|i| self.place_one(i, goal_sets, words))
    }

    /// No goal held, of `goals`.
    pub(crate) fn clear(&mut self, goals: usize) {
        self.owner.clear();
        self.owner.resize(goals, u32::MAX);
        self.visited.clear();
        self.visited.resize(goals, 0);
        self.round = 0;
        self.placed = true;
    }

    /// Goal `j` held by box `i`, which holds no other.
    pub(crate) fn hold(&mut self, j: usize, i: usize) {
        self.owner[j] = i as u32;
    }

    /// The box holding goal `j`.
    pub(crate) fn holder(&self, j: usize) -> Option<usize> {
        Some(self.owner[j] as usize).filter(|&i| i != u32::MAX as usize)
    }

    /// Give box `i`, which holds no goal, one, moving others along an augmenting path.
    pub(crate) fn place_one(&mut self, i: usize, goal_sets: &[u64], words: usize) -> bool {
        // A failed try changed no holder: the goals it visited still lead nowhere.
        if self.placed {
            self.round += 1;
        }
        self.placed = self.place(i, goal_sets, words);
        self.placed
    }

    fn place(&mut self, i: usize, goal_sets: &[u64], words: usize) -> bool {
        let at = self.sets[i];
        // A free goal first: most boxes have one, and then no other box need move.
        for w in 0..words {
            let mut bits = goal_sets[at + w];
            while bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.owner[j] == u32::MAX {
                    self.owner[j] = i as u32;
                    return true;
                }
            }
        }
        for w in 0..words {
            let mut bits = goal_sets[at + w];
            while bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.visited[j] == self.round {
                    continue;
                }
                self.visited[j] = self.round;
                let holder = self.owner[j];
                if holder == u32::MAX || self.place(holder as usize, goal_sets, words) {
                    self.owner[j] = i as u32;
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::freeze::Frozen;
    use crate::testing::{for_random_positions, solvable, Draw};

    fn dead(board: &Board) -> bool {
        let mut occupied = vec![false; board.n];
        board.start_boxes.iter().for_each(|&b| occupied[b as usize] = true);
        FrozenWalls::new(board.n).dead(board, &occupied, &board.start_boxes, board.start_player)
    }

    #[test]
    fn boxes_that_each_reach_a_goal_may_still_not_all_get_one() {
        // The box in the bottom right corner is frozen on its goal. Every other box can
        // reach some goal on the board left, but not each its own.
        let board = Board::from_text("########\n#  #. .#\n#  #  $#\n# $  * #\n#@# # *#\n########\n");
        assert!(!solvable(&board, &board.start_boxes, board.start_player));
        let mut is_frozen = vec![false; board.n];
        is_frozen[board.cell_at(6, 4) as usize] = true;
        let walled = walled(&board, &is_frozen, board.start_player);
        let inner = walled.board.as_ref().unwrap();
        let p = walled.cell_of[board.start_player as usize];
        for &b in &board.start_boxes {
            let c = walled.cell_of[b as usize];
            assert!(c == NONE || !inner.dead_from(&inner.dead_fwd_sides, c, p), "box {} alone is dead", b);
        }
        assert!(dead(&board));
    }

    #[test]
    fn a_goal_assignment_needs_distinct_goals() {
        let mut a = Assignment::default();
        // Three boxes: {0}, {0, 1}, {1, 2} over three goals (one word each).
        let sets = [0b001u64, 0b011, 0b110];
        a.sets.extend([0, 1, 2]);
        assert!(a.all_placed(&sets, 1, 3));
        // Three boxes that can all reach only goals 0 and 1.
        let sets = [0b011u64, 0b011, 0b011];
        a.sets.clear();
        a.sets.extend([0, 1, 2]);
        assert!(!a.all_placed(&sets, 1, 3));
    }

    /// The regions cached for a frozen set are the cells' own fills on the board it leaves.
    #[test]
    fn cached_regions_are_the_fills_of_the_walled_board() {
        let mut split = 0;
        let draw = Draw::rooms(6, 4, 6, 8, b"**..$$@");
        for_random_positions(0x9e37_79b9_7f4a_7c15, 500, draw, |p| {
            let board = p.board;
            let mut walls = FrozenWalls::new(board.n);
            walls.freeze.frozen_on_goals(board, &p.occupied(), p.boxes.iter().copied(), &mut walls.frozen);
            walls.frozen.iter().for_each(|&b| walls.is_frozen[b as usize] = true);
            let regions = walls.regions_of_frozen(board);
            let mut reach = Reach::new(board.n);
            for c in 0..board.n as Cell {
                let fill = if walls.is_frozen[c as usize] { NONE } else { reach.fill(board, &walls.is_frozen, c) };
                assert_eq!(regions[c as usize], fill, "cell {} of\n{}", c, p.text);
            }
            let mut distinct: Vec<Cell> = regions.iter().copied().filter(|&r| r != NONE).collect();
            distinct.sort_unstable();
            distinct.dedup();
            split += (distinct.len() > 1) as usize;
        });
        assert!(split >= 10, "only {} frozen sets split the board", split);
    }

    /// Small random rooms with boxes on goals: every position called dead has no
    /// solution, nor has any child `child_dead` calls dead; both verdicts do come up.
    #[test]
    fn every_position_called_dead_is_unsolvable() {
        let (mut proven, mut children_proven) = (0, 0);
        let draw = Draw::rooms(6, 4, 6, 8, b"**..$$@");
        for_random_positions(0x2545_f491_4f6c_dd1d, 3000, draw, |p| {
            let (board, text) = (p.board, &p.text);
            let mut occupied = p.occupied();
            let mut walls = FrozenWalls::new(board.n);
            if walls.dead(board, &occupied, &p.boxes, p.player) {
                proven += 1;
                let solvable = solvable(board, &p.boxes, p.player);
                assert!(!solvable, "called dead but solvable:\n{}", text);
                return;
            }
            // The children on the same board: each push that freezes nothing more.
            let mut reach = Reach::new(board.n);
            reach.fill(board, &occupied, p.player);
            for (k, &b) in p.boxes.iter().enumerate() {
                for d in 0..4 {
                    let (to, stand) = (board.step(b, d), board.step(b, d ^ 1));
                    if to == NONE || stand == NONE || occupied[to as usize] || !reach.reached(stand) {
                        continue;
                    }
                    let mut boxes = p.boxes.clone();
                    boxes[k] = to;
                    occupied[b as usize] = false;
                    occupied[to as usize] = true;
                    let freezes = Freeze::new(board.n).assess(board, &occupied, to) != Frozen::No;
                    occupied[b as usize] = true;
                    occupied[to as usize] = false;
                    if !freezes && walls.child_dead(board, to, b) {
                        children_proven += 1;
                        assert!(!solvable(board, &boxes, b), "child called dead but solvable:\n{}", text);
                    }
                }
            }
        });
        assert!(proven >= 20, "only {} positions found dead", proven);
        assert!(children_proven >= 20, "only {} children found dead", children_proven);
    }
}
