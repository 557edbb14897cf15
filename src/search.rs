//! The push-level search engine and the strategies built on it.
//!
//! One engine serves both directions: going forward a node's children are the legal
//! pushes, going backward they are the legal pulls from the solved layout. Each side owns
//! a node table; a child found in the other side's table joins the two halves of a
//! solution. Forward-only and backward-only runs are the same loop with one side never
//! expanded beyond its roots.
//!
//! Here: the switches and a side (its table, open list and feature cells); its lower
//! bound is kept in `bound`, its deadlock rules in `prune` and its advisor weights in
//! `advice`; the children of an expansion are made in `movegen`, and the runs that pit
//! sides against each other are in `runs`.

use crate::board::{Board, Cell, FAR, NONE};
use crate::bound::IMPOSSIBLE;
use crate::box_path::{BoxMove, BoxPath};
use crate::budget::Budget;
use crate::corral::Corral;
use crate::limits::{DEADLINE_CHECK_BOXES, DEADLINE_CHECK_CELLS, PACKING_MACRO_MAX_CELLS};
use crate::open::{Alternation, BucketQueue, FeatureQueue, Features, Open};
use crate::packing::{Packing, PlanChoice};
use crate::plan::{Plan, Progress, Strands};
use crate::reach::{Areas, Reach};
use crate::state::{move_box, Push, Via, Zobrist};
use crate::table::{Probe, Table, NO_PARENT};

mod advice;
mod bound;
mod movegen;
mod prune;
mod runs;

use advice::Advice;
use bound::Bound;
use movegen::Macros;
pub use prune::Lessons;
use prune::Pruners;

use runs::WAYPOINTS;
pub use runs::{backward_side, run, second_backward_side, Backward, Waypoint};

/// `Side::dive_rank` of an expanded node, and of a node without a rank (a root: any
/// child ranks better); `Side::dive_best` without a node.
const EXPANDED: u32 = u32::MAX;
const UNRANKED: u32 = u32::MAX - 1;
const NO_NODE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Backward,
}

/// Which sides expand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Bidirectional,
    Forward,
    Backward,
}

/// Order of the open list: `h` alone (greedy best-first), `g + h` (A*), or greedy inside
/// the cells of a feature space taken in turn (see `open`). Only `--priority` asks for A*,
/// which the judge's build leaves out: it would warn of a variant never made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)]
pub enum Priority {
    Greedy,
    AStar,
    Features,
    /// Greedy and feature cells taking turns over the same nodes.
    Alternation,
    /// Feature cells, forward, by the level's packing plan (`plan`): a cell counts the
    /// targets filled in plan order as its boxes packed, and a node's rank adds how far it
    /// is from the plan's next targets to its bound.
    Plan,
}

/// Techniques that can be turned off to measure their worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switches {
    pub freeze: bool,
    pub matching: bool,
    pub corral: bool,
    pub goal_macro: bool,
    /// Push on through one-wide tunnels in one move. Incomplete (skips the states inside).
    pub tunnel_macro: bool,
    /// Enforce the packing order: boxes enter ordered rooms only by macro and stay.
    /// Incomplete: an exhausted search proves nothing.
    pub strict_rooms: bool,
    /// Push a box near a room's next goal all the way there in one move (an extra child).
    pub packing_macro: bool,
    /// Forward expansions for each backward one (at least 1). The backward side is shared
    /// by the phases and carried on from one to the next, so a phase whose forward search
    /// does well alone can leave it few turns and lose nothing it stored.
    pub forward_turns: u32,
    /// Backward expansions in each of the backward side's turns (at least 1).
    pub backward_turns: u32,
    /// Forward feature cells serve their nodes by advisor weight (FESS): the pushes on
    /// the path that neither packed a box nor joined two floor areas.
    pub advisor_weights: bool,
    /// With advisor weights: a push of the box the parent's push moved is free too, so
    /// a weight counts box moves rather than pushes, as FESS's macro moves do.
    pub box_move_weights: bool,
    /// With advisor weights: a push that leaves fewer boxes blocking others (see
    /// `hotspot`) is advised too.
    pub hotspot_weights: bool,
    /// Forward children are whole box moves, each one box pushed as far as it takes, the
    /// others standing still (after the packing-order search of YASS as Tim Wheeler
    /// describes it): onto its room's next goal, or onto the cells off the goals farthest
    /// from where it stands; under a packing plan, onto its current targets or any cell
    /// off the goals (any cell at all once the plan stalls). Incomplete: most positions in
    /// between are never stored.
    /// Maps over `limits::PACKING_MACRO_MAX_CELLS` floor cells go by single pushes (each
    /// move floods the floor).
    pub whole_box_moves: bool,
    /// Backward children include whole pulls too, each box pulled as far as it takes onto a
    /// free start cell, or onto the `PARKING_CELLS` cells off them farthest away, the
    /// others standing still: the backward side then gets near the start position where
    /// single pulls wander (docs/experiments/2026-11-27-whole-pulls.md).
    pub whole_pulls: bool,
    /// Backward children that improve no feature wait in their parent's feature cell, not
    /// their own (see `Side::cell_of_child`).
    pub parent_cells: bool,
    /// Feature cells (not alternating with greedy) give every other turn to the best cell
    /// (`open::FeatureQueue`).
    pub best_cells: bool,
    /// Perturbs the forward side's order when not 0: a child's rank goes up by 0 or 1 as a
    /// hash of its position and the seed says. Which search solves a level is chaotic, so
    /// another seed solves other levels, and runs with a few seeds show how much of a
    /// change's gain is noise. A phase may carry a seed of its own; the user's is added.
    pub seed: u64,
    /// Which of the level's plans the plan phases follow (`Packing::plan_for`).
    pub plan: PlanChoice,
    /// Under a plan, the level's other plans rank a node too: it counts as far along as
    /// the plan it follows furthest (`Plan::further`), and its whole box moves may go onto
    /// any of their current targets. The phase's own plan alone judges stranded boxes.
    pub other_plans: bool,
    /// Forward, after an expansion: its best child, if it ranks better than its parent,
    /// is expanded next, ahead of the open list (the depth-first continuation of YASS's
    /// forward search, whose score counts the push: no worse there is better here). The
    /// child stays in the open list, and is passed over when it comes up.
    pub dive: bool,
    /// Forward, with advisor weights and feature cells alone (no greedy turns): the cells
    /// are kept by plain rank too, and the two orders take turns (`Alternation::cells`).
    pub plain_cells: bool,
}

impl Default for Switches {
    fn default() -> Self {
        Switches::DEFAULT
    }
}

impl Switches {
    /// These switches with every technique that `user` turns off turned off too.
    pub fn within(&self, user: &Switches) -> Switches {
        Switches {
            freeze: self.freeze && user.freeze,
            matching: self.matching && user.matching,
            corral: self.corral && user.corral,
            goal_macro: self.goal_macro && user.goal_macro,
            tunnel_macro: self.tunnel_macro && user.tunnel_macro,
            strict_rooms: self.strict_rooms && user.strict_rooms,
            packing_macro: self.packing_macro && user.packing_macro,
            whole_pulls: self.whole_pulls && user.whole_pulls,
            seed: self.seed.wrapping_add(user.seed),
            ..*self
        }
    }

    /// Every technique on, no advisor weights, one expansion a side in turn.
    pub const DEFAULT: Switches = Switches {
        freeze: true,
        matching: true,
        corral: true,
        goal_macro: true,
        tunnel_macro: true,
        strict_rooms: true,
        packing_macro: true,
        forward_turns: 1,
        backward_turns: 1,
        advisor_weights: false,
        box_move_weights: false,
        hotspot_weights: false,
        whole_box_moves: false,
        whole_pulls: true,
        parent_cells: false,
        best_cells: false,
        seed: 0,
        plan: PlanChoice::First,
        other_plans: false,
        dive: false,
        plain_cells: false,
    };
}

