//! Shorter answers: once a solution is found, stretches of it are solved again.
//!
//! The search finds some solution, often with detours: a box pushed out of the way and
//! back, two boxes that take turns where one push order would do. For each stretch of
//! the solution that moves at most `MAX_MOVED` boxes, a breadth-first search over the
//! pushes of those boxes alone (the others stand still) looks for a shorter way from the
//! stretch's first position to its last, with the player ending where the rest of the
//! solution can go on. A shorter way found is spliced in. The work is counted in
//! positions visited, not seconds, so the answer is the same on every machine.

pub mod moves;
pub mod order;

use crate::board::{Board, Cell, NONE};
use crate::budget::Budget;
use crate::reach::Reach;
use crate::state::{Push, QuickMap};

/// Stretches longer than this many pushes are not searched again.
const MAX_WINDOW: usize = 24;
/// A stretch may move at most this many boxes: the search's positions grow as the
/// number of free cells to this power.
const MAX_MOVED: usize = 3;
/// Positions one stretch's search may visit.
const WINDOW_WORK: usize = 20_000;
/// The distance rows kept at once hold at most this many cells (8 MB).
const CACHED_CELLS: usize = 1 << 22;

/// Push distances to cells on the board without other boxes (the player anywhere), by
/// target cell, computed when first asked for.
#[derive(Default)]
struct Distances {
    rows: QuickMap<Cell, Vec<u16>>,
}

impl Distances {
    /// The rows of every cell of `targets`, kept together; returns how many were computed
    /// now (not cached), each a flood of the board, as costly as one position of a
    /// stretch's search. The cache is emptied when it would hold more than `CACHED_CELLS`
    /// cells, as on a huge map one row per push would fill the memory.
    fn compute_all(&mut self, board: &Board, targets: &[Cell]) -> usize {
        let missing = targets.iter().filter(|t| !self.rows.contains_key(t)).count();
        if missing > 0 && (self.rows.len() + missing) * board.n > CACHED_CELLS {
            self.rows.clear();
        }
        targets.iter().filter(|&&t| self.compute(board, t)).count()
    }

    /// Pushes from each cell to `target` into `rows[target]`, if not there yet; `u16::MAX`
    /// where none leads there within `MAX_WINDOW` pushes. Whether it was computed now.
    fn compute(&mut self, board: &Board, target: Cell) -> bool {
        if self.rows.contains_key(&target) {
            return false;
        }
        // No stretch is longer, so farther cells may read as cut off.
        self.rows.insert(target, board.plain_row(target, true, MAX_WINDOW as u16));
        true
    }
}

/// The fewest pushes that could take `boxes` to the end cells whose distance rows are
/// `rows` (one row per box), each box alone on the board: the best of every assignment.
/// Written out for the few boxes a stretch moves, as it is asked for every position.
fn bound(rows: &[&[u16]], boxes: &[Cell]) -> usize {
    const ORDERS: [[usize; MAX_MOVED]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    debug_assert!(boxes.len() <= MAX_MOVED && rows.len() == boxes.len());
    // d[r][k]: pushes of box k to the end cell of row r.
    let mut d = [[0usize; MAX_MOVED]; MAX_MOVED];
    for (r, row) in rows.iter().enumerate() {
        for (k, &b) in boxes.iter().enumerate() {
            d[r][k] = row[b as usize] as usize;
        }
    }
    match boxes.len() {
        0 => 0,
        1 => d[0][0],
        2 => (d[0][0] + d[1][1]).min(d[1][0] + d[0][1]),
        _ => ORDERS.iter().map(|o| d[o[0]][0] + d[o[1]][1] + d[o[2]][2]).min().unwrap_or(0),
    }
}

/// Walking distances from one cell, the boxes as walls; reused between floods (the
/// shortening passes and the optimal search's player walks).
pub(crate) struct Walks {
    /// Per cell: the flood that reached it in the high 32 bits, its distance in the low
    /// ones, so that one compare tells a cell of this flood from the older ones.
    mark: Vec<u64>,
    generation: u64,
    queue: Vec<Cell>,
}

impl Walks {
    pub(crate) fn new(cells: usize) -> Walks {
        Walks { mark: vec![0; cells], generation: 0, queue: Vec::new() }
    }

    /// Flood the free cells of `occupied` from `from`, stopping once `until` is reached or
    /// the cells left are `within` steps away or more (those are not walked from).
    pub(crate) fn from(&mut self, board: &Board, occupied: &[bool], from: Cell, until: Option<Cell>, within: u32) {
        // A wrapped generation would make cells of old floods look reached: start over.
        self.generation += 1;
        if self.generation > u32::MAX as u64 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.generation = 1;
        }
        let g = self.generation << 32;
        self.queue.clear();
        self.queue.push(from);
        self.mark[from as usize] = g;
        let mut head = 0;
        while head < self.queue.len() {
            let c = self.queue[head];
            head += 1;
            let dist = self.mark[c as usize] & u32::MAX as u64;
            if Some(c) == until || dist >= within as u64 {
                return;
            }
            for &t in &board.nbr[c as usize] {
                if t != NONE && !occupied[t as usize] && self.mark[t as usize] < g {
                    self.mark[t as usize] = g | (dist + 1);
                    self.queue.push(t);
                }
            }
        }
    }

    /// Steps to `c` from the last flood's cell; `None` if it cannot be reached.
    pub(crate) fn to(&self, c: Cell) -> Option<u32> {
        let m = self.mark[c as usize];
        (m >> 32 == self.generation).then_some(m as u32)
    }
}

