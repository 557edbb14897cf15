//! A global packing plan, found once per level by goal peeling (the idea of YASS's packing
//! order): from the solved position, boxes are taken off the goals a phase at a time, each
//! pulled to a start cell not used yet (removed); when no box can go, one is pulled to a
//! parking cell instead (a goal emptied before will do, as in YASS), to be removed once
//! the goals are empty. Read backwards, the phases say which goals (and parking cells) to
//! fill first, across every room at once; a forward search ranks its nodes by how far
//! along the plan they are (`Plan::progress`). Boxes go to their nearest start first;
//! when that finds no plan, a second attempt matches boxes to starts and parks them as
//! YASS does; when neither finds a plan, the plan search of `plan_search` tries. A second
//! plan (`Plan::second`) peels by YASS's own rules for taking a box off, and a third
//! (`Plan::third`) by its rules for parking too, each for a plan phase of its own. The
//! plan names cells, not boxes: `stranded` tells a search when the boxes that filled its
//! cells leave others walled off.

use crate::blocks::Blocks;
use crate::board::{Board, Cell, FAR, NONE};
use crate::frozen_goals::Assignment;
use crate::limits::{PLAN_MAX_BOXES, PLAN_SEARCH_WORK, PLAN_WORK, SECOND_PLAN_SEARCH_WORK};
use crate::reach::Reach;

/// What filling one target in plan order is worth against pushes of the bound and of the
/// distance to the phase's targets.
const TARGET_WEIGHT: usize = 32;
/// Parking cells tried per goal, farthest from it first.
const PARKING_TRIES: usize = 2;
/// By YASS's rules a box goes to a start at least this far (in grid steps): one nearer
/// would make the boxes left look easier to take off than they are.
const YASS_START_DISTANCE: usize = 3;

pub struct Plan {
    /// The targets in forward order, phase by phase: goals and parking cells.
    pub cells: Vec<Cell>,
    /// Per target: the goal a box parked on it goes on to later, `NONE` for a goal.
    pub dest: Vec<Cell>,
    /// Where each phase ends in `cells`.
    pub ends: Vec<usize>,
    /// Per cell: the target on it, else `u16::MAX`; a goal a box is parked on before its
    /// own box comes is its goal target here and its parking target in `parking_index`.
    index: Vec<u16>,
    parking_index: Vec<u16>,
    /// Per target, pushes from each cell onto it on the empty board: `rows[i * n + c]`.
    rows: Vec<u16>,
    /// Per cell, the goal targets a lone box on it can get onto with the goals of earlier
    /// phases as walls (they hold their boxes by then), directly or by a parking cell of
    /// the goal: a bit set over targets, `words` words a cell.
    reach_bits: Vec<u64>,
    words: usize,
    /// Which of the three ways found it, for `--stats`: when the plan phases stall on a
    /// level, it says which of them to look at.
    pub source: &'static str,
}

/// The stranded check's working space, and the matching it remembers: the expanding
/// node's, which its children start from.
#[derive(Default)]
pub struct Strands {
    /// Per target: the cell of the box the remembered matching gives it, else `NONE`.
    kept: Vec<Cell>,
    assignment: Assignment,
    /// The boxes to match, their goal sets, and which of them hold a kept goal.
    free: Vec<Cell>,
    sets: Vec<u64>,
    held: Vec<bool>,
    /// Per cell: the index in `free` of the box on it (stale for cells without one).
    slot: Vec<u32>,
    reserved: Vec<Cell>,
    open: Vec<u64>,
}

/// Which rules a peeling follows: ours (the first plan), YASS's for taking boxes off (the
/// second), or YASS's for parking them too (the third).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    Ours,
    YassTakeOff,
    Yass,
}

/// One step of the peeling, backwards: boxes taken off (cell, the goal a parked box came
/// from or `NONE`), or a goal's box pulled to a parking cell.
pub(crate) enum Op {
    Remove(Vec<(Cell, Cell)>),
    Park(Cell),
}

struct Peel<'b> {
    board: &'b Board,
    occ: Vec<bool>,
    /// Per cell with a parked box: the goal it came from, else `NONE`.
    from_goal: Vec<Cell>,
    is_start: Vec<bool>,
    used_start: Vec<bool>,
    /// Goals parked once already, and cells parked on once: each gets one chance.
    parked_goal: Vec<bool>,
    parked_cell: Vec<bool>,
    /// Boxes go to the start that leaves the goals still holding a box the most starts
    /// (`guard`), not to the nearest: the second attempt, when the nearest fails.
    matched: bool,
    /// Per start cell: the goals a lone box on it reaches; per goal: how many unused start
    /// cells reach it.
    start_goals: Vec<Vec<u16>>,
    free: Vec<u16>,
    ops: Vec<Op>,
    puller: Puller,
    /// YASS's rules for taking a goal's box off (the second plan, `Plan::second`): onto a
    /// start at least `YASS_START_DISTANCE` cells away, the player able to walk back to
    /// where he was, and a box that can be pulled to fewer than `small_area` cells parked
    /// first; in the end game (`end_game` boxes left or fewer) any start will do.
    yass: bool,
    /// YASS's rules for parking too (the third plan, `Plan::third`): no box is taken off
    /// before the player has seen every start cell (`seen_start`; those on goals count
    /// from the first), and a box parks on a start cell if need be, never in a corridor,
    /// where it would bar the way.
    yass_parking: bool,
    seen_start: Vec<bool>,
    unseen: usize,
    small_area: usize,
    end_game: usize,
    /// The boxes taken off along the peeling found so far: (box cell, start cell, boxes
    /// on the board then).
    #[cfg(test)]
    taken: Vec<(Cell, Cell, usize)>,
}

/// The areas the player may have ended the level in: those of the solved position next
/// to a box, each by its smallest cell.
pub(crate) fn solved_areas(board: &Board, reach: &mut Reach) -> Vec<Cell> {
    let n = board.n;
    let mut occ = vec![false; n];
    board.goals.iter().for_each(|&g| occ[g as usize] = true);
    let mut tried = vec![false; n];
    let mut seeds = Vec::new();
    for c in 0..n as Cell {
        let touches = board.nbr[c as usize].iter().any(|&t| t != NONE && occ[t as usize]);
        if occ[c as usize] || tried[c as usize] || !touches {
            continue;
        }
        seeds.push(reach.flood(board, &occ, NONE, &[c]).0);
        (0..n).filter(|&x| reach.reached(x as Cell)).for_each(|x| tried[x] = true);
    }
    seeds
}

/// The steps of a box's whole pulls that flood the player's area before the box's blocks
/// are labelled: fewer cost more on maps whose boxes have few pulls each, more cost more
/// on the others (the sample maps' plans are found fastest, in all, from 4 to 8).
const FLOODED_STEPS: usize = 8;

/// Whole pulls of one box, the others standing still: the peeling's and the plan
/// search's, with the cells the player can walk to paid out of `work` at each step.
pub(crate) struct Puller {
    pub reach: Reach,
    /// The blocks of the box's area, the box lifted: once the player stands beside it,
    /// they tell where he can walk without a flood per step.
    blocks: Blocks,
    seen: Vec<u32>,
    stamp: u32,
    pub work: u64,
}

