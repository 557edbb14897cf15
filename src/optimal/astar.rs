//! A* over pushes for proven optimal solutions, in two kinds of node.
//!
//! With the player's area (`Model::pushes_only`) a node is the boxes' cells plus the
//! smallest cell the player can walk to, as in the normal search, and a push costs 1
//! whatever the walk: the fewest pushes. With the player's cell (`Model::new`) a node
//! is the boxes plus the cell the player stands on (after a push, the cell the box
//! left), and a push costs its walk too: positions that differ by walking stay apart,
//! since walking costs moves. An edge is one push after the shortest walk to it.
//!
//! Costs are pairs compared in order (the metric, then its tie-break), packed in one
//! `u64` so that adding and comparing them are single operations (`pack`). The bound is
//! a matching of boxes to goals on lone-box push distances, each box's taken from the
//! side of it the player is on (he can never reach the other sides while it stays, and
//! no other box can help it). No solution beats it in pushes, nor therefore in moves or
//! weighted cost (a push costs at least a move). A later search also takes what an
//! earlier search over areas proved (`Guide`).
//!
//! Only proofs prune: a box on a dead square or dead from the player's side of it,
//! freeze deadlocks, goals cut off by boxes frozen on goals, boxes with no perfect
//! matching to goals, and corrals whose barrier boxes alone can never all reach goals
//! (`corral_deadlock`, checked when a node is expanded). None of the normal search's
//! incomplete cuts (PI-corrals, macros, packing order) is used.
//!
//! A node found again more cheaply is reopened: the guide's bound need not be
//! consistent, nor are the tables of big maps (each box's best side, which a push may
//! not leave the player on). The first solution found is kept as an upper bound,
//! nodes that cannot beat it are never stored, and the search is over when the best
//! entry left cannot beat it either. Expansions are partial (`Search::partial`).

use std::collections::BinaryHeap;

use super::weighted::{Weighted, NEVER};
use super::Metric;
use crate::board::{Board, Cell, FAR, NONE};
use crate::bound::{Matching, IMPOSSIBLE};
use crate::budget::Budget;
use crate::corral::Corrals;
use crate::corral_deadlock::CorralDeadlocks;
use crate::freeze::{Freeze, Frozen, GoalCut};
use crate::reach::{Areas, Reach};
use crate::shorten::Walks;
use crate::state::move_box;
use crate::state::Push;
use crate::table::{Probe, Table, NO_PARENT};

mod paths;

pub use paths::FewestMoves;

/// Bits of a packed cost that hold the tie-break; the metric is above them.
const SHIFT: u32 = 24;
const LOW: u64 = (1 << SHIFT) - 1;
/// The metric's part stays below this, so that no sum of two costs overflows.
const HIGH_LIMIT: u64 = 1 << (63 - SHIFT);

/// A cost of `metric` with tie-break `tie`.
pub fn pack(metric: u64, tie: u64) -> u64 {
    metric << SHIFT | tie
}

/// The metric and the tie-break of a packed cost.
pub fn unpack(cost: u64) -> (u64, u64) {
    (cost >> SHIFT, cost & LOW)
}

/// `a + b`, each part on its own; `None` if a part would not fit.
fn add(a: u64, b: u64) -> Option<u64> {
    let low = (a & LOW) + (b & LOW);
    let high = (a >> SHIFT) + (b >> SHIFT);
    (low <= LOW && high < HIGH_LIMIT).then_some(high << SHIFT | low)
}

/// What a solution costs and how boxes are told apart.
pub struct Model {
    pub metric: Metric,
    /// The fewest pushes alone, the player named by his area (its smallest cell) as in
    /// the normal search: far fewer nodes, for a first stage (see `Guide`).
    area: bool,
    /// Per slot of a node's box list: the push cost of its box, on top of the move.
    extra: Vec<u64>,
    /// Per slot: the slots of its class (`start..end`). Boxes of one push cost are
    /// interchangeable, so each class is kept sorted, and positions that differ only by
    /// swapping two of them are one node.
    class: Vec<(usize, usize)>,
    /// The boxes' start cells, slot by slot.
    pub start: Vec<Cell>,
}