#[derive(Clone, Debug)]
pub struct Stats {
    pub expanded: u64,
    pub generated: u64,
    pub duplicates: u64,
    pub dead_freeze: u64,
    /// Children whose box can reach no target from the player's side of it.
    pub dead_sides: u64,
    pub dead_matching: u64,
    pub dead_corral: u64,
    /// Positions a corral's own search proved dead (see `corral_deadlock`).
    pub dead_corral_search: u64,
    /// Positions dead on the board left by their boxes frozen on goals (see `frozen_goals`),
    /// and the analyses of such boards made (cache misses).
    pub dead_frozen: u64,
    pub frozen_analyses: u64,
    /// Corral searches run (cache misses) and the positions they visited.
    pub corral_searches: u64,
    pub corral_search_nodes: u64,
    pub corral_cuts: u64,
    /// Positions holding a box set proven dead (see `dead_sets`), the searches run to
    /// learn sets, the positions they visited, and the sets known at the end.
    pub dead_sets: u64,
    pub dead_set_searches: u64,
    pub dead_set_nodes: u64,
    pub dead_sets_known: u64,
    pub macros: u64,
    /// Closest approach: the lowest bound of any stored node, and the most boxes on
    /// this side's targets in one (for diagnosis of searches that stall).
    pub best_h: i32,
    pub most_packed: u16,
    pub stored: usize,
    pub capacity: usize,
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            expanded: 0,
            generated: 0,
            duplicates: 0,
            dead_freeze: 0,
            dead_sides: 0,
            dead_matching: 0,
            dead_corral: 0,
            dead_corral_search: 0,
            dead_frozen: 0,
            frozen_analyses: 0,
            corral_searches: 0,
            corral_search_nodes: 0,
            corral_cuts: 0,
            dead_sets: 0,
            dead_set_searches: 0,
            dead_set_nodes: 0,
            dead_sets_known: 0,
            macros: 0,
            best_h: i32::MAX,
            most_packed: 0,
            stored: 0,
            capacity: 0,
        }
    }
}

impl Stats {
    /// Fold in another phase's counts; table figures keep the largest.
    pub fn add(&mut self, o: &Stats) {
        self.expanded += o.expanded;
        self.generated += o.generated;
        self.duplicates += o.duplicates;
        self.dead_freeze += o.dead_freeze;
        self.dead_sides += o.dead_sides;
        self.dead_matching += o.dead_matching;
        self.dead_corral += o.dead_corral;
        self.dead_corral_search += o.dead_corral_search;
        self.dead_frozen += o.dead_frozen;
        self.frozen_analyses += o.frozen_analyses;
        self.corral_searches += o.corral_searches;
        self.corral_search_nodes += o.corral_search_nodes;
        self.corral_cuts += o.corral_cuts;
        self.dead_sets += o.dead_sets;
        self.dead_set_searches += o.dead_set_searches;
        self.dead_set_nodes += o.dead_set_nodes;
        self.dead_sets_known = self.dead_sets_known.max(o.dead_sets_known);
        self.macros += o.macros;
        self.best_h = self.best_h.min(o.best_h);
        self.most_packed = self.most_packed.max(o.most_packed);
        self.stored = self.stored.max(o.stored);
        self.capacity = self.capacity.max(o.capacity);
    }
}

/// How a run ended. `Solved` holds the pushes from the start in forward order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Solved(Vec<Push>),
    Unsolvable,
    OutOfTime,
    OutOfMemory,
    /// Every side stopped, and one was exhausted only under incomplete pruning.
    Exhausted,
}

#[derive(Debug)]
pub(crate) enum Step {
    Expanded,
    Exhausted,
    Full,
    /// `own` met `other`, a node of the opposite side's table or, if `second`, of its
    /// second table (see `Opposite`).
    Met {
        own: u32,
        other: u32,
        second: bool,
    },
}

/// The tables a side's children are looked up in: the opposite side's, and for a forward
/// side, the second backward side's while one runs along (`run`).
#[derive(Clone, Copy)]
pub(crate) struct Opposite<'t> {
    pub table: &'t Table,
    pub second: Option<&'t Table>,
}

impl<'t> Opposite<'t> {
    pub fn one(table: &'t Table) -> Self {
        Opposite { table, second: None }
    }

    fn prefetch(&self, box_hash: u64) {
        self.table.prefetch(box_hash);
        if let Some(t) = self.second {
            t.prefetch(box_hash);
        }
    }

    /// The node `key` is in the first table, else in the second (then `true`).
    fn find(&self, key: &[Cell], hash: u64) -> Option<(u32, bool)> {
        match self.table.find(key, hash) {
            Some(node) => Some((node, false)),
            None => self.second.and_then(|t| t.find(key, hash)).map(|node| (node, true)),
        }
    }
}

/// A child about to be stored: box `slot` of the parent moves from `from` to `to`, the
/// player ends on `player`.
#[derive(Clone, Copy)]
struct Child {
    node: u32,
    slot: usize,
    from: Cell,
    to: Cell,
    player: Cell,
    push: Push,
    depth: u16,
    box_hash: u64,
    /// Boxes on this side's targets before the move.
    packed: u16,
    /// A whole box move: the layout's blocks, the box lifted, can tell the child's player
    /// area (`Blocks::without_lifted`); and the deadlock rules
    /// (`Pruners::dead_child`) are asked after the table lookup, since such children are
    /// often found again and a duplicate needs no proof that it is dead.
    whole_move: bool,
}

/// The node being expanded, as the children that move one box far need it.
#[derive(Clone, Copy)]
struct Expanding {
    node: u32,
    /// The children's depth after one push.
    depth: u16,
    box_hash: u64,
    packed: u16,
    /// Only the pushes of a PI-corral's boxes count (see `corral`).
    restricted: bool,
}

impl Expanding {
    /// The child that moves box `slot` from `from` to `to` in `pushes` pushes, the first
    /// in direction `dir`, and leaves the player on `player`.
    fn moved(&self, slot: usize, from: Cell, to: Cell, dir: u8, pushes: usize, player: Cell) -> Child {
        let via = if pushes == 1 { Via::Step } else { Via::Path };
        Child {
            node: self.node,
            slot,
            from,
            to,
            player,
            push: Push { from, dir, via, to },
            depth: self.depth.saturating_add(pushes as u16 - 1),
            box_hash: self.box_hash,
            packed: self.packed,
            whole_move: false,
        }
    }
}

/// What every search of a level reads and none changes, made once per level: the board
/// (with its push distances), the Zobrist keys and the goal rooms' packing.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub board: &'a Board,
    pub zobrist: &'a Zobrist,
    pub packing: &'a Packing,
}

/// The position a side is working on (the node being expanded, or a root being added)
/// and the child being made from it, in buffers kept from one to the next.
struct Position {
    /// The boxes, sorted, and the cells they take.
    boxes: Vec<Cell>,
    occupied: Vec<bool>,
    /// The player's area.
    reach: Reach,
    /// The floor areas, labelled: most children find their player's area from them
    /// instead of by a flood.
    areas: Areas,
    /// The child's key, and its player's area when neither labels nor blocks tell it.
    key: Vec<Cell>,
    child_reach: Reach,
    /// How the latest emitted child's player area was found.
    child_area: ChildArea,
}

/// How a child's player area was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChildArea {
    /// From the parent's area labels (`Areas::child`).
    Labelled,
    /// From the moved box's blocks, which counted this many pieces around it.
    Cut(u16),
    /// By a flood, into `child_reach`.
    Flooded,
}

impl Position {
    fn new(n: usize, nboxes: usize) -> Position {
        Position {
            boxes: Vec::with_capacity(nboxes),
            occupied: vec![false; n],
            reach: Reach::new(n),
            areas: Areas::new(n),
            key: Vec::with_capacity(nboxes + 1),
            child_reach: Reach::new(n),
            child_area: ChildArea::Flooded,
        }
    }

    /// Mark the boxes' cells occupied, or clear them.
    fn set_occupied(&mut self, on: bool) {
        for &b in &self.boxes {
            self.occupied[b as usize] = on;
        }
    }

    /// Can the player, where he is, push the box on `b` onto a free live cell? Only such
    /// boxes are worth a macro attempt.
    fn can_push_now(&self, board: &Board, b: Cell) -> bool {
        (0..4).any(|d| self.reach.push_to(board, &self.occupied, b, d).is_some())
    }
}