impl Puller {
    pub fn new(n: usize, work: u64) -> Puller {
        Puller { reach: Reach::new(n), blocks: Blocks::new(n), seen: vec![0; n * 4], stamp: 0, work }
    }

    /// The cells the box on `from` can be pulled to, the player starting in `seed`'s area,
    /// fewest pulls first, each with where the last pull leaves him; up to the first cell
    /// that `stop` accepts, if any does.
    pub fn pulls(
        &mut self,
        b: &Board,
        occ: &mut [bool],
        from: Cell,
        seed: Cell,
        stop: impl Fn(Cell) -> bool,
    ) -> Vec<(Cell, Cell)> {
        self.stamp += 1;
        let st = self.stamp;
        occ[from as usize] = false;
        let mut out: Vec<(Cell, Cell)> = Vec::new();
        let mut queue = vec![(from, seed)];
        let mut head = 0;
        let mut labelled = false;
        while head < queue.len() && self.work > 0 {
            let (x, player) = queue[head];
            head += 1;
            // After a pull the player stands beside the box, and the blocks tell his side's
            // cells and their count, what a flood would find; labelling them costs a few
            // floods, so the first steps (and most boxes' only ones) are flooded.
            let side = if head <= FLOODED_STEPS { None } else { (0..4).find(|&d| b.step(x, d) == player) };
            let walked = match side {
                None => self.reach.flood(b, occ, x, &[player]).1,
                Some(s) => {
                    if !labelled {
                        self.blocks.label(b, occ, from);
                        labelled = true;
                    }
                    self.blocks.piece_size(b, x, s)
                }
            };
            self.work = self.work.saturating_sub(walked as u64);
            for d in 0..4 {
                let p = b.step(x, d);
                let reached = p != NONE
                    && match side {
                        None => self.reach.reached(p),
                        Some(s) => !occ[p as usize] && (s == d || self.blocks.around(b, x, s, d)),
                    };
                if !reached {
                    continue;
                }
                let beyond = b.step(p, d);
                if beyond == NONE || occ[beyond as usize] || beyond == x {
                    continue;
                }
                let s = p as usize * 4 + d;
                if self.seen[s] == st {
                    continue;
                }
                self.seen[s] = st;
                queue.push((p, beyond));
                if !out.iter().any(|&(c, _)| c == p) {
                    out.push((p, beyond));
                    if stop(p) {
                        head = queue.len();
                        break;
                    }
                }
            }
        }
        occ[from as usize] = true;
        out
    }
}