/// Positions visited so far, and how many may be.
struct Work {
    done: usize,
    limit: usize,
}

impl Work {
    fn spent(&self) -> bool {
        self.done >= self.limit
    }
}

/// Where a stretch's search must end: its boxes on `end` (sorted) with the player's
/// area holding `player`, in at most `limit` pushes; `rows` are the push distances to
/// the end cells.
struct Goal<'g> {
    end: &'g [Cell],
    rows: &'g [&'g [u16]],
    player: Cell,
    limit: usize,
}

/// `pushes` (single pushes from the start, each legal) with shorter stretches spliced
/// in; never longer. Visits at most `work_limit` positions, and stops at the budget's
/// deadline.
pub fn pushes(board: &Board, pushes: Vec<Push>, budget: &Budget, work_limit: usize) -> Vec<Push> {
    let mut plan = pushes;
    let mut work = Work { done: 0, limit: work_limit };
    let mut reach = Reach::new(board.n);
    let mut to_cell = Distances::default();
    // The boxes and the player before push i.
    let (mut layout, mut player) = (board.start_boxes.clone(), board.start_player);
    let mut i = 0;
    while i + 1 < plan.len() && !work.spent() && !budget.past_deadline() {
        let mut improved = false;
        // The longest stretch first: it saves the most when it can be done shorter.
        for len in (2..=stretch_len(&plan[i..], MAX_MOVED)).rev() {
            let window = &plan[i..i + len];
            let (moved, fixed) = moved_boxes(&layout, window, MAX_MOVED).expect("a stretch of few boxes");
            let end = end_cells(&moved, window);
            // Not even alone on the board could the boxes get there in fewer pushes.
            work.done += to_cell.compute_all(board, &end);
            let rows: Vec<&[u16]> = end.iter().map(|e| &to_cell.rows[e][..]).collect();
            if bound(&rows, &moved) >= len {
                continue;
            }
            let end_player = window[len - 1].from;
            let goal = Goal { end: &end, rows: &rows, player: end_player, limit: len - 1 };
            let found = search(board, &mut reach, &fixed, &moved, player, &goal, &mut work);
            if let Some(shorter) = found {
                plan.splice(i..i + len, shorter);
                improved = true;
                break;
            }
            if work.spent() {
                break;
            }
        }
        if !improved {
            let p = plan[i];
            if let Some(b) = layout.iter_mut().find(|b| **b == p.from) {
                *b = p.to;
            }
            player = p.from;
            i += 1;
        }
    }
    plan
}

/// How many pushes from the start of `plan` move at most `most` boxes, and at most
/// `MAX_WINDOW`.
fn stretch_len(plan: &[Push], most: usize) -> usize {
    // Where each box moved so far stands: a push from another cell moves a new box.
    let mut at: Vec<Cell> = Vec::with_capacity(most + 1);
    for (k, p) in plan.iter().take(MAX_WINDOW).enumerate() {
        match at.iter().position(|&c| c == p.from) {
            Some(j) => at[j] = p.to,
            None if at.len() < most => at.push(p.to),
            None => return k,
        }
    }
    plan.len().min(MAX_WINDOW)
}

/// The cells of the boxes that `window` moves, as they stand before it, and the cells of
/// the others; `None` if it moves more than `most` boxes.
fn moved_boxes(layout: &[Cell], window: &[Push], most: usize) -> Option<(Vec<Cell>, Vec<Cell>)> {
    let mut now: Vec<Cell> = layout.to_vec();
    let mut moved = vec![false; layout.len()];
    for p in window {
        let i = now.iter().position(|&b| b == p.from)?;
        now[i] = p.to;
        moved[i] = true;
    }
    if moved.iter().filter(|&&m| m).count() > most {
        return None;
    }
    let pick = |want: bool| (0..layout.len()).filter(|&i| moved[i] == want).map(|i| layout[i]).collect();
    Some((pick(true), pick(false)))
}