impl Model {
    /// `costs[i]`: the push cost of the box on `board.start_boxes[i]` (all 0 but for
    /// `Metric::Cost`).
    pub fn new(board: &Board, metric: Metric, costs: &[u64]) -> Model {
        let mut order: Vec<usize> = (0..board.start_boxes.len()).collect();
        // Stable: within a class the slots keep the start cells' ascending order.
        order.sort_by_key(|&i| costs[i]);
        let extra: Vec<u64> = order.iter().map(|&i| costs[i]).collect();
        let start = order.iter().map(|&i| board.start_boxes[i]).collect();
        let mut class = vec![(0, 0); extra.len()];
        let mut s = 0;
        while s < extra.len() {
            let e = (s..extra.len()).find(|&k| extra[k] != extra[s]).unwrap_or(extra.len());
            class[s..e].iter_mut().for_each(|c| *c = (s, e));
            s = e;
        }
        Model { metric, area: false, extra, class, start }
    }

    /// The fewest pushes, walks free: nodes name the player's area, not his cell.
    pub fn pushes_only(board: &Board) -> Model {
        Model { area: true, ..Model::new(board, Metric::Pushes, &vec![0; board.start_boxes.len()]) }
    }

    /// The bound (packed) of a position that needs `pushes` more pushes.
    pub fn bound_of_pushes(&self, pushes: u64) -> u64 {
        self.bound(pushes * self.least_push())
    }

    /// The least a push costs in the metric.
    fn least_push(&self) -> u64 {
        match self.metric {
            Metric::Pushes | Metric::Moves => 1,
            Metric::Cost => 1 + self.extra.iter().copied().min().unwrap_or(0),
        }
    }

    /// One push of the box in `slot` after `walk` steps.
    fn edge(&self, walk: u64, slot: usize) -> u64 {
        let moves = walk + 1;
        if self.area {
            return pack(1, 0);
        }
        match self.metric {
            Metric::Pushes => pack(1, moves),
            Metric::Moves => pack(moves, 1),
            Metric::Cost => pack(moves + self.extra[slot], 1),
        }
    }

    /// The bound's packed cost for a matching of cost `h`: in pushes, so in moves too,
    /// and a lower bound on both parts when the metric is pushes or moves. Weighted costs
    /// bound the cost alone; their tie-break (pushes) gets no bound.
    fn bound(&self, h: u64) -> u64 {
        if self.area {
            return pack(h, 0);
        }
        match self.metric {
            Metric::Pushes | Metric::Moves => pack(h, h),
            Metric::Cost => pack(h, 0),
        }
    }

    fn weighted(&self) -> bool {
        self.extra.first().is_some_and(|&x| x != self.extra[self.extra.len() - 1])
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The incumbent (the search's own or the one given) is optimal.
    Proven,
    /// No solution exists, and none was given.
    Unsolvable,
    OutOfTime,
    OutOfMemory,
    /// A cost did not fit its packed part, so a child was dropped: no proof either way.
    Overflow,
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub expanded: u64,
    pub generated: u64,
    pub duplicates: u64,
    pub reopened: u64,
    /// Children cut as dead: from the player's side, frozen, or without a matching.
    pub dead: u64,
    /// Nodes proven dead when expanded: a corral whose barrier boxes alone can never all
    /// reach goals (`corral_deadlock`).
    pub dead_corrals: u64,
    /// The pushes on solutions of the fewest pushes (`paths`), and the positions with the
    /// player's cell among them settled for their fewest moves.
    pub path_pushes: u64,
    pub path_positions: u64,
    /// Children left for a later expansion of their parent (`Search::partial`).
    pub deferred: u64,
    /// Children whose bound could not beat the incumbent.
    pub beaten: u64,
    pub stored: usize,
    pub capacity: usize,
    /// The proven lower bound: the highest `g + h` taken from the open list (each was the
    /// least of the open list then, and some open node lies on an optimal path).
    pub lower: u64,
    /// A cost did not fit its packed part: a child was dropped, so nothing is proven.
    pub overflow: bool,
    /// When the incumbent was proven optimal (seconds since the start), if it was: a
    /// search that completes its last layer (`Search::complete_layer`) goes on after.
    pub proven_at: Option<f64>,
}

/// An open-list entry: least `f` first; then the deeper (larger `g`), which reaches a
/// solution sooner among equals; then the newer node.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Entry {
    f: u64,
    g: u64,
    node: u32,
}

impl Ord for Entry {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.f.cmp(&self.f).then(self.g.cmp(&o.g)).then(self.node.cmp(&o.node))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

enum Bound {
    /// One push cost for every box: `bound.rs`'s matching, repaired per child, times `w`.
    Unit {
        w: u64,
        parent: Box<Matching>,
        child: Box<Matching>,
    },
    Weighted(Weighted),
}

/// What a fewest-pushes search (`Model::pushes_only`) proved, as a bound for a later
/// search in any metric. Its nodes were reached in `g` pushes, and no solution has fewer
/// than `lower` pushes; so a layout with the player in that area, however it was reached,
/// still needs at least `lower - g` pushes (else a solution of fewer than `lower` pushes
/// would go through it), and each push costs at least `Model::least_push`.
pub struct Guide {
    table: Table,
    g: Vec<u64>,
    lower: u64,
}

impl Guide {
    /// The pushes still needed from the layout with key `key` (sorted boxes, area).
    fn pushes_left(&self, key: &[Cell]) -> u64 {
        let node = self.table.find(key, hash(key));
        node.map_or(0, |i| self.lower.saturating_sub(unpack(self.g[i as usize]).0))
    }