impl Peel<'_> {
    /// The peeling's steps, or `None`. The first attempt may do `PLAN_WORK`, the second a
    /// quarter of it: the plans it finds take far less, and where it finds none it would
    /// only delay the search. By YASS's rules each gets an eighth of that: they list every
    /// cell a box can be pulled to, and they run late, when a phase asks.
    fn run(board: &Board, matched: bool, rules: Rules) -> Option<Vec<Op>> {
        let mut peel = Peel::new(board, matched, rules);
        peel.solve().then_some(peel.ops)
    }

    /// A peeling of `board`, not started: `solve` puts a box on every goal and peels them.
    fn new(board: &Board, matched: bool, rules: Rules) -> Peel<'_> {
        let n = board.n;
        let yass = rules != Rules::Ours;
        let mut is_start = vec![false; n];
        board.start_boxes.iter().for_each(|&s| is_start[s as usize] = true);
        let m = board.goals.len();
        let mut start_goals = vec![Vec::new(); n];
        let mut free = vec![0u16; m];
        for &s in &board.start_boxes {
            start_goals[s as usize] =
                (0..m).filter(|&j| board.to_goal[j * n + s as usize] != FAR).map(|j| j as u16).collect();
            start_goals[s as usize].iter().for_each(|&j| free[j as usize] += 1);
        }
        Peel {
            board,
            occ: vec![false; n],
            from_goal: vec![NONE; n],
            is_start,
            used_start: vec![false; n],
            parked_goal: vec![false; n],
            parked_cell: vec![false; n],
            matched,
            start_goals,
            free,
            ops: Vec::new(),
            puller: Puller::new(n, PLAN_WORK >> (2 * matched as u32 + 3 * yass as u32)),
            yass,
            yass_parking: rules == Rules::Yass,
            seen_start: board.is_goal.clone(),
            unseen: board.start_boxes.iter().filter(|&&s| !board.is_goal[s as usize]).count(),
            small_area: if yass {
                (0..n).filter(|&c| (0..board.start_boxes.len()).any(|k| board.from_start[k * n + c] != FAR)).count() / 4
            } else {
                0
            },
            end_game: (m * 15 + 50) / 100,
            #[cfg(test)]
            taken: Vec::new(),
        }
    }

    /// Peel from each area the player may have ended the level in, until one succeeds.
    fn solve(&mut self) -> bool {
        self.board.goals.iter().for_each(|&g| self.occ[g as usize] = true);
        for seed in solved_areas(self.board, &mut self.puller.reach) {
            if self.peel(seed) {
                return true;
            }
            if self.puller.work == 0 {
                break;
            }
        }
        false
    }

    /// Mark the start cell `s` used (or free again), counting the goals it reaches down.
    fn use_start(&mut self, s: Cell, on: bool) {
        self.used_start[s as usize] = on;
        for &j in &self.start_goals[s as usize] {
            self.free[j as usize] = if on { self.free[j as usize] - 1 } else { self.free[j as usize] + 1 };
        }
    }

    /// The fewest unused starts that any goal start `s` reaches and that still holds its
    /// box has: the start that keeps it highest takes least from the goals that need it
    /// (YASS's greedy matching guard).
    fn guard(&self, s: Cell) -> u16 {
        let goals = &self.board.goals;
        let holding = self.start_goals[s as usize].iter().filter(|&&j| self.occ[goals[j as usize] as usize]);
        holding.map(|&j| self.free[j as usize]).min().unwrap_or(u16::MAX)
    }

    /// The pulls of the box on `from`; with `to_start`, up to the first unused start cell.
    fn pulls(&mut self, from: Cell, seed: Cell, to_start: bool) -> Vec<(Cell, Cell)> {
        let (is_start, used) = (&self.is_start, &self.used_start);
        let stop = |p: Cell| to_start && is_start[p as usize] && !used[p as usize];
        self.puller.pulls(self.board, &mut self.occ, from, seed, stop)
    }

    /// YASS's parking cells for the box on goal `g`, of `cells` (distance back, goal, cell,
    /// player), farthest back first: the one farthest back and the one farthest away on
    /// the grid (then from the first), each leaving the player a way back to the goal.
    fn parking_cells(&mut self, g: Cell, mut cells: Vec<(u16, Cell, Cell, Cell)>) -> Vec<(u16, Cell, Cell, Cell)> {
        let b = self.board;
        let mut out = Vec::new();
        for round in 0..2 {
            if round == 1 {
                let first = out.first().map(|t: &(u16, Cell, Cell, Cell)| t.2);
                cells.retain(|t| Some(t.2) != first);
                cells.sort_by_key(|t| {
                    std::cmp::Reverse((b.grid_distance(g, t.2), first.map_or(0, |f| b.grid_distance(f, t.2))))
                });
            }
            if let Some(&t) = cells.iter().find(|t| self.walks_back(g, t.2, t.3, g)) {
                out.push(t);
            }
        }
        out
    }

    /// Can the player, left on `player` by pulling the box on `from` to `to`, walk to
    /// `back`?
    fn walks_back(&mut self, from: Cell, to: Cell, player: Cell, back: Cell) -> bool {
        self.occ[from as usize] = false;
        self.occ[to as usize] = true;
        let (_, visited) = self.puller.reach.flood(self.board, &self.occ, NONE, &[player]);
        self.puller.work = self.puller.work.saturating_sub(visited as u64);
        let reached = self.puller.reach.reached(back);
        self.occ[to as usize] = false;
        self.occ[from as usize] = true;
        reached
    }

    /// Peel the boxes left, the player in `seed`'s area; `true` once the board is empty.
    fn peel(&mut self, seed: Cell) -> bool {
        let b = self.board;
        let boxes: Vec<Cell> = (0..b.n as Cell).filter(|&c| self.occ[c as usize]).collect();
        if boxes.is_empty() {
            return true;
        }
        if self.puller.work == 0 {
            return false;
        }
        let seen = self.see_starts(seed);
        let done = self.peel_boxes(seed, boxes);
        for s in seen {
            self.seen_start[s as usize] = false;
            self.unseen += 1;
        }
        done
    }

    /// With YASS's parking rules, mark the start cells the player reaches from `seed`
    /// seen; the ones seen for the first time.
    fn see_starts(&mut self, seed: Cell) -> Vec<Cell> {
        if !self.yass_parking || self.unseen == 0 {
            return Vec::new();
        }
        let (_, visited) = self.puller.reach.flood(self.board, &self.occ, NONE, &[seed]);
        self.puller.work = self.puller.work.saturating_sub(visited as u64);
        let (seen_start, reach) = (&mut self.seen_start, &self.puller.reach);
        let seen: Vec<Cell> =
            self.board.start_boxes.iter().copied().filter(|&s| !seen_start[s as usize] && reach.reached(s)).collect();
        seen.iter().for_each(|&s| seen_start[s as usize] = true);
        self.unseen -= seen.len();
        seen
    }

    /// `peel` once the player's view is known: `boxes` are the boxes left.
    fn peel_boxes(&mut self, seed: Cell, boxes: Vec<Cell>) -> bool {
        let b = self.board;
        // Goal boxes go first; parked ones stay while any goal still holds a box.
        let goals_left = boxes.iter().any(|&c| self.from_goal[c as usize] == NONE);
        let all_on_starts = boxes.iter().all(|&c| self.is_start[c as usize] && !self.used_start[c as usize]);
        let mut removed = Vec::new();
        // By YASS's parking rules, none while the player has not seen every start.
        let movable: Vec<Cell> = if self.yass_parking && self.unseen > 0 {
            Vec::new()
        } else {
            boxes.iter().copied().filter(|&c| !goals_left || self.from_goal[c as usize] == NONE).collect()
        };
        // YASS parks the boxes of goals filled from small areas before it takes any off.
        let mut small = Vec::new();
        let end_game = boxes.len() <= self.end_game;
        for c in movable {
            let to = if all_on_starts {
                Some(c)
            } else {
                let pulls = self.pulls(c, seed, !self.matched && !self.yass);
                let b = self.board;
                let mut starts: Vec<Cell> = Vec::new();
                for &(x, player) in &pulls {
                    let fits = self.is_start[x as usize] && !self.used_start[x as usize];
                    if !fits || (self.yass && !end_game && b.grid_distance(x, c) < YASS_START_DISTANCE) {
                        continue;
                    }
                    if self.yass && boxes.len() > 1 && !self.walks_back(c, x, player, seed) {
                        continue;
                    }
                    starts.push(x);
                    if !self.matched {
                        break;
                    }
                }
                let to = if self.matched {
                    // The first of the best: fewest pulls among equals.
                    starts.iter().map(|&x| (std::cmp::Reverse(self.guard(x)), x)).min_by_key(|t| t.0).map(|t| t.1)
                } else {
                    starts.first().copied()
                };
                let goal_box = self.from_goal[c as usize] == NONE;
                if self.yass && to.is_some() && goal_box && !end_game && pulls.len() < self.small_area {
                    small.push(c);
                    continue;
                }
                to
            };
            if let Some(s) = to {
                self.use_start(s, true);
                removed.push((c, s));
            }
        }
        if !small.is_empty() {
            removed.iter().for_each(|&(_, s)| self.use_start(s, false));
            removed.clear();
        }
        if !removed.is_empty() {
            let cells = removed.iter().map(|&(c, _)| (c, self.from_goal[c as usize])).collect();
            for &(c, _) in &removed {
                self.occ[c as usize] = false;
            }
            self.ops.push(Op::Remove(cells));
            #[cfg(test)]
            self.taken.extend(removed.iter().map(|&(c, s)| (c, s, boxes.len())));
            if self.peel(seed) {
                return true;
            }
            #[cfg(test)]
            self.taken.truncate(self.taken.len() - removed.len());
            if let Some(Op::Remove(cells)) = self.ops.pop() {
                for (c, _) in cells {
                    self.occ[c as usize] = true;
                }
            }
            removed.iter().for_each(|&(_, s)| self.use_start(s, false));
            return false;
        }
        // Stuck: park a goal's box, the goals whose box goes farthest first.
        let mut tries: Vec<(u16, Cell, Cell, Cell)> = Vec::new(); // (distance back, goal, cell, player)
        let mut per_goal: Vec<Vec<(u16, Cell, Cell, Cell)>> = Vec::new();
        let goals: Vec<Cell> = boxes
            .iter()
            .copied()
            .filter(|&c| self.from_goal[c as usize] == NONE && !self.parked_goal[c as usize])
            .filter(|c| small.is_empty() || small.contains(c))
            .collect();
        for g in goals {
            let row = b.goals.iter().position(|&x| x == g).map_or(&[][..], |j| &b.to_goal[j * b.n..(j + 1) * b.n]);
            let mut cells: Vec<(u16, Cell, Cell, Cell)> = self
                .pulls(g, seed, false)
                .into_iter()
                .filter(|&(x, _)| {
                    let x = x as usize;
                    // A box may park on a goal emptied before (as YASS parks), not on its
                    // own, which its pulls can take it back to; by all of YASS's rules on
                    // a start too, never in a corridor.
                    let (start, corridor) = (self.is_start[x], self.yass_parking && b.corridor(x as Cell));
                    x != g as usize
                        && (self.yass_parking || !start)
                        && !corridor
                        && !b.dead_fwd[x]
                        && !self.parked_cell[x]
                })
                .map(|(x, p)| (row.get(x as usize).copied().unwrap_or(FAR), g, x, p))
                .filter(|t| t.0 != FAR)
                .collect();
            cells.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
            if self.matched {
                per_goal.push(self.parking_cells(g, cells));
            } else {
                tries.extend(cells.into_iter().take(PARKING_TRIES));
            }
        }
        tries.sort_by_key(|t| std::cmp::Reverse(t.0));
        // Among equals, a goal in a corner parks last: its box blocks less there.
        per_goal.sort_by_key(|cells| cells.first().map(|t| (std::cmp::Reverse(t.0), b.corner(t.1))));
        tries.extend(per_goal.into_iter().flatten());
        for (_, g, x, player) in tries {
            let (g_, x_) = (g as usize, x as usize);
            self.occ[g_] = false;
            self.occ[x_] = true;
            self.from_goal[x_] = g;
            self.parked_goal[g_] = true;
            self.parked_cell[x_] = true;
            self.ops.push(Op::Park(g));
            if self.peel(player) {
                return true;
            }
            self.ops.pop();
            self.occ[g_] = true;
            self.occ[x_] = false;
            self.from_goal[x_] = NONE;
            self.parked_goal[g_] = false;
            self.parked_cell[x_] = false;
            if self.puller.work == 0 {
                break;
            }
        }
        false
    }
}