/// Where the moved boxes stand after `window`, sorted.
fn end_cells(moved: &[Cell], window: &[Push]) -> Vec<Cell> {
    let mut now = moved.to_vec();
    for p in window {
        if let Some(b) = now.iter_mut().find(|b| **b == p.from) {
            *b = p.to;
        }
    }
    now.sort_unstable();
    now
}

/// The boxes of a stretch's position: the first `m` sorted, `NONE` after them.
type Moved = [Cell; MAX_MOVED];

/// The fewest pushes that take the `moved` boxes (the `fixed` ones standing still, the
/// player on `player`) to the goal. Breadth-first over (boxes, the player's area by its
/// smallest cell), cutting positions the bound says cannot make it within the limit.
fn search(
    board: &Board,
    reach: &mut Reach,
    fixed: &[Cell],
    moved: &[Cell],
    player: Cell,
    goal: &Goal,
    work: &mut Work,
) -> Option<Vec<Push>> {
    let (end, end_player, limit) = (goal.end, goal.player, goal.limit);
    let m = moved.len();
    let mut occupied = vec![false; board.n];
    fixed.iter().for_each(|&b| occupied[b as usize] = true);
    let mut start: Moved = [NONE; MAX_MOVED];
    start[..m].copy_from_slice(moved);
    start[..m].sort_unstable();
    // Node: its boxes, its player cell, its parent and the push that led to it.
    let mut nodes: Vec<(Moved, Cell, usize, Push)> = Vec::new();
    let mut seen: QuickMap<(Moved, Cell), ()> = QuickMap::default();
    let area = |reach: &mut Reach, occupied: &mut Vec<bool>, boxes: &[Cell], at: Cell| {
        boxes.iter().for_each(|&b| occupied[b as usize] = true);
        let smallest = reach.fill(board, occupied, at);
        boxes.iter().for_each(|&b| occupied[b as usize] = false);
        smallest
    };
    let root = area(reach, &mut occupied, &start[..m], player);
    seen.insert((start, root), ());
    nodes.push((start, player, usize::MAX, Push::step(NONE, 0, NONE)));
    let (mut head, mut depth_end, mut depth) = (0, 1, 0);
    let mut children = Vec::new();
    while head < nodes.len() {
        if head == depth_end {
            depth += 1;
            depth_end = nodes.len();
        }
        if depth >= limit {
            return None;
        }
        let (all, at) = (nodes[head].0, nodes[head].1);
        let boxes = &all[..m];
        head += 1;
        boxes.iter().for_each(|&b| occupied[b as usize] = true);
        reach.fill(board, &occupied, at);
        children.clear();
        for (k, &b) in boxes.iter().enumerate() {
            for d in 0..4 {
                let (to, stand) = (board.step(b, d), board.step(b, d ^ 1));
                let open = to != NONE && stand != NONE && !occupied[to as usize] && !board.dead_fwd[to as usize];
                if open && reach.reached(stand) {
                    let mut next = all;
                    next[k] = to;
                    next[..m].sort_unstable();
                    children.push((next, b, Push::step(b, d as u8, to)));
                }
            }
        }
        boxes.iter().for_each(|&b| occupied[b as usize] = false);
        for &(next, after, push) in &children {
            work.done += 1;
            if depth + 1 + bound(goal.rows, &next[..m]) > limit {
                continue;
            }
            let canonical = area(reach, &mut occupied, &next[..m], after);
            if seen.insert((next, canonical), ()).is_some() {
                continue;
            }
            let parent = head - 1;
            if &next[..m] == end {
                next[..m].iter().for_each(|&b| occupied[b as usize] = true);
                reach.fill(board, &occupied, after);
                let home = reach.reached(end_player);
                next[..m].iter().for_each(|&b| occupied[b as usize] = false);
                if home {
                    let mut path = vec![push];
                    let mut i = parent;
                    while nodes[i].2 != usize::MAX {
                        path.push(nodes[i].3);
                        i = nodes[i].2;
                    }
                    path.reverse();
                    return Some(path);
                }
            }
            nodes.push((next, after, parent, push));
        }
        if nodes.len() > WINDOW_WORK || work.spent() {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::packing::Packing;
    use crate::solution;
    use crate::solver::{self, Options, Verdict};

    fn board(text: &str) -> (Level, Board) {
        let level = Level::parse(text).unwrap();
        let board = Board::analyse(&level).unwrap();
        (level, board)
    }

    /// Single pushes for a box path written as directions from the start.
    fn plan(board: &Board, dirs: &[(Cell, u8)]) -> Vec<Push> {
        dirs.iter().map(|&(from, d)| Push::step(from, d, board.step(from, d as usize))).collect()
    }

    /// The bound is the cheapest assignment of boxes to rows, as every permutation says.
    #[test]
    fn the_bound_is_the_cheapest_assignment() {
        let mut random = crate::testing::Rooms::new(0x9e37_79b9);
        let mut next = || random.below(30) as u16;
        for m in 0..=MAX_MOVED {
            for _ in 0..200 {
                let rows: Vec<Vec<u16>> = (0..m).map(|_| (0..m).map(|_| next()).collect()).collect();
                let refs: Vec<&[u16]> = rows.iter().map(|r| &r[..]).collect();
                let boxes: Vec<Cell> = (0..m as Cell).collect();
                // Every assignment, by trying each row for box 0 and recursing on the rest.
                fn cheapest(rows: &[Vec<u16>], k: usize, used: &mut Vec<bool>) -> usize {
                    if k == rows.len() {
                        return 0;
                    }
                    let mut best = usize::MAX;
                    for r in 0..rows.len() {
                        if !used[r] {
                            used[r] = true;
                            best = best.min(rows[r][k] as usize + cheapest(rows, k + 1, used));
                            used[r] = false;
                        }
                    }
                    best
                }
                assert_eq!(bound(&refs, &boxes), cheapest(&rows, 0, &mut vec![false; m]));
            }
        }
    }

    #[test]
    fn a_box_pushed_away_and_back_is_left_alone() {
        // The plan pushes the box right, left again, then right twice to the goal.
        let (level, b) = board("#######\n#@$  .#\n#     #\n#######\n");
        let s = b.start_boxes[0];
        let (r, rr) = (b.step(s, 3), b.step(b.step(s, 3), 3));
        let detour = plan(&b, &[(s, 3), (r, 2), (s, 3), (r, 3), (rr, 3)]);
        let packing = Packing::analyse(&b);
        assert!(solution::replay(&level, &solution::assemble(&b, &packing, &detour).unwrap()).is_ok());
        let short = pushes(&b, detour, &Budget::nodes(1, 1 << 20), 100_000);
        assert_eq!(short.len(), 3, "{:?}", short);
        let moves = solution::assemble(&b, &packing, &short).unwrap();
        assert!(solution::replay(&level, &moves).is_ok());
    }

    /// The player's moves for `plan`: walks between pushes found afresh by the replay on
    /// the grid (`solution::assemble`), not by the passes under test; the answer is
    /// replayed on the level.
    pub(super) fn move_count(level: &Level, b: &Board, plan: &[Push]) -> usize {
        let moves = solution::assemble(b, &Packing::analyse(b), plan).unwrap();
        assert!(solution::replay(level, &moves).is_ok());
        moves.len()
    }

    /// The solver's own answer as single pushes, by replaying its moves.
    pub(super) fn pushes_of(b: &Board, moves: &[solution::Move]) -> Vec<Push> {
        let mut boxes = vec![false; b.n];
        b.start_boxes.iter().for_each(|&c| boxes[c as usize] = true);
        let mut player = b.start_player;
        let mut out = Vec::new();
        for m in moves {
            let next = b.step(player, m.dir as usize);
            if boxes[next as usize] {
                let to = b.step(next, m.dir as usize);
                (boxes[next as usize], boxes[to as usize]) = (false, true);
                out.push(Push::step(next, m.dir, to));
            }
            player = next;
        }
        out
    }

    /// On small random rooms, the solver's answers come back no longer, some shorter, and
    /// still solve the level.
    #[test]
    fn shortened_solutions_are_never_longer_and_still_solve() {
        let mut rooms = crate::testing::Rooms::new(0x5407_7e11);
        let (mut tried, mut shortened, mut saved) = (0, 0, 0);
        while tried < 100 {
            let Some(text) = rooms.text(7, 6, 6, 0, b"...$$$@") else { continue };
            let level = Level::parse(&text).unwrap();
            let Ok(b) = Board::analyse(&level) else { continue };
            let options = Options { shorten: false, ..Options::default() };
            let Verdict::Solved(moves) = solver::solve(&level, &options, &Budget::nodes(3_000, 1 << 22)).verdict else {
                continue;
            };
            tried += 1;
            let first = pushes_of(&b, &moves);
            let short = pushes(&b, first.clone(), &Budget::nodes(1, 1 << 20), 100_000);
            assert!(short.len() <= first.len());
            shortened += (short.len() < first.len()) as usize;
            saved += first.len() - short.len();
            let packing = Packing::analyse(&b);
            let moves = solution::assemble(&b, &packing, &short).unwrap();
            assert!(solution::replay(&level, &moves).is_ok(), "{}", text);
        }
        eprintln!("shorten: {} of {} answers shortened, {} pushes saved", shortened, tried, saved);
        assert!(shortened >= 5, "only {} of {} answers shortened", shortened, tried);
    }
}