    /// Bytes it holds.
    pub fn bytes(&self) -> usize {
        match self.table.len() {
            0 => 0,
            n => n * (Table::bytes_per_node(self.table.key(0).len()) + 8),
        }
    }
}

pub struct Search<'a> {
    board: &'a Board,
    model: &'a Model,
    table: Table,
    /// Per node: the cheapest cost found to it.
    g: Vec<u64>,
    open: BinaryHeap<Entry>,
    /// The cost to beat: the incumbent's, or `u64::MAX`.
    upper: u64,
    /// A solution node of this search, if it found one that beat the incumbent.
    pub found: Option<u32>,
    pub stats: Stats,
    bound: Bound,
    /// `Board::goal_distances_by_side`: a box's pushes to each goal from the side of it
    /// the player is on (he can never reach the others while it stays, and no other box
    /// helps it); empty on big maps, where `to_goal` (the best side) serves.
    by_side: Vec<u16>,
    guide: Option<&'a Guide>,
    /// Expand every node that could lie on a best solution, not just until one is
    /// proven: each of them then has its least cost (see `solution_paths`).
    layer: bool,
    /// The solution nodes of cost `upper` (with `layer`), and perhaps older ones.
    goals: Vec<u32>,
    /// Partial expansion: an expansion stores only the children whose bound is no more
    /// than the parent's entry, `entry_f`, and the parent goes back into the open list
    /// at the least bound of the others, `next_f`. Most children of a push search lie
    /// one push farther from the goals than their parent, and a full A* stores them all
    /// though few are ever expanded: this stores a fraction of the nodes for some
    /// expansions made twice. Always in area nodes, where it costs no time; with the
    /// player's cell, whose children's bounds spread wider (walks differ), it takes up
    /// to twice the expansions, so there only once a quarter of the table is used: on
    /// the levels where memory runs out before time.
    partial: bool,
    /// `--progress`: a line on standard error when the proven bound rises, a second at
    /// least after the last line (`printed`, the time of that line), so a long proof
    /// shows it is moving without flooding the terminal.
    pub progress: bool,
    printed: Option<f64>,
    entry_f: u64,
    next_f: u64,
    occupied: Vec<bool>,
    /// The player's walk from the node being expanded.
    walks: Walks,
    /// The free areas of the node being expanded (when children need their area: see
    /// `child_area`), and in area nodes the player's area as `reach`.
    areas: Areas,
    reach: Reach,
    /// For the children whose area the labels cannot tell.
    child_reach: Reach,
    key: Vec<Cell>,
    child: Vec<Cell>,
    /// A child's key as `Guide` names it: boxes sorted, the player's area.
    area_key: Vec<Cell>,
    /// The distances of a node's boxes (rows) to the goals (columns).
    matrix: Vec<u16>,
    /// A child's distances from its pushed box to each goal, and their costs.
    row: Vec<u16>,
    costs: Vec<i32>,
    freeze: Freeze,
    goal_cut: GoalCut,
    walls: Vec<Cell>,
    corrals: Corrals,
    corral_deadlocks: CorralDeadlocks,
}

/// Bytes of the cost and the open list's entry per node, on top of the table's, which
/// charges 8 bytes for an open list entry of its own (not used here).
const EXTRA_BYTES_PER_NODE: usize = 8 + std::mem::size_of::<Entry>() - 8;

fn hash(key: &[Cell]) -> u64 {
    let mut h = 0x243F_6A88_85A3_08D3u64;
    for &x in key {
        h = (h.rotate_left(19) ^ x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    h ^= h >> 31;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ h >> 29
}

impl<'a> Search<'a> {
    /// A search from the start within `memory` bytes that must beat `upper` (a packed
    /// cost; `u64::MAX` for none), its bound raised by `guide`'s where it knows more.
    pub fn new(board: &'a Board, model: &'a Model, memory: usize, upper: u64, guide: Option<&'a Guide>) -> Search<'a> {
        let m = model.start.len();
        let per_node = Table::bytes_per_node(m + 1);
        let table = Table::with_budget(m + 1, memory / (per_node + EXTRA_BYTES_PER_NODE) * per_node);
        let capacity = table.capacity();
        let bound = if model.weighted() {
            Bound::Weighted(Weighted::new(m))
        } else {
            let w = 1 + model.extra.first().copied().unwrap_or(0);
            Bound::Unit { w, parent: Box::new(Matching::new(m)), child: Box::new(Matching::new(m)) }
        };
        let n = board.n;
        Search {
            board,
            model,
            table,
            g: Vec::with_capacity(capacity),
            open: BinaryHeap::with_capacity(capacity),
            upper,
            found: None,
            stats: Stats { capacity, ..Stats::default() },
            bound,
            by_side: board.goal_distances_by_side(),
            guide,
            layer: false,
            goals: Vec::new(),
            partial: model.area,
            progress: false,
            printed: None,
            entry_f: 0,
            next_f: u64::MAX,
            occupied: vec![false; n],
            walks: Walks::new(n),
            areas: Areas::new(n),
            reach: Reach::new(n),
            child_reach: Reach::new(n),
            key: Vec::with_capacity(m + 1),
            child: Vec::with_capacity(m + 1),
            area_key: Vec::with_capacity(m + 1),
            matrix: Vec::with_capacity(m * m),
            row: vec![0; m],
            costs: vec![0; m],
            freeze: Freeze::new(n),
            goal_cut: GoalCut::new(n),
            walls: Vec::new(),
            corrals: Corrals::new(n),
            corral_deadlocks: CorralDeadlocks::new(n),
        }
    }

    /// The incumbent's cost (packed), or `u64::MAX`.
    pub fn upper(&self) -> u64 {
        self.upper
    }

    /// The pushes to a solution node, root first.
    pub fn path(&self, node: u32) -> Vec<Push> {
        self.table.path_to(node)
    }

    /// Go on after the proof until every node that could lie on a best solution is
    /// expanded (see `solution_paths`).
    pub fn complete_layer(&mut self) {
        self.layer = true;
    }

    /// Can a node of bound `f` still be on a solution worth having?
    fn worth(&self, f: u64) -> bool {
        f < self.upper || (self.layer && f == self.upper)
    }

    /// What this fewest-pushes search knows, for a search in another metric; `lower`:
    /// no solution has fewer pushes.
    pub fn into_guide(self, lower: u64) -> Guide {
        Guide { table: self.table, g: self.g, lower }
    }

    pub fn run(&mut self, budget: &Budget) -> End {
        let end = self.search(budget);
        self.stats.stored = self.table.len();
        if end == End::Proven || end == End::Unsolvable {
            // Nothing left in the open list could beat the incumbent.
            self.stats.lower = self.upper;
        }
        end
    }

    fn search(&mut self, budget: &Budget) -> End {
        let m = self.model.start.len();
        let mut root = self.model.start.clone();
        for &(s, e) in &self.model.class {
            root[s..e].sort_unstable();
        }
        let player = self.board.start_player;
        root.push(player);
        if self.model.area {
            root[m] = self.area_of(&root[..m], player);
        }
        let Some(h) = self.bound_of(&root[..m], player) else {
            return End::Unsolvable;
        };
        let f = match self.guide {
            Some(guide) => {
                self.child.clone_from(&root);
                let area = self.area_of(&root[..m], player);
                let left = guide.pushes_left(self.area_key_of_child(area));
                self.model.bound(h.max(left * self.model.least_push()))
            }
            None => self.model.bound(h),
        };
        if !self.worth(f) {
            return self.ended();
        }
        let Probe::Vacant(slot) = self.table.probe(&root, hash(&root)) else { unreachable!() };
        if self.table.insert_at(slot, &root, hash(&root), NO_PARENT, Push::step(0, 0, 0), 0).is_none() {
            return End::OutOfMemory;
        }
        self.g.push(0);
        if h == 0 {
            self.upper = 0;
            self.found = Some(0);
            self.goals.push(0);
            self.stats.proven_at = Some(budget.elapsed());
            return End::Proven;
        }
        self.open.push(Entry { f, g: 0, node: 0 });
        while let Some(e) = self.open.pop() {
            if e.g != self.g[e.node as usize] {
                continue; // a cheaper way to the node was found after this entry
            }
            if e.f >= self.upper {
                if self.stats.proven_at.is_none() && self.upper != u64::MAX {
                    self.stats.proven_at = Some(budget.elapsed());
                }
                if !self.worth(e.f) {
                    return self.ended();
                }
            }
            if self.progress && unpack(e.f).0 > unpack(self.stats.lower).0 {
                let now = budget.elapsed();
                if self.printed.map_or(true, |t| now >= t + 1.0) {
                    self.printed = Some(now);
                    let at_least = super::describe_metric(self.model.metric, unpack(e.f).0);
                    let expanded = crate::count(self.stats.expanded as usize, "position", "positions");
                    eprintln!("sokoban: {:.2} s: at least {} ({} expanded)", now, at_least, expanded);
                }
            }
            self.stats.lower = self.stats.lower.max(e.f);
            if budget.expired(self.stats.expanded) {
                return End::OutOfTime;
            }
            self.stats.expanded += 1;
            self.entry_f = e.f;
            self.next_f = u64::MAX;
            if !self.expand(e.node, e.g) {
                return End::OutOfMemory;
            }
            if self.next_f != u64::MAX && self.worth(self.next_f) {
                self.open.push(Entry { f: self.next_f, g: e.g, node: e.node });
            }
        }
        self.ended()
    }

    /// The open list holds nothing that could beat the incumbent.
    fn ended(&self) -> End {
        if self.stats.overflow {
            End::Overflow
        } else if self.upper == u64::MAX {
            End::Unsolvable
        } else {
            End::Proven
        }
    }

    /// The smallest cell of the player's area on `player` with boxes on `boxes`.
    fn area_of(&mut self, boxes: &[Cell], player: Cell) -> Cell {
        boxes.iter().for_each(|&b| self.occupied[b as usize] = true);
        let least = self.reach.fill(self.board, &self.occupied, player);
        boxes.iter().for_each(|&b| self.occupied[b as usize] = false);
        least
    }

    /// `self.child`'s key as `Guide` names it: its boxes sorted and the smallest cell of
    /// the player's area, `area` (see `child_area`).
    fn area_key_of_child(&mut self, area: Cell) -> &[Cell] {
        let m = self.model.start.len();
        self.area_key.clear();
        self.area_key.extend_from_slice(&self.child[..m]);
        self.area_key.sort_unstable();
        self.area_key.push(area);
        &self.area_key
    }

    /// The smallest cell of the player's area after the box on `from` of the node being
    /// expanded (labelled in `areas`) went to `to`, the player on `from`: from the labels
    /// if they tell, else by a flood.
    fn child_area(&mut self, from: Cell, to: Cell) -> Cell {
        if let Some(least) = self.areas.child(self.board, &self.occupied, from, to, from) {
            return least;
        }
        self.occupied[from as usize] = false;
        self.occupied[to as usize] = true;
        let least = self.child_reach.fill(self.board, &self.occupied, from);
        self.occupied[from as usize] = true;
        self.occupied[to as usize] = false;
        least
    }

    /// The pushes from `c` to goal `goal` of a lone box, the player on `player`.
    fn distance(&self, goal: usize, c: Cell, player: Cell) -> u16 {
        let board = self.board;
        if self.by_side.is_empty() {
            board.to_goal[goal * board.n + c as usize]
        } else {
            let side = board.side_towards(c, player);
            self.by_side[(c as usize * 4 + side) * board.goals.len() + goal]
        }
    }

    /// The matching bound of boxes on `boxes` (slots in order) with the player on
    /// `player`, unpacked; `None` if some box can reach no goal of its own.
    ///
    /// A push leaves the player on the side of every other box that he was on (he
    /// walked to it around them), so a child's matching differs in one row only.
    fn bound_of(&mut self, boxes: &[Cell], player: Cell) -> Option<u64> {
        let m = boxes.len();
        self.matrix.clear();
        for &c in boxes {
            for j in 0..m {
                self.matrix.push(self.distance(j, c, player));
            }
        }
        match &mut self.bound {
            Bound::Unit { w, parent, .. } => {
                for (cost, &d) in parent.cost.iter_mut().zip(&self.matrix) {
                    *cost = unit_cost(d);
                }
                let h = parent.solve();
                (h < IMPOSSIBLE).then(|| h as u64 * *w)
            }
            Bound::Weighted(wm) => {
                for (i, (cost, &d)) in wm.cost.iter_mut().zip(&self.matrix).enumerate() {
                    *cost = weighted_cost(d, 1 + self.model.extra[i / m] as i64);
                }
                let h = wm.solve();
                (h < NEVER).then_some(h as u64)
            }
        }
    }

    /// The bound of the node being expanded with the box in `slot` pushed from `from`
    /// to `to` (`bound_of` was last called on the node itself).
    fn child_bound(&mut self, slot: usize, from: Cell, to: Cell) -> Option<u64> {
        let m = self.model.start.len();
        for j in 0..m {
            self.row[j] = self.distance(j, to, from);
        }
        match &mut self.bound {
            Bound::Unit { w, parent, child } => {
                for j in 0..m {
                    self.costs[j] = unit_cost(self.row[j]);
                }
                let h = child.changed_row_cost(parent, slot, &self.costs);
                (h < IMPOSSIBLE).then(|| h as u64 * *w)
            }
            Bound::Weighted(wm) => {
                let saved: Vec<i64> = wm.cost[slot * m..(slot + 1) * m].to_vec();
                let w = 1 + self.model.extra[slot] as i64;
                for j in 0..m {
                    wm.cost[slot * m + j] = weighted_cost(self.row[j], w);
                }
                let h = wm.solve();
                wm.cost[slot * m..(slot + 1) * m].copy_from_slice(&saved);
                (h < NEVER).then_some(h as u64)
            }
        }
    }

    /// Walk the player from `from` around the boxes on `occupied` (`walks`).
    fn walk(&mut self, from: Cell) {
        self.walks.from(self.board, &self.occupied, from, None, u32::MAX);
    }

    /// Store the children of `node` (cost `g`); `false` when the table is full.
    fn expand(&mut self, node: u32, g: u64) -> bool {
        let board = self.board;
        let m = self.model.start.len();
        self.key.clear();
        self.key.extend_from_slice(self.table.key(node));
        for &b in &self.key[..m] {
            self.occupied[b as usize] = true;
        }
        // In area nodes the player stands on the area's smallest cell: any cell of it
        // reaches the same cells, and walks are free.
        let area = self.model.area;
        // The areas serve the corrals, and children's areas (the area search's, the
        // guide's).
        self.areas.label_with_reach(board, &self.occupied, m, self.key[m], &mut self.reach);
        if !area {
            self.walk(self.key[m]);
        }
        let boxes = std::mem::take(&mut self.key);
        let mut alive = self.bound_of(&boxes[..m], boxes[m]).is_some();
        if alive {
            self.corrals.analyse(board, &self.occupied, &boxes[..m], &self.reach, &self.areas);
            if self.corral_deadlocks.any_dead(board, &self.corrals, boxes[m]) {
                self.stats.dead_corrals += 1;
                alive = false;
            }
        }
        let mut ok = true;
        for k in 0..m {
            if !alive || !ok {
                break;
            }
            let from = boxes[k];
            for d in 0..4 {
                let (to, stand) = (board.step(from, d), board.step(from, d ^ 1));
                if to == NONE || stand == NONE || self.occupied[to as usize] || board.dead_fwd[to as usize] {
                    continue;
                }
                let walk = if area { self.reach.reached(stand).then_some(0) } else { self.walks.to(stand) };
                let Some(walk) = walk else { continue };
                self.stats.generated += 1;
                let edge = self.model.edge(walk as u64, k);
                let Some(gc) = add(g, edge) else {
                    self.stats.overflow = true;
                    continue;
                };
                if !self.worth(gc) {
                    self.stats.beaten += 1;
                    continue;
                }
                self.child.clear();
                self.child.extend_from_slice(&boxes);
                let (s, e) = self.model.class[k];
                move_box(&mut self.child[s..e], k - s, to);
                self.child[m] = if area { self.child_area(from, to) } else { from };
                let push = Push::step(from, d as u8, to);
                if !self.consider(node, k, push, gc) {
                    ok = false;
                    break;
                }
            }
        }
        for &b in &boxes[..m] {
            self.occupied[b as usize] = false;
        }
        self.key = boxes;
        ok
    }

    /// Store or improve the child in `self.child`, reached by `push` of the box in
    /// `slot` at cost `gc`; `false` when the table is full.
    fn consider(&mut self, parent: u32, slot: usize, push: Push, gc: u64) -> bool {
        let hash = hash(&self.child);
        let probe = self.table.probe(&self.child, hash);
        if let Probe::Found(i) = probe {
            if self.g[i as usize] <= gc {
                self.stats.duplicates += 1;
                return true;
            }
        } else if self.dead(push.from, push.to) {
            self.stats.dead += 1;
            return true;
        }
        let Some(h) = self.child_bound(slot, push.from, push.to) else {
            self.stats.dead += 1;
            return true;
        };
        let mut bound = h;
        if let Some(guide) = self.guide {
            let area = self.child_area(push.from, push.to);
            let left = guide.pushes_left(self.area_key_of_child(area));
            bound = bound.max(left * self.model.least_push());
        }
        let Some(f) = add(gc, self.model.bound(bound)) else {
            self.stats.overflow = true;
            return true;
        };
        if !self.worth(f) {
            self.stats.beaten += 1;
            return true;
        }
        if f > self.entry_f && h != 0 && (self.partial || self.table.len() * 4 > self.table.capacity()) {
            self.stats.deferred += 1;
            self.next_f = self.next_f.min(f);
            return true;
        }
        let node = match probe {
            Probe::Found(i) => {
                self.stats.reopened += 1;
                self.table.relink(i, parent, push);
                self.g[i as usize] = gc;
                i
            }
            Probe::Vacant(at) => match self.table.insert_at(at, &self.child, hash, parent, push, 0) {
                Some(i) => {
                    self.g.push(gc);
                    i
                }
                None => return false,
            },
        };
        if h == 0 {
            // Every box is on a goal: the best solution so far, or as good as it.
            if gc < self.upper {
                self.upper = gc;
                self.found = Some(node);
                self.goals.clear();
            }
            self.goals.push(node);
        } else {
            self.open.push(Entry { f, g: gc, node });
        }
        true
    }

    /// Can the position after pushing the box on `from` to `to` never be solved, by the
    /// moved box? (The player stands on `from`.)
    fn dead(&mut self, from: Cell, to: Cell) -> bool {
        let board = self.board;
        if board.dead_from(&board.dead_fwd_sides, to, from) {
            return true;
        }
        self.occupied[from as usize] = false;
        self.occupied[to as usize] = true;
        let dead = match self.freeze.assess(board, &self.occupied, to) {
            Frozen::No => false,
            Frozen::OffGoal => true,
            Frozen::OnGoals => {
                // Boxes frozen on goals are walls for good; every such box counts.
                self.walls.clear();
                self.walls.extend_from_slice(self.freeze.group());
                let m = self.model.start.len();
                let boxes = self.child[..m].iter().copied();
                self.freeze.frozen_on_goals(board, &self.occupied, boxes, &mut self.walls);
                self.goal_cut.cuts_off(board, &self.occupied, &self.walls, &board.goals)
            }
        };
        self.occupied[from as usize] = true;
        self.occupied[to as usize] = false;
        dead
    }
}

fn unit_cost(distance: u16) -> i32 {
    match distance {
        FAR => IMPOSSIBLE,
        d => d as i32,
    }
}

fn weighted_cost(distance: u16, w: i64) -> i64 {
    match distance {
        FAR => NEVER,
        d => d as i64 * w,
    }
}