impl Plan {
    /// The bytes its tables hold, to be paid out of the memory budget.
    pub fn heap_bytes(&self) -> usize {
        (self.cells.capacity()
            + self.dest.capacity()
            + self.index.capacity()
            + self.parking_index.capacity()
            + self.rows.capacity())
            * 2
            + self.reach_bits.capacity() * 8
            + self.ends.capacity() * 8
    }

    /// Are there few enough goals for a plan, and more than one? Every plan asks.
    fn sized_for(board: &Board) -> bool {
        (2..=PLAN_MAX_BOXES).contains(&board.goals.len())
    }

    /// The plan of `board`, or `None` when neither peeling finds one within its work.
    pub fn find(board: &Board) -> Option<Plan> {
        if !Plan::sized_for(board) {
            return None;
        }
        let searched = || crate::plan_search::find(board, PLAN_SEARCH_WORK).map(|ops| (ops, "plan search"));
        let found = Plan::peeled(board).or_else(searched);
        found.map(|(ops, source)| Plan { source, ..Plan::from_ops(board, &ops) })
    }

    /// The goal peeling's steps: boxes to their nearest starts, else matched to them; and
    /// which of the two found them.
    pub(crate) fn peeled(board: &Board) -> Option<(Vec<Op>, &'static str)> {
        Plan::peeled_by(board, Rules::Ours)
    }

    /// The two peelings in turn, by the given rules.
    fn peeled_by(board: &Board, rules: Rules) -> Option<(Vec<Op>, &'static str)> {
        let tries = match rules {
            Rules::Ours => [(false, "peeling"), (true, "matched peeling")],
            Rules::YassTakeOff => [(false, "peeling by YASS's rules"), (true, "matched peeling by YASS's rules")],
            Rules::Yass => {
                [(false, "peeling by all of YASS's rules"), (true, "matched peeling by all of YASS's rules")]
            }
        };
        tries.into_iter().find_map(|(matched, source)| Peel::run(board, matched, rules).map(|ops| (ops, source)))
    }

    /// A second plan, for a plan phase of its own: the peelings by YASS's rules for taking
    /// boxes off (`Peel::yass`), else the plan search (when the first plan is not its);
    /// `None` when that is the first plan again. Each plan solves levels the other misses.
    pub fn second(board: &Board, first: &Plan) -> Option<Plan> {
        if !Plan::sized_for(board) {
            return None;
        }
        let peeled = Plan::peeled_by(board, Rules::YassTakeOff);
        let searched = || {
            (first.source != "plan search")
                .then(|| crate::plan_search::find(board, SECOND_PLAN_SEARCH_WORK).map(|ops| (ops, "plan search")))
                .flatten()
        };
        let (ops, source) = peeled.or_else(searched)?;
        let plan = Plan { source, ..Plan::from_ops(board, &ops) };
        (!plan.same_targets(first)).then_some(plan)
    }

    /// A third plan, for a plan phase of its own: the peelings by YASS's rules for parking
    /// as well (`Peel::yass_parking`); `None` when that is one of the others again. Where
    /// a goal room's doors lead to areas joined only through the room, only these rules
    /// keep the first boxes taken off from using up the starts of the player's area.
    pub fn third(board: &Board, first: &Plan, second: Option<&Plan>) -> Option<Plan> {
        if !Plan::sized_for(board) {
            return None;
        }
        let (ops, source) = Plan::peeled_by(board, Rules::Yass)?;
        let plan = Plan { source, ..Plan::from_ops(board, &ops) };
        let known = plan.same_targets(first) || second.is_some_and(|s| plan.same_targets(s));
        (!known).then_some(plan)
    }

    /// Are the targets and their phases those of `other`?
    fn same_targets(&self, other: &Plan) -> bool {
        self.cells == other.cells && self.ends == other.ends
    }

    pub(crate) fn from_ops(board: &Board, ops: &[Op]) -> Plan {
        let n = board.n;
        let mut plan = Plan {
            cells: Vec::new(),
            dest: Vec::new(),
            ends: Vec::new(),
            index: vec![u16::MAX; n],
            parking_index: vec![u16::MAX; n],
            rows: Vec::new(),
            reach_bits: Vec::new(),
            words: 0,
            source: "peeling",
        };
        for op in ops.iter().rev() {
            let targets = match op {
                Op::Remove(cells) => cells.clone(),
                Op::Park(g) => vec![(*g, NONE)],
            };
            for (c, dest) in targets {
                // Going forward a goal parked on is a parking target first, its goal later.
                let (i, c_) = (plan.cells.len() as u16, c as usize);
                if plan.index[c_] != u16::MAX {
                    plan.parking_index[c_] = plan.index[c_];
                }
                plan.index[c_] = i;
                plan.cells.push(c);
                plan.dest.push(dest);
                plan.rows.extend(board.plain_row(c, true, FAR));
            }
            plan.ends.push(plan.cells.len());
        }
        // A parking cell's box goes on to its goal: a way onto the goal too.
        let t = plan.cells.len();
        plan.words = t.div_ceil(64);
        plan.reach_bits = vec![0; n * plan.words];
        let mut walls = vec![false; n];
        let mut start = 0;
        for &end in &plan.ends {
            for i in start..end {
                let row = board.plain_row_where(plan.cells[i], true, FAR, |c| !walls[c as usize]);
                let g = if plan.dest[i] == NONE { i } else { plan.index[plan.dest[i] as usize] as usize };
                for c in (0..n).filter(|&c| row[c] != FAR) {
                    plan.reach_bits[c * plan.words + g / 64] |= 1 << (g % 64);
                }
            }
            (start..end).filter(|&i| plan.dest[i] == NONE).for_each(|i| walls[plan.cells[i] as usize] = true);
            start = end;
        }
        plan
    }

    /// What a node whose plan order walls a box off (`stranded`) adds to its rank: half of
    /// what all the targets are worth. It keeps its feature cell, whose count of targets
    /// filled stays true; it only goes after the nodes there that can still follow the
    /// plan. (Counted as no target filled, it went after far worse nodes too, and the
    /// phase by whole box moves solved fewer levels.)
    pub fn stranded_penalty(&self) -> usize {
        self.cells.len() * TARGET_WEIGHT / 2
    }