/// One direction of search: its table and open list, its bound, deadlock rules and
/// advice, and the position it works on.
pub struct Side<'a> {
    cx: Context<'a>,
    pub direction: Direction,
    priority: Priority,
    /// Added to a node's priority for each box off this side's targets.
    off_target_weight: i32,
    switches: Switches,
    pub table: Table,
    open: Open,
    bound: Bound<'a>,
    pruners: Pruners<'a>,
    advice: Advice<'a>,
    /// Where this side's boxes are headed: the goals forward, the start cells backward.
    is_target: Vec<bool>,
    /// The packing plan it ranks by (`Priority::Plan`, forward), and with
    /// `Switches::other_plans` the level's others, each with the expanding node's progress.
    plan: Option<&'a Plan>,
    others: Vec<(&'a Plan, Progress)>,
    nboxes: usize,
    pos: Position,
    macros: Macros,
    /// Forward only: the `WAYPOINTS` stored nodes with the most boxes on target (the first
    /// found among equals), with those counts.
    most_packed: Vec<(u32, u16)>,
    /// Once they are `WAYPOINTS`: where the first of the least packed of them is, and its count.
    least_packed: (usize, u16),
    /// Per node under a plan: the plan's order walls some box off (`Plan::stranded`), one
    /// byte a node outside the table's budget, as the advisor weights; and the expanding
    /// node's targets filled in plan order and that flag.
    stranded: Vec<bool>,
    /// Per node, forward, one byte a node outside the table's budget: expansions at most
    /// `SUBTREE_LEVELS` below it, up to 255; at `SUBTREE_TEST` its stuck boxes are
    /// searched (`dead_sets`). And the positions those searches visited so far.
    subtree: Vec<u8>,
    learn_work: u64,
    parent_plan: (usize, bool),
    /// Under a plan: the most of its targets any child filled in order, and the expansion
    /// that child came at. Past `STALLED` expansions without more, the plan's open phase
    /// holds the search up, and whole box moves go anywhere (`whole_box_moves`).
    best_filled: (usize, u64),
    /// The expanding node's progress along the plan, which most children share.
    progress: Progress,
    /// The check's working space, and whether it holds the expanding node's matching.
    strands: Strands,
    strands_ready: bool,
    /// With `Switches::dive`, per node: its rank, `EXPANDED` once expanded, four bytes a
    /// node paid out of the table's budget; the expanding node's best child so far that
    /// ranks better than it (rank, node); the node to expand next.
    dive_rank: Vec<u32>,
    dive_best: (u32, u32),
    dive_next: Option<u32>,
    /// Set once a child had to be dropped for lack of room: exhaustion then proves nothing.
    pub overflowed: bool,
    /// Set once a child was dropped by an incomplete rule: exhaustion then proves nothing.
    pub incomplete: bool,
    pub stats: Stats,
}

impl<'a> Side<'a> {
    pub fn new(
        cx: Context<'a>,
        direction: Direction,
        (priority, off_target_weight): Ranking,
        switches: Switches,
        memory_bytes: usize,
    ) -> Side<'a> {
        let board = cx.board;
        let (targets, distances) = match direction {
            Direction::Forward => (&board.goals, &board.to_goal[..]),
            Direction::Backward => (&board.start_boxes, &board.from_start[..]),
        };
        let nboxes = board.start_boxes.len();
        // The recalled matchings get at most a sixteenth of the side's memory.
        let bound = Bound::new(board, targets, distances, switches.matching, memory_bytes / 16);
        let forward = direction == Direction::Forward;
        // Dives are forward only: decided here once.
        let switches = Switches { dive: switches.dive && forward, ..switches };
        let cells = matches!(priority, Priority::Features | Priority::Plan);
        let plain_cells = switches.plain_cells && forward && cells && switches.advisor_weights;
        // The cost rows and recalled matchings come out of the side's memory, so the budget
        // holds what it says.
        let mut budget = memory_bytes.saturating_sub(bound.rows_bytes() + bound.recalled_bytes());
        // A dive's ranks and the plain-ranked cells cost a node 4 bytes each that the
        // table's figure leaves out.
        let extra = 4 * (switches.dive as usize + plain_cells as usize);
        if extra > 0 {
            let per_node = Table::bytes_per_node(nboxes + 1);
            budget = budget / (per_node + extra) * per_node;
        }
        let table = Table::with_budget(nboxes + 1, budget);
        let open = match priority {
            _ if plain_cells => Open::Alternation(Alternation::cells(switches.best_cells)),
            Priority::Features | Priority::Plan => Open::Features(FeatureQueue::new(switches.best_cells)),
            Priority::Alternation => Open::Alternation(Alternation::new()),
            _ => Open::Best(BucketQueue::new()),
        };
        let features = forward && open.wants_features();
        let hotspots = switches.hotspot_weights.then_some(&cx.packing.hotspots);
        let doorway = if features { &board.doorway[..] } else { &[] };
        let weighs = features && switches.advisor_weights;
        let advice = Advice::new(weighs, switches.box_move_weights, hotspots, doorway);
        let mut is_target = vec![false; board.n];
        for &t in targets {
            is_target[t as usize] = true;
        }
        let stats = Stats { capacity: table.capacity(), ..Stats::default() };
        let plan = (forward && priority == Priority::Plan).then(|| cx.packing.plan_for(board, switches.plan)).flatten();
        let others = match plan {
            Some(_) if switches.other_plans => cx.packing.plans_besides(board, switches.plan),
            _ => Vec::new(),
        };
        let others = others.into_iter().map(|p| (p, Progress::default())).collect();
        Side {
            cx,
            direction,
            priority,
            off_target_weight,
            switches,
            table,
            open,
            bound,
            pruners: Pruners::new(board, direction, &switches),
            advice,
            is_target,
            plan,
            others,
            nboxes,
            pos: Position::new(board.n, nboxes),
            macros: Macros::new(board.n, forward && switches.packing_macro),
            most_packed: Vec::new(),
            least_packed: (0, 0),
            stranded: Vec::new(),
            subtree: Vec::new(),
            learn_work: 0,
            parent_plan: (0, false),
            best_filled: (0, 0),
            progress: Progress::default(),
            strands: Strands::default(),
            strands_ready: false,
            dive_rank: Vec::new(),
            dive_best: (0, NO_NODE),
            dive_next: None,
            overflowed: false,
            incomplete: false,
            stats,
        }
    }

    /// Node `n`'s entry in `dive_rank`, made `UNRANKED` if it has none yet (a root).
    fn dive_rank_of(&mut self, n: u32) -> &mut u32 {
        if self.dive_rank.len() <= n as usize {
            self.dive_rank.resize(n as usize + 1, UNRANKED);
        }
        &mut self.dive_rank[n as usize]
    }

    /// A node's rank in the open list, from its bound, depth and boxes on target.
    fn priority_of(&self, h: i32, depth: u16, packed: u16) -> usize {
        let h = h as usize + self.off_target_weight as usize * (self.nboxes - packed as usize);
        match self.priority {
            Priority::Greedy | Priority::Features | Priority::Alternation | Priority::Plan => h,
            Priority::AStar => h + depth as usize,
        }
    }

    /// The feature-space cell of the position in `occupied` (only a feature queue asks).
    fn features(&mut self, packed: u16) -> Features {
        if self.open.wants_features() {
            self.pos.areas.label(self.cx.board, &self.pos.occupied);
            Features { packed, areas: self.pos.areas.count(), doorways: self.advice.doorways(&self.pos.boxes) }
        } else {
            Features { packed: 0, areas: 0, doorways: 0 }
        }
    }

    /// The feature cell child `c` (with `packed` boxes on target) waits in: its own, or
    /// with `Switches::parent_cells`, backward, its parent's unless it improves a feature
    /// (more boxes on target, fewer areas or boxes in doorways). FESS takes a move from
    /// the cell of the position it is made from, so the children of one position compete
    /// in that cell; here only those that make no progress do, and progress opens cells.
    /// Every child in its parent's cell won some levels and lost more; forward, in any
    /// phase, parent cells lost levels: the forward advisors judge a child by its own
    /// features (docs/experiments/2026-11-23-backward-parent-cells-strict-alone.md).
    fn cell_of_child(&mut self, c: &Child, packed: u16) -> Features {
        let own = self.child_features(c, packed);
        let improves =
            own.packed > c.packed || own.areas < self.pos.areas.count() || own.doorways < self.advice.parent_doorways;
        let backward = self.direction == Direction::Backward;
        if self.switches.parent_cells && backward && self.open.wants_features() && !improves {
            Features { packed: c.packed, areas: self.pos.areas.count(), doorways: self.advice.parent_doorways }
        } else {
            own
        }
    }

    /// The features of child `c` with `packed` boxes on target, right after
    /// `child_reach` flooded its player's area; the parent's layout in `occupied` stays.
    fn child_features(&mut self, c: &Child, packed: u16) -> Features {
        if !self.open.wants_features() {
            return Features { packed: 0, areas: 0, doorways: 0 };
        }
        let doorways = self.advice.child_doorways(c);
        let pieces = match self.pos.child_area {
            ChildArea::Labelled => return Features { packed, areas: self.pos.areas.child_count(), doorways },
            ChildArea::Cut(pieces) => Some(pieces),
            ChildArea::Flooded => None,
        };
        self.pos.occupied[c.from as usize] = false;
        self.pos.occupied[c.to as usize] = true;
        let (board, child) = (self.cx.board, &self.pos.occupied);
        let areas = match pieces {
            Some(pieces) => self.pos.areas.count_with_pieces(board, child, c.from, c.to, pieces),
            None => self.pos.areas.count_after_fill(board, child, c.from, c.to, &mut self.pos.child_reach),
        };
        self.pos.occupied[c.from as usize] = true;
        self.pos.occupied[c.to as usize] = false;
        Features { packed, areas, doorways }
    }

    /// Boxes on this side's targets once child `c`'s move is made.
    fn child_packed(&self, c: &Child) -> u16 {
        let target = |x: Cell| self.is_target[x as usize] as u16;
        c.packed + target(c.to) - target(c.from)
    }

    fn packed(&self, boxes: &[Cell]) -> u16 {
        boxes.iter().filter(|&&b| self.is_target[b as usize]).count() as u16
    }

    /// Add a root (a box layout and any cell of the player's area). Returns the node, or
    /// `None` if it is already stored, a deadlock, or there is no room.
    pub fn add_root(&mut self, boxes: &[Cell], player: Cell) -> Option<u32> {
        self.pos.boxes.clear();
        self.pos.boxes.extend_from_slice(boxes);
        self.pos.set_occupied(true);
        let norm = self.pos.reach.fill(self.cx.board, &self.pos.occupied, player);
        let h = self.bound.of_parent(&self.pos.boxes, NO_PARENT, NO_PARENT);
        let packed = self.packed(boxes);
        let features = self.features(packed);
        let occ = &self.pos.occupied;
        let progress = |p: &Plan| p.progress(self.cx.board.n, boxes, |c| occ[c as usize]);
        let own = self.plan.map_or((0, 0), progress);
        let (filled, by_plan) = self.others.iter().map(|(p, _)| progress(p)).fold(own, Plan::further);
        let features = if self.plan.is_some() { Features { packed: filled as u16, ..features } } else { features };
        self.pos.set_occupied(false);
        if h >= IMPOSSIBLE {
            return None;
        }
        self.pos.key.clear();
        self.pos.key.extend_from_slice(boxes);
        self.pos.key.push(norm);
        let hash = self.cx.zobrist.of_key(&self.pos.key);
        match self.table.probe(&self.pos.key, hash) {
            Probe::Found(_) => None,
            Probe::Vacant(slot) => {
                let push = Push::step(NONE, 0, NONE);
                let node = self.table.insert_at(slot, &self.pos.key, hash, NO_PARENT, push, 0)?;
                let priority = self.priority_of(h, 0, packed) + by_plan;
                let cell_priority = self.advice.cell_priority(node, priority, 0);
                self.open.push(features, priority, cell_priority, node);
                Some(node)
            }
        }
    }

    /// Roots of a backward search: boxes on every goal, the player in each area next to a
    /// box (he stands beside the box he pushed last).
    pub fn add_solved_roots(&mut self) {
        let goals = self.cx.board.goals.clone();
        let mut seen = vec![false; self.cx.board.n];
        for &g in &goals {
            self.pos.occupied[g as usize] = true;
        }
        for c in 0..self.cx.board.n as Cell {
            if self.pos.occupied[c as usize] || seen[c as usize] {
                continue;
            }
            self.pos.reach.fill(self.cx.board, &self.pos.occupied, c);
            let mut touches_box = false;
            for x in 0..self.cx.board.n as Cell {
                if self.pos.reach.reached(x) {
                    seen[x as usize] = true;
                    touches_box |=
                        self.cx.board.nbr[x as usize].iter().any(|&t| t != NONE && self.pos.occupied[t as usize]);
                }
            }
            if touches_box {
                for &g in &goals {
                    self.pos.occupied[g as usize] = false;
                }
                self.add_root(&goals, c);
                for &g in &goals {
                    self.pos.occupied[g as usize] = true;
                }
            }
        }
        for &g in &goals {
            self.pos.occupied[g as usize] = false;
        }
    }

    pub(crate) fn finish_stats(&mut self) {
        self.stats.stored = self.table.len();
        self.pruners.count(&mut self.stats);
    }
}