    /// Has the plan's order walled a box off? Each box neither on a goal nor parked (on a
    /// parking cell whose goal is still empty) needs a goal of its own, not filled and not
    /// a parked box's, that it can get onto, directly or by an empty parking cell of that
    /// goal, with the goals of earlier phases as walls: `true` when no matching gives each
    /// such box one. The plan names cells, not boxes; this catches the nearest boxes
    /// taking cells that only others could have used.
    ///
    /// The matching starts from `s`'s remembered one (`remember`), kept where its boxes
    /// are still free and its goals still open: a child's differs from its parent's by a
    /// box or two, so most children need no new matching at all.
    pub fn stranded(&self, s: &mut Strands, boxes: &[Cell], occ: impl Fn(Cell) -> bool) -> bool {
        if !self.match_input(s, boxes, &occ) {
            return true;
        }
        let a = &mut s.assignment;
        a.clear(self.cells.len());
        for (j, &c) in s.kept.iter().enumerate() {
            let i = s.slot.get(c as usize).copied().unwrap_or(u32::MAX) as usize;
            if c != NONE && i < s.free.len() && s.free[i] == c && s.open[j / 64] >> (j % 64) & 1 != 0 {
                a.hold(j, i);
                s.held[i] = true;
            }
        }
        let (held, sets, words) = (&s.held, &s.sets, self.words);
        !(0..s.free.len()).all(|i| held[i] || a.place_one(i, sets, words))
    }

    /// Match the boxes of `boxes` as `stranded` does, as many as can be, and keep the
    /// matching for the next calls of `stranded`.
    pub fn remember(&self, s: &mut Strands, boxes: &[Cell], occ: impl Fn(Cell) -> bool) {
        s.kept.clear();
        s.kept.resize(self.cells.len(), NONE);
        self.match_input(s, boxes, &occ);
        let a = &mut s.assignment;
        a.clear(self.cells.len());
        for i in 0..s.free.len() {
            a.place_one(i, &s.sets, self.words);
        }
        for (j, c) in s.kept.iter_mut().enumerate() {
            *c = a.holder(j).map_or(NONE, |i| s.free[i]);
        }
    }

    /// `stranded`'s boxes to match (`free`, with `slot` and `held`), the goals open to them
    /// and each box's set of those it reaches; `false` when the boxes outnumber the goals.
    fn match_input(&self, s: &mut Strands, boxes: &[Cell], occ: &impl Fn(Cell) -> bool) -> bool {
        s.free.clear();
        s.reserved.clear();
        for &b in boxes {
            match self.target_at(b) {
                Some(i) if self.dest[i] == NONE => {}
                Some(i) if !occ(self.dest[i]) => s.reserved.push(self.dest[i]),
                _ => s.free.push(b),
            }
        }
        let words = self.words;
        s.open.clear();
        s.open.resize(words, 0);
        let mut count = 0;
        for i in (0..self.cells.len()).filter(|&i| self.dest[i] == NONE) {
            if !occ(self.cells[i]) && !s.reserved.contains(&self.cells[i]) {
                s.open[i / 64] |= 1 << (i % 64);
                count += 1;
            }
        }
        s.sets.clear();
        s.held.clear();
        s.held.resize(s.free.len(), false);
        s.assignment.sets.clear();
        for (k, &b) in s.free.iter().enumerate() {
            if s.slot.len() <= b as usize {
                s.slot.resize(b as usize + 1, u32::MAX);
            }
            s.slot[b as usize] = k as u32;
            let row = &self.reach_bits[b as usize * words..(b as usize + 1) * words];
            s.sets.extend(row.iter().zip(&s.open).map(|(r, o)| r & o));
            s.assignment.sets.push(k * words);
        }
        count >= s.free.len()
    }

    /// Can a lone box on `c` get onto goal target `g`, as `stranded` counts ways?
    #[cfg(test)]
    fn reaches(&self, c: Cell, g: usize) -> bool {
        self.reach_bits[c as usize * self.words + g / 64] >> (g % 64) & 1 != 0
    }

    /// Parking cells in the plan.
    pub fn parked(&self) -> usize {
        self.dest.iter().filter(|&&d| d != NONE).count()
    }

    /// One line for `--stats`: the phases in forward order, targets as (column,row) from
    /// 0, parking cells marked `p`.
    pub fn describe(&self, board: &Board) -> String {
        let mut line = format!("plan by {}: {} phases, {} parking", self.source, self.ends.len(), self.parked());
        let mut start = 0;
        for &end in &self.ends {
            line.push_str(" |");
            for i in start..end {
                let ((x, y), p) = (board.xy(self.cells[i]), if self.dest[i] == NONE { "" } else { "p" });
                line.push_str(&format!(" ({},{}){}", x, y, p));
            }
            start = end;
        }
        line
    }

    /// Is target `i` filled? A parking cell also once its box went on to its goal.
    fn filled(&self, i: usize, occ: &impl Fn(Cell) -> bool) -> bool {
        occ(self.cells[i]) || self.dest[i] != NONE && occ(self.dest[i])
    }

    /// The targets (indices into `cells`) of the first phase not yet filled, as `progress`
    /// counts them; empty when every phase is.
    pub fn phase_targets(&self, occ: impl Fn(Cell) -> bool) -> std::ops::Range<usize> {
        let mut start = 0;
        for &end in &self.ends {
            if !(start..end).all(|i| self.filled(i, &occ)) {
                return start..end;
            }
            start = end;
        }
        start..start
    }

    /// The target on cell `c`, if any: its goal target where it has two.
    pub fn target_at(&self, c: Cell) -> Option<usize> {
        Some(self.index[c as usize] as usize).filter(|&i| i != u16::MAX as usize)
    }

    /// Is a target on cell `c` one of `targets`?
    pub fn has_target_among(&self, c: Cell, targets: &std::ops::Range<usize>) -> bool {
        targets.contains(&(self.index[c as usize] as usize))
            || targets.contains(&(self.parking_index[c as usize] as usize))
    }

    /// How far a node is along the plan: the targets filled in plan order (the phases
    /// before the first unfilled one whole, and what is filled of that one), and its rank,
    /// lower is better: `TARGET_WEIGHT` per target not filled so, plus the pushes from the
    /// nearest free box to an empty target of that phase. A parking cell counts as filled
    /// once its box went on to its goal too.
    pub fn progress(&self, n: usize, boxes: &[Cell], occ: impl Fn(Cell) -> bool) -> (usize, usize) {
        let (mut filled, mut start) = (0, 0);
        for &end in &self.ends {
            let before = filled;
            for i in start..end {
                filled += self.filled(i, &occ) as usize;
            }
            if filled - before < end - start {
                let mut near = FAR;
                for i in (start..end).filter(|&i| !occ(self.cells[i])) {
                    let row = &self.rows[i * n..(i + 1) * n];
                    near = boxes.iter().filter(|&&b| self.free(b, end)).map(|&b| row[b as usize]).fold(near, u16::min);
                }
                return (filled, self.rank(filled, near));
            }
            start = end;
        }
        (filled, 0)
    }

    /// Is the box on `b` free to come to the targets of a phase that ends at `end`? Boxes on
    /// targets of that phase or earlier ones stay; the others come.
    fn free(&self, b: Cell, end: usize) -> bool {
        (self.index[b as usize].min(self.parking_index[b as usize]) as usize) >= end
    }

    /// `progress`'s rank of a position with `filled` targets filled in order and the
    /// nearest free box `near` pushes from an empty target of the open phase.
    fn rank(&self, filled: usize, near: u16) -> usize {
        let near = if near == FAR { 2 * TARGET_WEIGHT } else { near as usize };
        (self.cells.len() - filled) * TARGET_WEIGHT + near
    }

    /// Of two `progress` results, perhaps by different plans, the one further along: more
    /// targets filled in order, then the lower rank.
    pub fn further(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
        if b.0 > a.0 || (b.0 == a.0 && b.1 < a.1) {
            b
        } else {
            a
        }
    }

    /// `progress` of a parent, kept in `memo` for its children (`child_progress`).
    pub fn remember_progress(&self, memo: &mut Progress, boxes: &[Cell], occ: impl Fn(Cell) -> bool) -> usize {
        let targets = self.phase_targets(&occ);
        memo.filled = targets.start + targets.clone().filter(|&i| self.filled(i, &occ)).count();
        memo.empty.clear();
        memo.empty.extend(targets.clone().filter(|&i| !occ(self.cells[i])));
        memo.open = !targets.is_empty();
        memo.best = (FAR, usize::MAX);
        memo.second = FAR;
        let n = self.index.len();
        for (k, &b) in boxes.iter().enumerate().filter(|&(_, &b)| self.free(b, targets.end)) {
            let d = memo.empty.iter().map(|&i| self.rows[i * n + b as usize]).fold(FAR, u16::min);
            if d < memo.best.0 {
                memo.second = memo.best.0;
                memo.best = (d, k);
            } else if d < memo.second {
                memo.second = d;
            }
        }
        memo.filled
    }

    /// `progress` of a child of the position in `memo` whose box `slot` moved from `from`
    /// to `to`, in time of `to`'s distances alone; `None` when either cell holds a target,
    /// which may change what is filled (ask `progress` then). Each child of a whole box
    /// move would otherwise measure every free box against every empty target again.
    pub fn child_progress(&self, memo: &Progress, slot: usize, from: Cell, to: Cell) -> Option<(usize, usize)> {
        let no_target = |c: Cell| self.index[c as usize] == u16::MAX && self.parking_index[c as usize] == u16::MAX;
        if !(no_target(from) && no_target(to)) {
            return None;
        }
        if !memo.open {
            return Some((memo.filled, 0));
        }
        // The moved box was free at `from` and is free at `to`: the other free boxes keep
        // their distances.
        let others = if memo.best.1 == slot { memo.second } else { memo.best.0 };
        let n = self.index.len();
        let near = memo.empty.iter().map(|&i| self.rows[i * n + to as usize]).fold(others, u16::min);
        Some((memo.filled, self.rank(memo.filled, near)))
    }
}

/// A position's progress along a plan, as `Plan::remember_progress` leaves it: its
/// targets filled, the empty targets of the first phase not yet filled (`open`: there is
/// one), and the least distance of a free box to those (with the box's slot) and the
/// least of the other free boxes.
#[derive(Default)]
pub struct Progress {
    filled: usize,
    empty: Vec<usize>,
    open: bool,
    best: (u16, usize),
    second: u16,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_end_corridor_is_filled_from_the_back() {
        let b = Board::from_text("##########\n#@ $$$...#\n##########\n");
        let plan = Plan::find(&b).unwrap();
        assert_eq!(plan.cells, vec![b.cell_at(8, 1), b.cell_at(7, 1), b.cell_at(6, 1)]);
        assert_eq!(plan.ends, vec![1, 2, 3]);
        assert_eq!(plan.parked(), 0);
        let mut occ = vec![false; b.n];
        let boxes = b.start_boxes.clone();
        boxes.iter().for_each(|&x| occ[x as usize] = true);
        let start = plan.progress(b.n, &boxes, |c| occ[c as usize]).1;
        // One box on the deepest goal is one target in order: a better rank.
        let boxes = vec![b.cell_at(3, 1), b.cell_at(4, 1), b.cell_at(8, 1)];
        occ.iter_mut().for_each(|x| *x = false);
        boxes.iter().for_each(|&x| occ[x as usize] = true);
        assert!(plan.progress(b.n, &boxes, |c| occ[c as usize]).1 + TARGET_WEIGHT / 2 < start);
    }

    #[test]
    fn boxes_go_to_the_starts_the_other_goals_can_spare() {
        // Each box pulled to its nearest free start leaves a goal with none; the matching
        // guard finds a plan, and one with no parking.
        let b = Board::from_text("########\n#      #\n#$.$   #\n#    @ #\n#.$ .  #\n########\n");
        assert!(Peel::run(&b, false, Rules::Ours).is_none());
        let ops = Peel::run(&b, true, Rules::Ours).unwrap();
        assert!(ops.iter().all(|op| matches!(op, Op::Remove(_))));
        assert!(Plan::find(&b).is_some());
    }

    /// The plan, forward, fills (5,1) and then (6,1) of a corridor.
    fn corridor() -> (Board, Plan) {
        let b = Board::from_text("###########\n#@ $ .. $ #\n###########\n");
        let ops = [Op::Remove(vec![(b.cell_at(6, 1), NONE)]), Op::Remove(vec![(b.cell_at(5, 1), NONE)])];
        let plan = Plan::from_ops(&b, &ops);
        assert_eq!(plan.cells, vec![b.cell_at(5, 1), b.cell_at(6, 1)]);
        (b, plan)
    }

    fn stranded_with(b: &Board, plan: &Plan, boxes: &[(usize, usize)]) -> bool {
        let boxes: Vec<Cell> = boxes.iter().map(|&(x, y)| b.cell_at(x, y)).collect();
        plan.stranded(&mut Strands::default(), &boxes, |c| boxes.contains(&c))
    }

    #[test]
    fn a_box_that_takes_the_way_in_of_another_strands_it() {
        let (b, plan) = corridor();
        assert!(!stranded_with(&b, &plan, &[(3, 1), (8, 1)]));
        // The left box fills the first target: the right one still gets to the second.
        assert!(!stranded_with(&b, &plan, &[(5, 1), (8, 1)]));
        // The right box does: the left one can never pass it to the second.
        assert!(stranded_with(&b, &plan, &[(3, 1), (5, 1)]));
    }

    #[test]
    fn a_parking_cell_is_a_way_to_its_goal() {
        // Forward: park a box on (2,1), fill (5,1), then take the parked box on to (3,1).
        // Both boxes come from the right, past (5,1): only the parking cell lets one of
        // them reach (3,1) before (5,1) walls it off.
        let b = Board::from_text("############\n#  . .  $$@#\n############\n");
        let (p, g1, g2) = (b.cell_at(2, 1), b.cell_at(5, 1), b.cell_at(3, 1));
        let ops = [Op::Park(g2), Op::Remove(vec![(g1, NONE)]), Op::Remove(vec![(p, g2)])];
        let parked = Plan::from_ops(&b, &ops);
        assert_eq!((parked.cells.clone(), parked.parked()), (vec![p, g1, g2], 1));
        assert!(!stranded_with(&b, &parked, &[(8, 1), (9, 1)]));
        let direct = Plan::from_ops(&b, &[Op::Remove(vec![(g2, NONE)]), Op::Remove(vec![(g1, NONE)])]);
        assert!(stranded_with(&b, &direct, &[(8, 1), (9, 1)]));
    }