/// How one side ranks its open list: the order, and the weight of each box off its
/// targets added to the rank (0: the bound alone).
pub type Ranking = (Priority, i32);

#[cfg(test)]
mod tests {
    use super::advice::RANK_BANDS;
    use super::runs::leads_to;
    use super::*;

    /// The context of the level a map text describes. Its parts are leaked: a test's few
    /// small levels live until the process ends anyway.
    fn context(text: &str) -> Context<'static> {
        let board: &Board = Box::leak(Box::new(Board::from_text(text)));
        let zobrist = Box::leak(Box::new(Zobrist::new(board.n)));
        let packing = Box::leak(Box::new(Packing::analyse(board)));
        Context { board, zobrist, packing }
    }

    /// A side's table, its cost rows and its recalled matchings together stay within the
    /// memory it is given.
    #[test]
    fn cost_rows_are_paid_from_the_sides_memory() {
        let cx = context(MICROBAN_126);
        let board = cx.board;
        let nodes = 1000;
        let node_bytes = Table::bytes_per_node(board.start_boxes.len() + 1);
        let rows_bytes = board.n * board.start_boxes.len() * std::mem::size_of::<i32>();
        let memory = rows_bytes + nodes * node_bytes;
        let ranking = (Priority::Greedy, 0);
        let side = Side::new(cx, Direction::Forward, ranking, Switches::default(), memory);
        assert_eq!(side.bound.rows_bytes(), rows_bytes);
        let recalled = side.bound.recalled_bytes();
        assert!(recalled > 0 && recalled <= memory / 16, "{recalled}");
        let spent = rows_bytes + recalled + side.table.capacity() * node_bytes;
        assert!(spent <= memory && memory - spent < node_bytes, "{spent} of {memory}");
    }

    /// Expand the start position once; returns the box layouts stored.
    fn layouts_after_one_expansion(text: &str, switches: Switches) -> (&'static Board, Vec<Vec<Cell>>) {
        let cx = context(text);
        let board = cx.board;
        let ranking = (Priority::Greedy, 0);
        let mut side = Side::new(cx, Direction::Forward, ranking, switches, 1 << 20);
        let other = Table::with_budget(board.start_boxes.len() + 1, 1 << 16);
        side.add_root(&board.start_boxes, board.start_player).unwrap();
        side.expand(&other, &Budget::nodes(10, 1 << 20));
        let nb = board.start_boxes.len();
        let layouts = (0..side.table.len() as u32).map(|i| side.table.key(i)[..nb].to_vec()).collect();
        (board, layouts)
    }

    #[test]
    fn the_forward_side_counts_the_boxes_in_doorways_as_they_move() {
        // The corridor (4,2) joins two rooms; so do its mouths (3,2) and (5,2).
        let map = "#########\n#@  #  .#\n# $ $ $ #\n#.  # . #\n#########\n";
        let cx = context(map);
        let board = cx.board;
        let ranking = (Priority::Features, 0);
        let at = |x, y| board.cell_at(x, y);
        let boxes = [at(3, 2), at(6, 2)];
        let mut side = Side::new(cx, Direction::Forward, ranking, Switches::default(), 1 << 20);
        assert_eq!(side.advice.doorways(&boxes), 1);
        side.advice.parent_doorways = side.advice.doorways(&boxes);
        let child = |slot: usize, from: Cell, to: Cell, d: u8| Child {
            node: 0,
            slot,
            from,
            to,
            player: from,
            push: Push::step(from, d, to),
            depth: 1,
            box_hash: 0,
            packed: 0,
            whole_move: false,
        };
        assert_eq!(side.advice.child_doorways(&child(0, at(3, 2), at(2, 2), 2)), 0, "out of the mouth into a room");
        assert_eq!(side.advice.child_doorways(&child(1, at(6, 2), at(5, 2), 2)), 2, "into the other mouth");
        assert_eq!(side.advice.child_doorways(&child(1, at(6, 2), at(6, 3), 1)), 1, "about a room");
        let switches = Switches::default();
        let backward = Side::new(cx, Direction::Backward, ranking, switches, 1 << 20);
        assert_eq!(backward.advice.doorways(&boxes), 0);
    }

    #[test]
    fn a_box_with_a_clear_way_to_its_room_goes_there_in_one_child() {
        // The box needs four pushes right; one expansion stores it on the goal only with
        // the macro, as one child beside the plain one-step pushes.
        let text = "#########\n#@      #\n#  $   .#\n#       #\n#########\n";
        let macros = |packing_macro| Switches { packing_macro, ..Switches::default() };
        let (board, with) = layouts_after_one_expansion(text, macros(true));
        assert!(with.contains(&board.goals.clone()), "{:?}", with);
        assert!(with.contains(&vec![board.cell_at(4, 2)]));
        let (board, without) = layouts_after_one_expansion(text, macros(false));
        assert!(!without.contains(&board.goals.clone()));
        assert_eq!(with.len(), without.len() + 1);
    }

    #[test]
    fn a_push_no_advisor_suggests_weighs_one_more_than_its_parent() {
        let map = "#######\n#     #\n#     #\n#@$.  #\n#     #\n#     #\n#######\n";
        let cx = context(map);
        let board = cx.board;
        let switches = Switches { advisor_weights: true, packing_macro: false, ..Switches::default() };
        let ranking = (Priority::Alternation, 0);
        let mut side = Side::new(cx, Direction::Forward, ranking, switches, 1 << 20);
        let other = Table::with_budget(2, 1 << 16);
        let root = side.add_root(&board.start_boxes, board.start_player).unwrap();
        side.expand(&other, &Budget::nodes(10, 1 << 20));
        let goal = board.goals[0];
        let children: Vec<(Cell, u16)> = (0..side.table.len() as u32)
            .filter(|&i| i != root)
            .map(|i| (side.table.key(i)[0], side.advice.weights[i as usize]))
            .collect();
        // Up, down and right: only the push onto the goal is the packing advisor's.
        assert_eq!(children.len(), 3, "{:?}", children);
        for (b, w) in children {
            assert_eq!(w, (b != goal) as u16, "box on {}", b);
        }
    }

    /// A forward side in feature cells, its start and then its best nodes expanded six
    /// times in all.
    fn expanded_six_times<'a>(cx: Context<'a>, switches: Switches) -> Side<'a> {
        let ranking = (Priority::Features, 0);
        let mut side = Side::new(cx, Direction::Forward, ranking, switches, 1 << 20);
        let board = cx.board;
        let other = Table::with_budget(board.start_boxes.len() + 1, 1 << 16);
        side.add_root(&board.start_boxes, board.start_player).unwrap();
        for _ in 0..6 {
            side.expand(&other, &Budget::nodes(100, 1 << 20));
        }
        side
    }

    /// With `dive`, an expansion whose best child ranks better than the expanded node is
    /// followed by that child's, though the child waits in the open list too; no node is
    /// expanded twice.
    #[test]
    fn a_dive_expands_a_better_ranked_child_next_and_no_node_twice() {
        let cx = context(MICROBAN_126);
        let board = cx.board;
        let switches = Switches { dive: true, ..Switches::default() };
        let mut side = Side::new(cx, Direction::Forward, (Priority::Features, 0), switches, 1 << 22);
        let other = Table::with_budget(board.start_boxes.len() + 1, 1 << 16);
        side.add_root(&board.start_boxes, board.start_player).unwrap();
        let (mut dives, mut steps) = (0, 0);
        let rank = |side: &Side, i: usize| side.dive_rank.get(i).copied().unwrap_or(UNRANKED);
        while steps < 300 {
            let before: Vec<u32> = (0..side.table.len()).map(|i| rank(&side, i)).collect();
            let next = side.dive_next;
            if !matches!(side.expand(&other, &Budget::nodes(1000, 1 << 22)), Step::Expanded) {
                break;
            }
            steps += 1;
            let newly: Vec<usize> =
                (0..before.len()).filter(|&i| before[i] != EXPANDED && rank(&side, i) == EXPANDED).collect();
            assert_eq!(newly.len(), 1, "one node expanded, once");
            let node = newly[0];
            if let Some(c) = next {
                assert_eq!(node, c as usize, "the dive's child comes first");
            }
            if let Some(c) = side.dive_next {
                dives += 1;
                assert_eq!(side.table.parent(c) as usize, node);
                assert!(rank(&side, c as usize) < before[node]);
                let siblings = (0..side.table.len() as u32).filter(|&i| side.table.parent(i) as usize == node);
                assert!(siblings.filter(|&i| i != c).all(|i| rank(&side, i as usize) >= rank(&side, c as usize)));
            }
        }
        assert_eq!(side.stats.expanded, steps as u64);
        assert!(dives > 0 && dives < steps, "{dives} dives in {steps} expansions");
    }

    /// Boxes on goals and floor areas of a layout, counted afresh.
    fn packed_and_areas(board: &Board, reach: &mut Reach, boxes: &[Cell]) -> (usize, u16) {
        let mut occupied = vec![false; board.n];
        boxes.iter().for_each(|&b| occupied[b as usize] = true);
        let packed = boxes.iter().filter(|&&b| board.is_goal[b as usize]).count();
        (packed, reach.count_areas(board, &occupied))
    }

    #[test]
    fn with_box_move_weights_only_a_push_of_another_box_weighs_one_more() {
        let text = "#########\n#.      #\n#       #\n#  $    #\n#   @   #\n#    $  #\n#      .#\n#########\n";
        let cx = context(text);
        let board = cx.board;
        let switches =
            Switches { advisor_weights: true, box_move_weights: true, packing_macro: false, ..Switches::default() };
        let side = expanded_six_times(cx, switches);
        let mut reach = Reach::new(board.n);
        let mut layout = |i: u32| packed_and_areas(board, &mut reach, &side.table.key(i)[..2]);
        let (mut same, mut other_box) = (0, 0);
        for i in 1..side.table.len() as u32 {
            let p = side.table.parent(i);
            let ((packed, areas), (parent_packed, parent_areas)) = (layout(i), layout(p));
            let advised = packed > parent_packed || areas < parent_areas;
            let same_box = side.table.push_of(i).from == side.table.push_of(p).to;
            same += same_box as u32;
            other_box += !same_box as u32;
            let expected = side.advice.weights[p as usize] + !(advised || same_box) as u16;
            assert_eq!(side.advice.weights[i as usize], expected, "node {}", i);
        }
        assert!(same > 0 && other_box > 0, "{} {}", same, other_box);
    }

    #[test]
    fn with_hotspot_weights_a_push_that_unblocks_a_box_is_free() {
        // The box at the corridor's end is in the way of the one on the left; the player
        // walks round by the top, where no box can go.
        let text = "###########\n#         #\n# ####### #\n#   ###   #\n# $    $. #\n#   ### @.#\n###########\n";
        let cx = context(text);
        let board = cx.board;
        let spots = &cx.packing.hotspots;
        assert_eq!(spots.pairs(&board.start_boxes), 1);
        let switches =
            Switches { advisor_weights: true, hotspot_weights: true, packing_macro: false, ..Switches::default() };
        let side = expanded_six_times(cx, switches);
        let mut reach = Reach::new(board.n);
        let mut layout = |i: u32| {
            let boxes = &side.table.key(i)[..2];
            let (packed, areas) = packed_and_areas(board, &mut reach, boxes);
            (packed, areas, spots.pairs(boxes))
        };
        let mut unblocked_only = 0;
        for i in 1..side.table.len() as u32 {
            let p = side.table.parent(i);
            let ((packed, areas, pairs), (parent_packed, parent_areas, parent_pairs)) = (layout(i), layout(p));
            let advised = packed > parent_packed || areas < parent_areas;
            let unblocks = pairs < parent_pairs;
            unblocked_only += (unblocks && !advised) as u32;
            let expected = side.advice.weights[p as usize] + !(advised || unblocks) as u16;
            assert_eq!(side.advice.weights[i as usize], expected, "node {}", i);
        }
        assert!(unblocked_only > 0);
    }

    #[test]
    fn weighted_cells_rank_by_weight_then_by_rank_band() {
        let map = "#######\n#     #\n#     #\n#@$.  #\n#     #\n#     #\n#######\n";
        let cx = context(map);
        let board = cx.board;
        let switches = Switches { advisor_weights: true, ..Switches::default() };
        let ranking = (Priority::Alternation, 0);
        let mut side = Side::new(cx, Direction::Forward, ranking, switches, 1 << 20);
        side.add_root(&board.start_boxes, board.start_player).unwrap();
        assert_eq!(side.advice.root_rank, 1); // the root's bound: one push
                                              // With a root rank of 31 the bands are two ranks wide.
        side.advice.root_rank = 31;
        let (near, far) = (side.advice.cell_priority(1, 3, 1), side.advice.cell_priority(2, 20, 1));
        assert!(near < far);
        assert_eq!(side.advice.cell_priority(3, 2, 1), near);
        assert!(far < side.advice.cell_priority(4, 0, 2));
        // Far beyond the root's rank, the last band of its weight.
        assert_eq!(side.advice.cell_priority(5, 500, 1), 2 * RANK_BANDS - 1);
    }

    #[test]
    fn only_a_box_the_player_can_push_now_tries_the_macro() {
        let cx = context("#######\n#@    #\n# $$  #\n#     #\n#   ..#\n#######\n");
        let board = cx.board;
        let ranking = (Priority::Greedy, 0);
        // A made-up layout, set by hand: only `occupied` and the player's area matter.
        let mut side = Side::new(cx, Direction::Forward, ranking, Switches::default(), 1 << 20);
        let centre = board.cell_at(3, 2);
        // Boxes left, right and below the centre one: it can only go up, from below.
        for c in [centre, board.cell_at(2, 2), board.cell_at(4, 2), board.cell_at(3, 3)] {
            side.pos.occupied[c as usize] = true;
        }
        side.pos.reach.fill(board, &side.pos.occupied, board.start_player);
        assert!(!side.pos.can_push_now(board, centre));
        // The right-hand box can go down, the player standing above it.
        assert!(side.pos.can_push_now(board, board.cell_at(4, 2)));
    }

    #[test]
    fn each_box_off_target_adds_the_weight_to_the_rank() {
        let cx = context("#######\n#@$ $.#\n#   . #\n#######\n");
        let side = |ranking| Side::new(cx, Direction::Backward, ranking, Switches::default(), 1 << 20);
        let plain = side((Priority::Greedy, 0));
        assert_eq!(plain.priority_of(7, 3, 0), 7);
        let weighted = side((Priority::Greedy, 3));
        // Two boxes: none on target adds 6, one adds 3, both add nothing.
        assert_eq!(weighted.priority_of(7, 3, 0), 13);
        assert_eq!(weighted.priority_of(7, 3, 1), 10);
        assert_eq!(weighted.priority_of(7, 3, 2), 7);
        // A* adds the depth on top.
        assert_eq!(side((Priority::AStar, 3)).priority_of(7, 3, 1), 13);
    }

    /// Microban 126: seven boxes in a row below seven goals, a few hundred expansions.
    const MICROBAN_126: &str =
        " ###########\n##.......  #\n# $$$$$$$@ #\n#   # # # ##\n# # #     #\n#   #######\n#####\n";

    /// A backward side carried from one run into the next goes on where it stopped: it
    /// holds the same nodes, in the same order, as one backward search of the runs'
    /// expansions together.
    #[test]
    fn a_backward_side_carried_on_searches_as_one_long_search() {
        let cx = context(MICROBAN_126);
        let board = cx.board;
        let (mode, switches) = (Mode::Bidirectional, Switches::default());
        let ranking = (Priority::Alternation, 0);
        let memory = 1 << 22;
        let mut carried = backward_side(cx, mode, ranking, switches, memory);
        let mut expanded = 0;
        let lessons = &mut Lessons::new(board);
        for _ in 0..3 {
            let budget = Budget::nodes(50, memory);
            let sides = Backward::one(&mut carried);
            let run = run(cx, mode, ranking, sides, lessons, switches, &budget, &[]);
            assert!(matches!(run.outcome, Outcome::OutOfTime), "solved within a run: the test proves nothing");
            assert!(run.backward_expanded > 0);
            expanded += run.backward_expanded;
        }
        assert_eq!(carried.stats.expanded, expanded);
        let mut alone = backward_side(cx, mode, ranking, switches, memory);
        let other = Table::with_budget(board.start_boxes.len() + 1, 1 << 16);
        for _ in 0..expanded {
            assert!(matches!(alone.expand(&other, &Budget::nodes(u64::MAX, memory)), Step::Expanded));
        }
        assert_eq!(alone.table.len(), carried.table.len());
        for i in 0..alone.table.len() as u32 {
            assert_eq!(alone.table.key(i), carried.table.key(i), "node {}", i);
        }
    }

    /// Microban 126 with `switches`: `nodes` expansions, then a run on to a plan that
    /// replays, with a second backward side or without. Returns the first run's
    /// expansions: forward, backward in all, and the shared side's.
    fn turns_on_microban_126(switches: Switches, nodes: u64, with_second: bool) -> (u64, u64, u64) {
        let level = crate::level::Level::parse(MICROBAN_126).unwrap();
        let cx = context(MICROBAN_126);
        let board = cx.board;
        let mode = Mode::Bidirectional;
        let ranking = (Priority::Alternation, 0);
        let memory = 1 << 22;
        let lessons = &mut Lessons::new(board);
        let mut bwd = backward_side(cx, mode, ranking, switches, memory);
        let second_side = || second_backward_side(cx, ranking, switches, memory);
        let mut second = with_second.then(second_side);
        let budget = Budget::nodes(nodes, memory);
        let sides = Backward { shared: &mut bwd, second: second.as_mut() };
        let first = run(cx, mode, ranking, sides, lessons, switches, &budget, &[]);
        assert!(matches!(first.outcome, Outcome::OutOfTime), "solved at once: the test proves nothing");
        let counts = (first.forward.expanded, first.backward_expanded, bwd.stats.expanded);
        let stored = bwd.table.len();
        let budget = Budget::nodes(100_000, memory);
        let sides = Backward { shared: &mut bwd, second: second.as_mut() };
        let last = run(cx, mode, ranking, sides, lessons, switches, &budget, &[]);
        assert!(bwd.table.len() >= stored);
        let pushes = match last.outcome {
            Outcome::Solved(p) => p,
            other => panic!("{:?}", other),
        };
        let moves = crate::solution::assemble(board, cx.packing, &pushes).unwrap();
        crate::solution::replay(&level, &moves).unwrap();
        counts
    }

    /// With `forward_turns` the backward side expands once per that many forward
    /// expansions, and keeps what it stored: the forward side still meets it.
    #[test]
    fn the_backward_side_takes_one_turn_in_forward_turns() {
        let switches = Switches { forward_turns: 8, ..Switches::default() };
        assert_eq!(turns_on_microban_126(switches, 90, false), (80, 10, 10));
    }

    /// With `backward_turns` the backward side expands that many times in each turn.
    #[test]
    fn the_backward_side_expands_backward_turns_times_in_its_turn() {
        let switches = Switches { backward_turns: 3, ..Switches::default() };
        assert_eq!(turns_on_microban_126(switches, 40, false), (10, 30, 30));
    }

    /// A second backward side takes every third backward turn, and a run with it still
    /// finds a plan that replays.
    #[test]
    fn a_second_backward_side_takes_one_backward_turn_in_three() {
        let switches = Switches { forward_turns: 8, ..Switches::default() };
        assert_eq!(turns_on_microban_126(switches, 90, true), (80, 10, 7));
    }

    /// A forward child stored only in the second backward side's table meets it there.
    #[test]
    fn a_forward_child_meets_the_second_backward_table() {
        let cx = context("#####\n#@$.#\n#####\n");
        let board = cx.board;
        let ranking = (Priority::Alternation, 0);
        let (switches, memory) = (Switches::default(), 1 << 20);
        let empty = Side::new(cx, Direction::Backward, ranking, switches, memory);
        let second = second_backward_side(cx, ranking, switches, memory);
        let mut fwd = Side::new(cx, Direction::Forward, ranking, switches, memory);
        fwd.add_root(&board.start_boxes, board.start_player);
        let other = Opposite { table: &empty.table, second: Some(&second.table) };
        let step = fwd.expand_against(other, &Budget::nodes(10, memory));
        assert!(matches!(step, Step::Met { second: true, .. }), "{:?}", step);
    }

    /// With parent cells, a pull that improves no feature (it cuts the floor in two)
    /// waits in its parent's cell; without, it opens a cell of its own. (Single pulls
    /// only: a whole pull would take the box further.)
    #[test]
    fn a_backward_child_that_improves_nothing_waits_in_its_parents_cell() {
        let cx = context("#######\n#@ $ .#\n#######\n");
        let board = cx.board;
        let ranking = (Priority::Features, 0);
        let memory = 1 << 20;
        let cells = |parent_cells: bool| {
            let switches = Switches { parent_cells, whole_pulls: false, ..Switches::default() };
            let mut side = Side::new(cx, Direction::Backward, ranking, switches, memory);
            side.add_solved_roots();
            let empty = Table::with_budget(board.start_boxes.len() + 1, 1 << 16);
            side.expand(&empty, &Budget::nodes(10, memory));
            assert_eq!(side.table.len(), 2, "one root and its one pull");
            side.open.cells()
        };
        assert_eq!((cells(false), cells(true)), (2, 1));
    }

    /// Going forward by whole box moves alone, each box goes round a pillar to its goal in
    /// one move, and the plan's moves unfold into pushes that replay.
    #[test]
    fn whole_box_moves_alone_solve_a_level_whose_plan_replays() {
        let text = "#########\n#@      #\n# $   $ #\n#   #   #\n#.  #  .#\n#########\n";
        let level = crate::level::Level::parse(text).unwrap();
        let cx = context(text);
        let board = cx.board;
        let mode = Mode::Forward;
        let switches = Switches { whole_box_moves: true, packing_macro: false, ..Switches::default() };
        let ranking = (Priority::Greedy, 0);
        let memory = 1 << 22;
        let lessons = &mut Lessons::new(board);
        let mut bwd = backward_side(cx, mode, ranking, switches, memory);
        let budget = Budget::nodes(100, memory);
        let sides = Backward::one(&mut bwd);
        let run = run(cx, mode, ranking, sides, lessons, switches, &budget, &[]);
        let plan = match run.outcome {
            Outcome::Solved(p) => p,
            other => panic!("{:?}", other),
        };
        let moves = crate::solution::assemble(board, cx.packing, &plan).unwrap();
        crate::solution::replay(&level, &moves).unwrap();
        let pushes = moves.iter().filter(|m| m.push).count();
        assert!(plan.iter().any(|p| p.via == Via::Path), "no box moved more than one push");
        assert_eq!(plan.len(), 2, "{} moves for {} pushes", plan.len(), pushes);
    }

    /// Backward alone, the whole pulls take each box from its goal to a start cell in one
    /// move (the single pulls stay), and the plan's moves unfold into pushes that replay.
    #[test]
    fn whole_pulls_take_boxes_back_to_their_starts_in_one_move() {
        let text = "#########\n#@      #\n# $   $ #\n#   #   #\n#.  #  .#\n#########\n";
        let level = crate::level::Level::parse(text).unwrap();
        let cx = context(text);
        let mode = Mode::Backward;
        let ranking = (Priority::Greedy, 0);
        let memory = 1 << 22;
        let solve = |whole_pulls: bool| {
            let switches = Switches { whole_pulls, ..Switches::default() };
            let mut bwd = backward_side(cx, mode, ranking, switches, memory);
            let budget = Budget::nodes(1000, memory);
            let run =
                run(cx, mode, ranking, Backward::one(&mut bwd), &mut Lessons::new(cx.board), switches, &budget, &[]);
            match run.outcome {
                Outcome::Solved(p) => (p, bwd.stats.expanded),
                other => panic!("{:?}", other),
            }
        };
        let (plan, expanded) = solve(true);
        let moves = crate::solution::assemble(cx.board, cx.packing, &plan).unwrap();
        crate::solution::replay(&level, &moves).unwrap();
        assert!(plan.iter().any(|p| p.via == Via::Back), "no box pulled more than one step");
        let (_, single) = solve(false);
        assert!(expanded < single, "{expanded} expansions with whole pulls, {single} without");
    }

    /// A run by whole box moves ends once its forward side has nothing left to expand,
    /// leaving the work to the next phase, instead of going on backward alone.
    #[test]
    fn a_run_by_whole_box_moves_ends_when_its_forward_side_runs_out() {
        // xsokoban 41: the player starts in a corral of three boxes whose whole moves all
        // end dead, yet the level is solvable.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/xsokoban90/xsokoban41.txt");
        let cx = context(&std::fs::read_to_string(path).unwrap());
        let mode = Mode::Bidirectional;
        let memory = 1 << 24;
        let outcome = |whole_box_moves: bool| {
            let switches = Switches { whole_box_moves, packing_macro: false, strict_rooms: false, ..Switches::DEFAULT };
            let lessons = &mut Lessons::new(cx.board);
            let mut bwd = backward_side(cx, mode, (Priority::Alternation, 1), switches, memory);
            let sides = Backward::one(&mut bwd);
            let budget = Budget::nodes(20_000, memory);
            let run = run(cx, mode, (Priority::Alternation, 0), sides, lessons, switches, &budget, &[]);
            (run.outcome, run.forward.expanded + run.backward_expanded)
        };
        let (by_moves, work) = outcome(true);
        assert!(matches!(by_moves, Outcome::Exhausted) && work < 1000, "{by_moves:?} after {work}");
        // Single pushes do not run out: the corral's boxes go one push at a time.
        let (by_pushes, _) = outcome(false);
        assert!(matches!(by_pushes, Outcome::OutOfTime), "{by_pushes:?}");
    }

    /// Under the packing plan a whole box move goes onto a target of the phase being
    /// filled, never onto a goal of a later phase (until the plan stalls), and onto any cell
    /// off the goals; the plain whole box moves park a box on at most `PARKING_CELLS` cells.
    #[test]
    fn whole_box_moves_under_a_plan_go_to_its_targets_and_anywhere_off_the_goals() {
        // The pocket's deeper goal is the plan's first phase.
        let text = "#########\n#@      #\n#       #\n#  $$   #\n#       #\n####.####\n####.####\n#########\n";
        let cx = context(text);
        let board = cx.board;
        let at = |x, y| board.cell_at(x, y);
        let plan = cx.packing.plan.as_ref().expect("a plan");
        assert_eq!(plan.cells[..plan.ends[0]], [at(4, 6)]);
        let switches = Switches { whole_box_moves: true, packing_macro: false, ..Switches::default() };
        let layouts = |priority: Priority| {
            let mut side = Side::new(cx, Direction::Forward, (priority, 0), switches, 1 << 20);
            let other = Table::with_budget(board.start_boxes.len() + 1, 1 << 16);
            side.add_root(&board.start_boxes, board.start_player).unwrap();
            side.expand(&other, &Budget::nodes(1, 1 << 20));
            (1..side.table.len() as u32).map(|i| side.table.key(i)[..2].to_vec()).collect::<Vec<_>>()
        };
        let off_goals = |layouts: &[Vec<Cell>], stays: Cell| {
            let moved = layouts.iter().filter(|l| l.contains(&stays)).flat_map(|l| l.iter().filter(|&&b| b != stays));
            moved.filter(|&&b| !board.is_goal[b as usize]).count()
        };
        let planned = layouts(Priority::Plan);
        assert!(planned.iter().any(|l| l.contains(&at(4, 6))), "onto the first phase's goal");
        assert!(!planned.iter().any(|l| l.contains(&at(4, 5))), "onto the later phase's goal");
        assert!(off_goals(&planned, at(4, 3)) > 4, "{:?}", planned);
        let plain = layouts(Priority::Greedy);
        assert!(off_goals(&plain, at(4, 3)) <= movegen::PARKING_CELLS, "{:?}", plain);
    }

    /// Once no child has filled more of the plan in order for `STALLED` expansions, whole
    /// box moves under the plan go onto its later phases' goals too.
    #[test]
    fn whole_box_moves_under_a_stalled_plan_go_onto_later_goals_too() {
        let text = "#########\n#@      #\n#       #\n#  $$   #\n#       #\n####.####\n####.####\n#########\n";
        let cx = context(text);
        let board = cx.board;
        let later = board.cell_at(4, 5);
        let switches = Switches { whole_box_moves: true, packing_macro: false, ..Switches::default() };
        let onto_later = |expanded: u64| {
            let mut side = Side::new(cx, Direction::Forward, (Priority::Plan, 0), switches, 1 << 20);
            let other = Table::with_budget(board.start_boxes.len() + 1, 1 << 16);
            side.add_root(&board.start_boxes, board.start_player).unwrap();
            side.stats.expanded = expanded;
            side.expand(&other, &Budget::nodes(u64::MAX, 1 << 20));
            (1..side.table.len() as u32).filter(|&i| side.table.key(i)[..2].contains(&later)).count()
        };
        assert_eq!(onto_later(movegen::STALLED - 1), 0, "onto the later phase's goal before the stall");
        assert!(onto_later(movegen::STALLED + 1) > 0, "not onto the later phase's goal after it");
    }

    /// With the other plans, a whole box move may go onto a goal that another plan fills
    /// now, though the phase's own plan fills it later.
    #[test]
    fn whole_box_moves_with_other_plans_go_to_their_targets_too() {
        // Two goals wall two areas off: the last plan parks a box first, the first does not.
        let text = "###########\n#    #    #\n# $  .  $ #\n#    .    #\n#@   #    #\n###########\n";
        let cx = context(text);
        let board = cx.board;
        let own = cx.packing.plan_for(board, PlanChoice::Last).unwrap();
        let others = cx.packing.plans_besides(board, PlanChoice::Last);
        let first_phase = |p: &Plan| p.cells[..p.ends[0]].to_vec();
        let only_others: Vec<Cell> = others
            .iter()
            .flat_map(|&p| first_phase(p))
            .filter(|&c| board.is_goal[c as usize] && !first_phase(own).contains(&c))
            .collect();
        assert!(!only_others.is_empty(), "the other plan fills another goal first");
        let onto = |other_plans: bool| {
            let switches = Switches {
                whole_box_moves: true,
                packing_macro: false,
                plan: PlanChoice::Last,
                other_plans,
                ..Switches::default()
            };
            let mut side = Side::new(cx, Direction::Forward, (Priority::Plan, 0), switches, 1 << 20);
            let other = Table::with_budget(board.start_boxes.len() + 1, 1 << 16);
            side.add_root(&board.start_boxes, board.start_player).unwrap();
            side.expand(&other, &Budget::nodes(1, 1 << 20));
            let n = board.start_boxes.len();
            (1..side.table.len() as u32).any(|i| side.table.key(i)[..n].iter().any(|b| only_others.contains(b)))
        };
        assert!(!onto(false), "the own plan alone keeps its later goals free");
        assert!(onto(true), "the other plan's goal is taken");
    }

    /// A run from waypoints starts where they stand, and its plan is the waypoint's pushes,
    /// then its own.
    #[test]
    fn a_run_from_waypoints_goes_on_from_them_and_its_plan_replays_from_the_start() {
        let text = "##########\n#@       #\n# $ $ $  #\n#        #\n#        #\n#  . . . #\n##########\n";
        let level = crate::level::Level::parse(text).unwrap();
        let cx = context(text);
        let board = cx.board;
        let switches = Switches { packing_macro: false, ..Switches::default() };
        let (mode, ranking, memory) = (Mode::Forward, (Priority::Greedy, 0), 1 << 22);
        let lessons = &mut Lessons::new(board);
        let mut bwd = backward_side(cx, mode, ranking, switches, memory);
        let budget = Budget::nodes(3, memory);
        let sides = Backward::one(&mut bwd);
        let short = run(cx, mode, ranking, sides, lessons, switches, &budget, &[]);
        assert!(matches!(short.outcome, Outcome::OutOfTime), "{:?}", short.outcome);
        assert_eq!(short.most_packed.len(), WAYPOINTS);
        for w in &short.most_packed {
            assert!(leads_to(&board.start_boxes, &w.pushes, &w.boxes), "a waypoint's pushes lead elsewhere");
        }
        let budget = Budget::nodes(100_000, memory);
        let from = &short.most_packed;
        let sides = Backward::one(&mut bwd);
        let on = run(cx, mode, ranking, sides, lessons, switches, &budget, from);
        let plan = match on.outcome {
            Outcome::Solved(p) => p,
            other => panic!("{:?}", other),
        };
        assert!(short.most_packed.iter().any(|w| plan.starts_with(&w.pushes)), "the plan starts at no waypoint");
        let moves = crate::solution::assemble(board, cx.packing, &plan).unwrap();
        crate::solution::replay(&level, &moves).unwrap();
    }

    #[test]
    fn a_run_from_a_dead_waypoint_proves_nothing() {
        // The box in the corner is stuck, but the level itself is solvable.
        let text = "######\n#@  .#\n# $  #\n#$  .#\n######\n";
        let cx = context(text);
        let board = cx.board;
        let (mode, switches, ranking, memory) = (Mode::Forward, Switches::default(), (Priority::Greedy, 0), 1 << 20);
        let lessons = &mut Lessons::new(board);
        let mut bwd = backward_side(cx, mode, ranking, switches, memory);
        let boxes = vec![board.cell_at(2, 2), board.cell_at(1, 3)];
        let stuck = Waypoint { boxes, player: board.start_player, pushes: vec![] };
        let budget = Budget::nodes(1000, memory);
        let sides = Backward::one(&mut bwd);
        let r = run(cx, mode, ranking, sides, lessons, switches, &budget, &[stuck]);
        assert!(matches!(r.outcome, Outcome::OutOfTime), "{:?}", r.outcome);
    }

    /// The verdicts of a run serve the next: it searches far fewer corrals and box sets
    /// itself, and finds the sets learned before (it then prunes other positions than the
    /// first run, so the two differ).
    #[test]
    fn a_run_handed_the_lessons_of_another_searches_fewer_corrals() {
        // XSokoban 44: boxes along a winding corridor make many small corrals.
        let map = concat!(
            " #####\n #   #\n # # #######\n #      $@######\n # $ ##$ ###   #\n # #### $    $ #\n",
            " # ##### #  #$ ####\n##  #### ##$      #\n#  $#  $  # ## ## #\n#         # #...# #\n",
            "######  ###  ...  #\n     #### # #...# #\n          # ### # #\n          #       #\n",
            "          #########\n"
        );
        let cx = context(map);
        let board = cx.board;
        let (mode, switches) = (Mode::Bidirectional, Switches::default());
        let ranking = (Priority::Alternation, 0);
        let memory = 1 << 24;
        let lessons = &mut Lessons::new(board);
        let mut once = || {
            let mut bwd = backward_side(cx, mode, ranking, switches, memory);
            let budget = Budget::nodes(4000, memory);
            run(cx, mode, ranking, Backward::one(&mut bwd), lessons, switches, &budget, &[])
        };
        let (first, second) = (once(), once());
        assert!(first.forward.corral_searches > 100, "too few corrals: the test proves nothing");
        assert!(first.forward.dead_sets_known > 0, "no box set learned: the test proves nothing");
        let (a, b) = (first.forward.corral_searches, second.forward.corral_searches);
        assert!(b * 2 < a, "corral searches: {a} in the first run, {b} in the second");
        assert!(second.forward.dead_set_searches < first.forward.dead_set_searches);
        assert!(second.forward.dead_sets > 0);
    }
}