    /// `stranded` against every assignment of the boxes to the open goals: the same answer
    /// on random rooms, plans with parking cells among them.
    #[test]
    fn stranded_means_no_assignment_gives_each_box_a_goal() {
        fn assign(free: &[Cell], open: &mut Vec<usize>, ok: &dyn Fn(Cell, usize) -> bool) -> bool {
            let Some((&b, rest)) = free.split_first() else { return true };
            for j in 0..open.len() {
                let g = open.remove(j);
                let found = ok(b, g) && assign(rest, open, ok);
                open.insert(j, g);
                if found {
                    return true;
                }
            }
            false
        }
        let mut rooms = crate::testing::Rooms::new(11);
        let (mut checked, mut stranded, mut parked, mut repaired) = (0, 0, 0, 0);
        for _ in 0..3000 {
            let Some((b, _)) = rooms.room(6, 4, 7, 12, b"$$$...@") else { continue };
            let Some(plan) = Plan::find(&b) else { continue };
            // The boxes anywhere, half of them on the plan's targets, parking cells too.
            let mut boxes: Vec<Cell> = Vec::new();
            while boxes.len() < b.goals.len() {
                let c = match rooms.below(2) {
                    0 => plan.cells[rooms.below(plan.cells.len() as u64) as usize],
                    _ => rooms.below(b.n as u64) as Cell,
                };
                if !boxes.contains(&c) {
                    boxes.push(c);
                }
            }
            let occ = |c: Cell| boxes.contains(&c);
            let on = |c: Cell| plan.target_at(c);
            let parked_on = |c: Cell| on(c).is_some_and(|i| plan.dest[i] != NONE && !occ(plan.dest[i]));
            let free: Vec<Cell> = boxes
                .iter()
                .copied()
                .filter(|&c| !parked_on(c) && !on(c).is_some_and(|i| plan.dest[i] == NONE))
                .collect();
            let reserved: Vec<Cell> =
                boxes.iter().filter(|&&c| parked_on(c)).map(|&c| plan.dest[on(c).unwrap()]).collect();
            let mut open: Vec<usize> = (0..plan.cells.len())
                .filter(|&i| plan.dest[i] == NONE && !occ(plan.cells[i]) && !reserved.contains(&plan.cells[i]))
                .collect();
            let ok = |x: Cell, g: usize| plan.reaches(x, g);
            let expected = !assign(&free, &mut open, &ok);
            assert_eq!(plan.stranded(&mut Strands::default(), &boxes, occ), expected, "{boxes:?} on {:?}", plan.cells);
            // The same answer from a parent's matching: one box elsewhere, as a push leaves it.
            let mut parent = boxes.clone();
            // (Not drawn from `rooms`, whose draws make the rooms.)
            let moved = checked * 7 % parent.len();
            parent[moved] = ((checked * 104_729 + 13) % b.n) as Cell;
            if !boxes.contains(&parent[moved]) {
                let mut strands = Strands::default();
                plan.remember(&mut strands, &parent, |c| parent.contains(&c));
                assert_eq!(plan.stranded(&mut strands, &boxes, occ), expected, "{boxes:?} after {parent:?}");
                repaired += 1;
            }
            checked += 1;
            stranded += expected as usize;
            parked += boxes.iter().any(|&c| parked_on(c)) as usize;
        }
        assert!(
            checked > 100 && stranded > 10 && checked - stranded > 10 && parked > 0 && repaired > 50,
            "{checked} {stranded} {parked} {repaired}"
        );
    }

    /// Of two plans' progress, the one with more targets filled counts, then the lower rank.
    #[test]
    fn the_plan_further_along_fills_more_then_ranks_lower() {
        assert_eq!(Plan::further((3, 900), (4, 1200)), (4, 1200));
        assert_eq!(Plan::further((4, 1200), (3, 900)), (4, 1200));
        assert_eq!(Plan::further((4, 1200), (4, 1100)), (4, 1100));
        assert_eq!(Plan::further((4, 1100), (4, 1200)), (4, 1100));
        // On a tie the first stays: the phase's own plan comes first.
        assert_eq!(Plan::further((4, 1100), (4, 1100)), (4, 1100));
    }

    /// A child's progress from its parent's (`child_progress`) is the one `progress`
    /// measures afresh, for every box moved to every free cell, whenever it answers.
    #[test]
    fn a_childs_progress_from_its_parents_is_its_own() {
        let mut rooms = crate::testing::Rooms::new(5);
        let (mut answered, mut asked, mut measured) = (0, 0, 0);
        let mut memo = Progress::default();
        for _ in 0..200 {
            let Some((b, _)) = rooms.room(7, 4, 7, 14, b"$$$$....@") else { continue };
            let Some(plan) = Plan::find(&b) else { continue };
            let second = Plan::second(&b, &plan);
            for plan in std::iter::once(&plan).chain(&second) {
                // Boxes anywhere, often on the plan's targets.
                let mut cells: Vec<Cell> = (0..b.n as Cell).collect();
                let mut boxes: Vec<Cell> = Vec::new();
                while boxes.len() < b.goals.len() {
                    let c = if rooms.below(2) == 0 {
                        plan.cells[rooms.below(plan.cells.len() as u64) as usize]
                    } else {
                        cells[rooms.below(cells.len() as u64) as usize]
                    };
                    if !boxes.contains(&c) {
                        boxes.push(c);
                    }
                }
                cells.retain(|c| !boxes.contains(c));
                let occ = |c: Cell| boxes.contains(&c);
                let filled = plan.remember_progress(&mut memo, &boxes, occ);
                assert_eq!(filled, plan.progress(b.n, &boxes, occ).0);
                for slot in 0..boxes.len() {
                    for &to in &cells {
                        let from = boxes[slot];
                        asked += 1;
                        let Some(got) = plan.child_progress(&memo, slot, from, to) else { continue };
                        answered += 1;
                        let mut child = boxes.clone();
                        child[slot] = to;
                        let want = plan.progress(b.n, &child, |c| child.contains(&c));
                        assert_eq!(got, want, "{boxes:?} box {slot} to {to}");
                        measured += (want.1 % TARGET_WEIGHT != 0) as usize;
                    }
                }
            }
        }
        assert!(answered > 500 && asked > answered && measured > 300, "{answered} of {asked} ({measured})");
    }

    #[test]
    fn every_plan_fills_each_goal_once_and_each_parking_cell_before_its_goal() {
        let mut rooms = crate::testing::Rooms::new(11);
        let (mut plans, mut parked, mut seconds, mut on_goals) = (0, 0, 0, 0);
        let (mut thirds, mut on_starts) = (0, 0);
        for _ in 0..3000 {
            let Some((b, _)) = rooms.room(6, 4, 7, 12, b"$$$...@") else { continue };
            let Some(plan) = Plan::find(&b) else { continue };
            let second = Plan::second(&b, &plan);
            let third = Plan::third(&b, &plan, second.as_ref());
            for plan in std::iter::once(&plan).chain(&second).chain(&third) {
                plans += 1;
                parked += plan.parked();
                let mut goals: Vec<Cell> =
                    (0..plan.cells.len()).filter(|&i| plan.dest[i] == NONE).map(|i| plan.cells[i]).collect();
                goals.sort_unstable();
                let mut want = b.goals.clone();
                want.sort_unstable();
                assert_eq!(goals, want);
                let goal_target = |c: Cell| (0..plan.cells.len()).find(|&j| plan.cells[j] == c && plan.dest[j] == NONE);
                for (i, &d) in plan.dest.iter().enumerate().filter(|t| *t.1 != NONE) {
                    assert!(goal_target(d).unwrap() > i);
                    // A goal parked on is left before its own box comes, and both its
                    // targets are found on it.
                    let c = plan.cells[i];
                    if b.is_goal[c as usize] {
                        on_goals += 1;
                        let own = goal_target(c).unwrap();
                        assert!(own > i && plan.target_at(c) == Some(own));
                        assert!(plan.has_target_among(c, &(i..i + 1)) && plan.has_target_among(c, &(own..own + 1)));
                    }
                }
            }
            if let Some(second) = &second {
                seconds += 1;
                assert!(!second.same_targets(&plan));
            }
            if let Some(third) = &third {
                thirds += 1;
                assert!(!third.same_targets(&plan) && !second.as_ref().is_some_and(|s| third.same_targets(s)));
                // Its boxes park on start cells at times, never in a corridor.
                for i in (0..third.cells.len()).filter(|&i| third.dest[i] != NONE) {
                    assert!(!b.corridor(third.cells[i]));
                    on_starts += b.start_boxes.contains(&third.cells[i]) as usize;
                }
            }
        }
        assert!(
            plans > 100 && parked > 0 && seconds > 10 && on_goals > 0 && thirds > 10 && on_starts > 0,
            "{plans} plans, {parked} parking cells ({on_goals} on goals), {seconds} second, {thirds} third \
             ({on_starts} parked on starts)"
        );
    }

    #[test]
    fn by_all_of_yass_rules_no_box_is_taken_off_before_every_start_was_seen() {
        // Two goals wall the two areas off from each other; the player, on either side,
        // sees one start. By YASS's rules for taking boxes off only, a goal's box goes
        // straight to it; by all of them, one parks first, opening the way to the other.
        let b = Board::from_text("###########\n#    #    #\n# $  .  $ #\n#    .    #\n#@   #    #\n###########\n");
        for matched in [false, true] {
            let second = Peel::run(&b, matched, Rules::YassTakeOff).unwrap();
            assert!(second.iter().all(|op| matches!(op, Op::Remove(_))));
            let third = Peel::run(&b, matched, Rules::Yass).unwrap();
            assert!(matches!(third[0], Op::Park(_)));
            assert!(third[1..].iter().all(|op| matches!(op, Op::Remove(_))));
        }
    }

    #[test]
    fn by_yass_rules_boxes_go_to_starts_three_cells_away_before_the_end_game() {
        let mut rooms = crate::testing::Rooms::new(23);
        let (mut plans, mut near_first) = (0, 0);
        for _ in 0..1500 {
            let Some((b, _)) = rooms.room(7, 5, 8, 16, b"$$$$....@") else { continue };
            for matched in [false, true] {
                let mut first = Peel::new(&b, matched, Rules::Ours);
                if first.solve() {
                    let early = |t: &&(Cell, Cell, usize)| t.2 > first.end_game && t.0 != t.1;
                    let near = |t: &&(Cell, Cell, usize)| b.grid_distance(t.0, t.1) < YASS_START_DISTANCE;
                    near_first += first.taken.iter().filter(early).filter(near).count();
                }
                let mut yass = Peel::new(&b, matched, Rules::YassTakeOff);
                if !yass.solve() {
                    continue;
                }
                plans += 1;
                for &(c, s, left) in &yass.taken {
                    let far = b.grid_distance(c, s) >= YASS_START_DISTANCE;
                    assert!(left <= yass.end_game || far, "{c} to {s}, {left} left");
                }
            }
        }
        // The rule matters: without it, boxes go to nearer starts.
        assert!(plans > 60 && near_first > 100, "{plans} plans, {near_first} near starts without the rule");
    }

    /// The pulls as a flood per step finds them, on the floor of `testing` (not the
    /// solver's): the cells, where the player ends, and the work left; and the steps taken.
    fn pulls_by_floods(
        b: &Board,
        floor: &crate::testing::Floor,
        boxes: &[Cell],
        from: Cell,
        seed: Cell,
        stop: Cell,
        mut work: u64,
    ) -> ((Vec<(Cell, Cell)>, u64), usize) {
        let others: Vec<Cell> = boxes.iter().copied().filter(|&c| c != from).collect();
        let (mut queue, mut seen, mut out) = (vec![(from, seed)], Vec::new(), Vec::new());
        let mut head = 0;
        'states: while head < queue.len() && work > 0 {
            let (x, player) = queue[head];
            head += 1;
            let layout: Vec<Cell> = others.iter().copied().chain([x]).collect();
            let area = if layout.contains(&player) { Vec::new() } else { floor.area(&layout, player) };
            work = work.saturating_sub(area.len() as u64);
            for d in 0..4 {
                let p = b.step(x, d);
                if p == NONE || !area.contains(&p) {
                    continue;
                }
                let beyond = b.step(p, d);
                if beyond == NONE || others.contains(&beyond) || seen.contains(&(p, d)) {
                    continue;
                }
                seen.push((p, d));
                queue.push((p, beyond));
                if !out.iter().any(|&(c, _)| c == p) {
                    out.push((p, beyond));
                    if p == stop {
                        break 'states;
                    }
                }
            }
        }
        ((out, work), head)
    }

    /// The pulls told by the blocks of the box's area are those a flood per step finds,
    /// in the same order, paid as much, up to a stop cell or the end of the work.
    #[test]
    fn pulls_by_blocks_are_pulls_by_floods() {
        let mut rooms = crate::testing::Rooms::new(29);
        let (mut compared, mut cut_short, mut stopped, mut by_blocks) = (0, 0, 0, 0);
        for _ in 0..3000 {
            let Some((b, _)) = rooms.room(7, 6, 9, 14, b"$$$$....@") else { continue };
            let floor = crate::testing::Floor::of_board(&b);
            let boxes = b.start_boxes.clone();
            let from = boxes[rooms.below(boxes.len() as u64) as usize];
            let free: Vec<Cell> = (0..b.n as Cell).filter(|c| !boxes.contains(c)).collect();
            let seed = free[rooms.below(free.len() as u64) as usize];
            let stop = if rooms.below(2) == 0 { NONE } else { free[rooms.below(free.len() as u64) as usize] };
            let work = [3, 40, 1 << 20][rooms.below(3) as usize];
            let mut occ = vec![false; b.n];
            boxes.iter().for_each(|&c| occ[c as usize] = true);
            let mut puller = Puller::new(b.n, work);
            let got = puller.pulls(&b, &mut occ, from, seed, |c| c == stop);
            let (expected, steps) = pulls_by_floods(&b, &floor, &boxes, from, seed, stop, work);
            assert_eq!((got, puller.work), expected, "box {from}, player {seed}, stop {stop}, work {work}");
            assert!(boxes.iter().all(|&c| occ[c as usize]), "the boxes are put back");
            compared += 1;
            cut_short += (expected.1 == 0) as usize;
            stopped += expected.0.last().is_some_and(|&(c, _)| c == stop) as usize;
            by_blocks += (steps > FLOODED_STEPS) as usize;
        }
        let counts = [compared, cut_short, stopped, by_blocks];
        assert!(compared > 1000 && counts.iter().all(|&k| k > 100), "{counts:?}");
    }
}
