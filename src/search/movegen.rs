//! Move generation: the children of the node a side expands, single pushes (or pulls,
//! backward), tunnel and goal macros, packing macros and whole box moves, each checked
//! against the deadlock rules and stored by `emit`, which also looks for the other side.

use super::*;

/// Whole box moves (`Switches::whole_box_moves`) without a plan park a box on at most
/// this many cells off the goals, farthest first: more cells make more children that
/// lead nowhere, and solved fewer levels (docs/experiments/2026-11-22-whole-box-moves.md);
/// a plan's feature cells sort them out (2026-11-26-plan-by-whole-box-moves.md).
pub(super) const PARKING_CELLS: usize = 2;
/// Expansions without a child filling more of the plan in order, after which whole box
/// moves under a plan may end on any cell, goals of later phases too: the plan's next
/// step may need boxes moved among the goals first (a room's boxes that start on goals
/// shifted along before they go out to park).
pub(super) const STALLED: u64 = 50_000;

/// How many boxes, nearest first, try to reach a room's next goal in one move: more solved
/// no more levels, at more cost per expansion (docs/experiments/2026-11-21-packing-macros.md).
const PACKING_MACRO_BOXES: usize = 2;

/// Whole box moves load the table slots of this many children ahead of the one checked.
const PREFETCH_AHEAD: usize = 4;
/// How many ancestors of an expanded node count it in their subtrees, the count at which
/// a subtree is searched for dead box sets, and the positions such a search may visit:
/// the jams that stall the plan phases take searches of hundreds of positions to prove.
const SUBTREE_LEVELS: usize = 8;
const SUBTREE_TEST: u8 = 64;
const SET_SEARCH_LIMIT: usize = 2000;
/// All set searches together visit at most one position per this many expansions.
const LEARN_SHARE: u64 = 2;

/// The macros' setting and scratch.
pub(super) struct Macros {
    /// How many boxes nearest a room's next goal try the packing macro (0: off).
    packing_boxes: usize,
    /// (distance to the goal, slot) of the boxes that may try it.
    candidates: Vec<(u16, usize)>,
    /// For `whole_box_moves`: the cells a box can get to, with their pushes.
    reached: Vec<BoxMove>,
    box_path: BoxPath,
}

impl Macros {
    /// The macros of a side on `n` cells; `packing`: it tries packing macros (forward,
    /// `Switches::packing_macro`).
    pub fn new(n: usize, packing: bool) -> Macros {
        let packing_boxes = if packing && n <= PACKING_MACRO_MAX_CELLS { PACKING_MACRO_BOXES } else { 0 };
        Macros { packing_boxes, candidates: Vec::new(), reached: Vec::new(), box_path: BoxPath::new(n) }
    }
}

impl<'a> Side<'a> {
    /// Expand the best open node. `other` is the opposite side's table, for meeting.
    pub(crate) fn expand(&mut self, other: &Table, budget: &Budget) -> Step {
        self.expand_against(Opposite::one(other), budget)
    }

    /// `expand`, the children looked up in every table of `other`.
    pub(crate) fn expand_against(&mut self, other: Opposite, budget: &Budget) -> Step {
        if self.table.is_full() {
            self.overflowed = true;
            return Step::Full;
        }
        let dive = self.switches.dive;
        let node = loop {
            let Some(n) = self.dive_next.take().or_else(|| self.open.pop()) else {
                return Step::Exhausted;
            };
            if dive {
                let rank = std::mem::replace(self.dive_rank_of(n), EXPANDED);
                if rank == EXPANDED {
                    continue;
                }
                self.dive_best = (rank, NO_NODE);
            }
            break n;
        };
        self.stats.expanded += 1;
        let nb = self.nboxes;
        self.pos.boxes.clear();
        self.pos.boxes.extend_from_slice(&self.table.key(node)[..nb]);
        let player = self.table.key(node)[nb];
        let depth = self.table.depth(node).saturating_add(1);
        self.pos.set_occupied(true);
        // Every area is labelled for the children; the player's also fills `reach`.
        self.pos.areas.label_with_reach(self.cx.board, &self.pos.occupied, nb, player, &mut self.pos.reach);
        let forward = self.direction == Direction::Forward;
        if forward && self.switches.corral {
            self.learn_from_subtrees(node);
        }
        let restricted =
            match self.pruners.corral(&self.pos.occupied, &self.pos.boxes, &self.pos.reach, &self.pos.areas) {
                Corral::Deadlock => {
                    self.stats.dead_corral += 1;
                    self.pos.set_occupied(false);
                    return Step::Expanded;
                }
                Corral::Only => {
                    self.stats.corral_cuts += 1;
                    true
                }
                Corral::None => false,
            };
        if self.pruners.proved_dead(&self.pos.occupied, &self.pos.boxes, player, &mut self.stats) {
            self.pos.set_occupied(false);
            return Step::Expanded;
        }
        // Children re-solve only their moved box's row of the parent's matching.
        if self.switches.matching {
            self.bound.of_parent(&self.pos.boxes, node, self.table.parent(node));
        }
        let box_hash = self.cx.zobrist.of_boxes(&self.pos.boxes);
        let packed = self.packed(&self.pos.boxes);
        self.advice.expanding(node, &self.table, &self.pos.boxes);
        if let Some(plan) = self.plan {
            let occ = &self.pos.occupied;
            let filled = plan.remember_progress(&mut self.progress, &self.pos.boxes, |x| occ[x as usize]);
            self.parent_plan = (filled, self.stranded.get(node as usize).copied().unwrap_or(false));
            self.strands_ready = false;
            for (other, memo) in &mut self.others {
                other.remember_progress(memo, &self.pos.boxes, |x| occ[x as usize]);
            }
        }

        let strict = forward && self.switches.strict_rooms;
        let mut result = Step::Expanded;
        // Each whole move floods the floor once per (cell, side), like a packing macro.
        let small = self.cx.board.n <= PACKING_MACRO_MAX_CELLS;
        let mut single_pushes = !(forward && self.switches.whole_box_moves && small);
        let at = Expanding { node, depth, box_hash, packed, restricted };
        let whole = if forward { !single_pushes } else { self.switches.whole_pulls && small };
        if whole {
            if let Some(step) = self.whole_box_moves(at, other, budget) {
                result = step;
                single_pushes = false;
            }
        }
        if single_pushes {
            // The macros' paths and the children the area labels cannot tell share one
            // labelling of the layout's blocks.
            self.macros.box_path.new_layout(self.cx.board);
        }
        'boxes: for k in (0..nb).filter(|_| single_pushes) {
            // The children not made are lost to a side carried into the next phase.
            if self.out_of_time(budget) {
                self.incomplete = true;
                break;
            }
            let b = self.pos.boxes[k];
            if restricted && !self.pruners.corrals.allowed(b) {
                continue;
            }
            if strict && self.cx.packing.in_strict_room(b) {
                self.incomplete = true; // a box placed in an ordered room stays
                continue;
            }
            for d in 0..4 {
                let to = self.cx.board.step(b, d);
                if to == NONE || self.pos.occupied[to as usize] || self.pruners.dead[to as usize] {
                    continue;
                }
                // Where the player must stand, and where he ends up.
                let (stand, after) =
                    if forward { (self.cx.board.step(b, d ^ 1), b) } else { (to, self.cx.board.step(to, d)) };
                if stand == NONE || !self.pos.reach.reached(stand) {
                    continue;
                }
                if !forward && (after == NONE || self.pos.occupied[after as usize]) {
                    continue;
                }
                // Through a tunnel the box goes on until it leaves it (or meets a goal).
                let (to, after, via) = if forward && self.switches.tunnel_macro {
                    let (end, behind) = self.tunnel_end(b, to, d);
                    if end != to {
                        self.incomplete = true;
                        (end, behind, Via::Tunnel)
                    } else {
                        (to, after, Via::Step)
                    }
                } else {
                    (to, after, Via::Step)
                };
                let child_hash = box_hash ^ self.cx.zobrist.boxes[b as usize] ^ self.cx.zobrist.boxes[to as usize];
                self.prefetch_child(child_hash, other);
                if self.pruners.dead_child(&mut self.pos.occupied, &self.pos.boxes, b, to, after, &mut self.stats) {
                    continue;
                }
                let enters_room = strict && self.cx.packing.in_strict_room(to);
                // Stored in forward terms: backward, the pull to -> after is the push back.
                let push =
                    if forward { Push { via, ..Push::step(b, d as u8, to) } } else { Push::step(to, (d ^ 1) as u8, b) };
                let child = Child {
                    node,
                    slot: k,
                    from: b,
                    to,
                    player: after,
                    push,
                    depth,
                    box_hash,
                    packed,
                    whole_move: false,
                };
                let plain_allowed = !enters_room
                    || self.cx.packing.next_goal(self.cx.packing.room[to as usize], &self.pos.occupied) == Some(to);
                if plain_allowed {
                    if let Some(step) = self.emit(&child, other) {
                        result = step;
                        break 'boxes;
                    }
                } else {
                    self.incomplete = true;
                }
                if forward && (self.switches.goal_macro || enters_room) {
                    if let Some(step) = self.goal_macro(&child, other) {
                        result = step;
                        break 'boxes;
                    }
                }
            }
        }
        if forward && single_pushes && matches!(result, Step::Expanded) && self.macros.packing_boxes > 0 {
            if let Some(step) = self.packing_macros(at, other, budget) {
                result = step;
            }
        }
        self.pos.set_occupied(false);
        if dive && matches!(result, Step::Expanded) && self.dive_best.1 != NO_NODE {
            self.dive_next = Some(self.dive_best.1);
        }
        result
    }

    /// Packing macro (FESS's packing advisor): for each ordered room, the boxes nearest its
    /// next goal among those the player can push now try to go all the way there, the
    /// others standing still; each that can gives one extra child. Greedy takes such a
    /// child at once (its bound drops by the whole way), so a box goes home in one step
    /// instead of one push among many equal ones.
    fn packing_macros(&mut self, at: Expanding, other: Opposite, budget: &Budget) -> Option<Step> {
        for r in 0..self.cx.packing.order.len() {
            let goal = match self.cx.packing.next_goal(r as u16 + 1, &self.pos.occupied) {
                Some(g) => g,
                None => continue,
            };
            let to_goal = self.bound.distances_to(goal);
            self.macros.candidates.clear();
            for k in 0..self.nboxes {
                let b = self.pos.boxes[k];
                if self.is_target[b as usize] || (at.restricted && !self.pruners.corrals.allowed(b)) {
                    continue;
                }
                let d = to_goal[b as usize];
                if d != FAR && d > 1 && self.pos.can_push_now(self.cx.board, b) {
                    self.macros.candidates.push((d, k));
                }
            }
            self.macros.candidates.sort_unstable();
            for i in 0..self.macros.candidates.len().min(self.macros.packing_boxes) {
                // An attempt costs far more than a push; many rooms must not overrun.
                if budget.past_deadline() {
                    return None;
                }
                let (_, k) = self.macros.candidates[i];
                let b = self.pos.boxes[k];
                let first = self.pos.reach.behind(self.cx.board, b);
                self.pos.occupied[b as usize] = false;
                let path = self.macros.box_path.push_path_in_layout(self.cx.board, &self.pos.occupied, b, first, goal);
                self.pos.occupied[b as usize] = true;
                let path = match path {
                    Some(p) if p.len() > 1 => p,
                    _ => continue,
                };
                let (first, last) = (path[0], path[path.len() - 1]);
                self.stats.macros += 1;
                let child = at.moved(k, b, goal, first.dir, path.len(), last.from);
                if let Some(step) = self.emit(&child, other) {
                    return Some(step);
                }
            }
        }
        None
    }

    /// The children of `whole_box_moves`: each box the player can push now goes onto the
    /// next goal of any ordered room it can get to (onto any free goal of a room without
    /// an order), and to cells off the goals, the other boxes standing still. Under a
    /// packing plan, onto the targets of its current phase and any cell off the goals, and
    /// once the plan has stalled for `STALLED` expansions onto any cell.
    /// Backward (`whole_pulls`), each box the player can pull goes onto the free start
    /// cells it can get to and onto the cells off them farthest away.
    fn whole_box_moves(&mut self, at: Expanding, other: Opposite, budget: &Budget) -> Option<Step> {
        let forward = self.direction == Direction::Forward;
        // Forward, most single pushes are never tried; backward, they are tried too.
        self.incomplete |= forward;
        let mut reached = std::mem::take(&mut self.macros.reached);
        let mut result = None;
        let occupied = &self.pos.occupied;
        let plan = self.plan.map(|plan| (plan, plan.phase_targets(|x| occupied[x as usize])));
        let stalled = self.stats.expanded - self.best_filled.1 > STALLED;
        let others: Vec<_> = self.others.iter().map(|&(p, _)| (p, p.phase_targets(|x| occupied[x as usize]))).collect();
        let board = self.cx.board;
        self.macros.box_path.new_layout(board);
        'boxes: for k in 0..self.nboxes {
            let b = self.pos.boxes[k];
            if (at.restricted && !self.pruners.corrals.allowed(b))
                || (forward && self.switches.strict_rooms && self.cx.packing.in_strict_room(b))
                || (forward && !self.pos.can_push_now(board, b))
            {
                continue;
            }
            // On big maps the clock is read before a box's moves are made: most boxes have none.
            if self.out_of_time(budget) {
                break;
            }
            // The player's area, with every box in place, tells where he can make the first
            // move; the box is lifted off while its targets are chosen: its cell is free then.
            // A pull in direction d needs the player where a push in the other direction does.
            let behind = self.pos.reach.behind(board, b);
            let first = if forward { behind } else { std::array::from_fn(|d| behind[d ^ 1]) };
            self.pos.occupied[b as usize] = false;
            let (occupied, dead) = (&self.pos.occupied, self.pruners.dead);
            self.macros.box_path.reach_of_box(board, occupied, b, first, dead, !forward, &mut reached);
            reached.reverse(); // farthest first
            let (packing, occupied, is_goal) = (self.cx.packing, &self.pos.occupied, &board.is_goal);
            if !forward {
                // Onto a free start cell, or onto the cells off them farthest away.
                let mut parked = 0;
                reached.retain(|m| {
                    parked += !self.is_target[m.to as usize] as usize;
                    self.is_target[m.to as usize] || parked <= PARKING_CELLS
                });
            } else if let Some(own) = &plan {
                // Onto a target of the phase the plan is filling, or onto any cell off the
                // goals, as FESS moves boxes: the plan's feature cells sort out the parking.
                // With other plans, what any of them allows. Once the plan has stalled,
                // onto any cell.
                let allows = |(plan, phase): &(&Plan, std::ops::Range<usize>), to: Cell| match plan.target_at(to) {
                    Some(_) => plan.has_target_among(to, phase),
                    None => !is_goal[to as usize],
                };
                if !stalled {
                    reached.retain(|m| allows(own, m.to) || others.iter().any(|o| allows(o, m.to)));
                }
            } else {
                let mut parked = 0;
                reached.retain(|m| match packing.room[m.to as usize] {
                    0 => {
                        parked += 1;
                        parked <= PARKING_CELLS
                    }
                    room => {
                        packing.order[room as usize - 1].is_empty() || packing.next_goal(room, occupied) == Some(m.to)
                    }
                });
            }
            self.pos.occupied[b as usize] = true;
            // The table slots of the next few children load while this one is checked.
            let child_hash = |i: usize| {
                reached
                    .get(i)
                    .map(|m| at.box_hash ^ self.cx.zobrist.boxes[b as usize] ^ self.cx.zobrist.boxes[m.to as usize])
            };
            (0..PREFETCH_AHEAD).filter_map(child_hash).for_each(|h| self.prefetch_child(h, other));
            for (i, &m) in reached.iter().enumerate() {
                if let Some(h) = child_hash(i + PREFETCH_AHEAD) {
                    self.prefetch_child(h, other);
                }
                result = self.whole_box_move(at, k, m, other);
                if result.is_some() {
                    break 'boxes;
                }
            }
        }
        self.macros.reached = reached;
        result
    }

    /// Start loading the table slots, this side's and the other's, of a child whose box
    /// layout hashes to `box_hash`.
    fn prefetch_child(&self, box_hash: u64, other: Opposite) {
        self.table.prefetch(box_hash);
        other.prefetch(box_hash);
    }

    /// One child of `whole_box_moves`: the box in slot `k` moved as `m` says.
    fn whole_box_move(&mut self, at: Expanding, k: usize, m: BoxMove, other: Opposite) -> Option<Step> {
        let b = self.pos.boxes[k];
        self.stats.macros += 1;
        let mut child = Child { whole_move: true, ..at.moved(k, b, m.to, m.dir, m.pushes as usize, m.player) };
        if self.direction == Direction::Backward {
            // Stored in forward terms: pushed from where the pulls end to where they began,
            // the player left where the first pull found him.
            child.push = Push { from: m.to, dir: m.dir, via: Via::Back, to: b };
        }
        self.emit(&child, other)
    }

    /// Where a box pushed from `from` onto `to` (direction `d`) leaves a tunnel (or waits
    /// in front of a goal), and the cell the player then stands on. A tunnel cell is
    /// walled on both sides across the push, for the box and for the player behind it:
    /// nothing else can happen there.
    fn tunnel_end(&self, from: Cell, to: Cell, d: usize) -> (Cell, Cell) {
        let board = self.cx.board;
        let walled = |c: Cell| board.step(c, d ^ 2) == NONE && board.step(c, d ^ 3) == NONE;
        let (mut behind, mut at) = (from, to);
        while !board.is_goal[at as usize] && walled(behind) && walled(at) {
            let next = board.step(at, d);
            // Stop in front of a goal: the step onto it may start a goal macro.
            let blocked = next == NONE || self.pos.occupied[next as usize] || self.pruners.dead[next as usize];
            if blocked || board.is_goal[next as usize] {
                break;
            }
            behind = at;
            at = next;
        }
        (at, behind)
    }

    /// Store a child unless it is a duplicate or a matching deadlock; `Some` ends the
    /// expansion (the sides met, or the table is full).
    fn emit(&mut self, c: &Child, other: Opposite) -> Option<Step> {
        let nb = self.nboxes;
        // A whole box move's child is told by the layout's blocks, its box lifted (cheaper
        // than the parent's area labels); a push's mostly by those labels, else by the
        // blocks too where its areas are counted (each box lifted once per expansion).
        let labelled = (!c.whole_move)
            .then(|| self.pos.areas.child(self.cx.board, &self.pos.occupied, c.from, c.to, c.player))
            .flatten();
        let by_blocks = c.whole_move || (labelled.is_none() && self.open.wants_features());
        if by_blocks && !c.whole_move {
            self.pos.occupied[c.from as usize] = false;
            self.macros.box_path.lift(self.cx.board, &self.pos.occupied, c.from);
            self.pos.occupied[c.from as usize] = true;
        }
        let cut = by_blocks.then(|| self.macros.box_path.without(self.cx.board, c.to, c.player));
        self.pos.child_area = match (labelled, cut) {
            (Some(_), _) => ChildArea::Labelled,
            (None, Some((_, pieces))) => ChildArea::Cut(pieces),
            (None, None) => ChildArea::Flooded,
        };
        let norm = labelled
            .or(cut.map(|(least, _)| least))
            .unwrap_or_else(|| self.pos.child_reach.fill_moved(self.cx.board, &self.pos.boxes, c.from, c.to, c.player));

        self.pos.key.clear();
        self.pos.key.extend_from_slice(&self.pos.boxes);
        move_box(&mut self.pos.key[..nb], c.slot, c.to);
        self.pos.key.push(norm);
        let hash = c.box_hash
            ^ self.cx.zobrist.boxes[c.from as usize]
            ^ self.cx.zobrist.boxes[c.to as usize]
            ^ self.cx.zobrist.player[norm as usize];
        let slot = match self.table.probe(&self.pos.key, hash) {
            Probe::Found(_) => {
                self.stats.duplicates += 1;
                return None;
            }
            Probe::Vacant(s) => s,
        };
        if c.whole_move
            && self.pruners.dead_child(&mut self.pos.occupied, &self.pos.boxes, c.from, c.to, c.player, &mut self.stats)
        {
            return None;
        }
        let h = self.bound.of_child(&self.pos.boxes, c.slot, c.to);
        if h >= IMPOSSIBLE {
            self.stats.dead_matching += 1;
            return None;
        }
        let packed = self.child_packed(c);
        let mut stranded = false;
        // Under a plan, its progress is the feature cells' count of boxes packed.
        let (filled, by_plan) = match self.plan {
            Some(plan) => {
                let (occ, from, to) = (&self.pos.occupied, c.from, c.to);
                let child_occ = |x: Cell| x == to || x != from && occ[x as usize];
                let (f, r) = plan
                    .child_progress(&self.progress, c.slot, from, to)
                    .unwrap_or_else(|| plan.progress(self.cx.board.n, &self.pos.key[..nb], child_occ));
                if f > self.best_filled.0 {
                    self.best_filled = (f, self.stats.expanded);
                }
                // Whether the order walls a box off changes only with the targets filled.
                stranded = if f != self.parent_plan.0 {
                    // The parent's matching, made once for all its children that need it.
                    if !self.strands_ready {
                        plan.remember(&mut self.strands, &self.pos.boxes, |x| occ[x as usize]);
                        self.strands_ready = true;
                    }
                    plan.stranded(&mut self.strands, &self.pos.key[..nb], child_occ)
                } else {
                    self.parent_plan.1
                };
                let own = (f, if stranded { r + plan.stranded_penalty() } else { r });
                let (f, r) = self.others.iter().fold(own, |best, (other, memo)| {
                    let p = other
                        .child_progress(memo, c.slot, from, to)
                        .unwrap_or_else(|| other.progress(self.cx.board.n, &self.pos.key[..nb], child_occ));
                    Plan::further(best, p)
                });
                (f as u16, r)
            }
            None => (packed, 0),
        };
        let features = self.cell_of_child(c, filled);
        let child = match self.table.insert_at(slot, &self.pos.key, hash, c.node, c.push, c.depth) {
            Some(i) => i,
            None => {
                self.overflowed = true;
                return Some(Step::Full);
            }
        };
        if stranded {
            if self.stranded.len() <= child as usize {
                self.stranded.resize(child as usize + 1, false);
            }
            self.stranded[child as usize] = true;
        }
        self.note_closest(h, packed);
        if self.direction == Direction::Forward {
            self.note_most_packed(child, packed);
        }
        self.stats.generated += 1;
        let priority = self.priority_of(h, c.depth, packed) + by_plan + self.jitter(hash);
        // The advisors: packing (a box more on target) and connectivity (fewer areas).
        // The parent's areas: `areas` still holds its labels.
        let advised = packed > c.packed || features.areas < self.pos.areas.count();
        let weight = self.advice.child_weight(c, advised);
        let cell_priority = self.advice.cell_priority(child, priority, weight);
        if self.switches.dive {
            let rank = (priority as u32).min(UNRANKED);
            *self.dive_rank_of(child) = rank;
            if rank < self.dive_best.0 {
                self.dive_best = (rank, child);
            }
        }
        self.open.push(features, priority, cell_priority, child);
        other.find(&self.pos.key, hash).map(|(o, second)| Step::Met { own: child, other: o, second })
    }

    /// What `Switches::seed` adds to the rank of the forward child with hash `hash`.
    fn jitter(&self, hash: u64) -> usize {
        let seed = self.switches.seed;
        if seed == 0 || self.direction != Direction::Forward {
            return 0;
        }
        ((hash ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 63) as usize
    }

    /// Past the deadline, asked between the boxes of one expansion: only on maps where
    /// an expansion can take longer than the margin to it, since on small maps reading
    /// the clock per box is a visible part of whole box moves' time.
    fn out_of_time(&self, budget: &Budget) -> bool {
        (self.nboxes > DEADLINE_CHECK_BOXES || self.cx.board.n > DEADLINE_CHECK_CELLS) && budget.past_deadline()
    }

    /// Count the expansion in the subtrees of the node's nearest ancestors; one that
    /// reaches `SUBTREE_TEST` without a solution is likely stuck: search its stuck boxes,
    /// while those searches have visited at most half as many positions as the side
    /// expanded (`LEARN_SHARE`; after Festival, which tests subtrees of 64 nodes).
    fn learn_from_subtrees(&mut self, node: u32) {
        if self.subtree.len() <= node as usize {
            self.subtree.resize(node as usize + 1, 0);
        }
        let mut a = node;
        for _ in 0..SUBTREE_LEVELS {
            let count = &mut self.subtree[a as usize];
            *count = count.saturating_add(1);
            if *count == SUBTREE_TEST && self.learn_work <= self.stats.expanded / LEARN_SHARE {
                let key = self.table.key(a);
                let nb = self.nboxes;
                let before = self.pruners.dead_sets.nodes;
                self.pruners.dead_sets.learn(self.cx.board, &key[..nb], key[nb], SET_SEARCH_LIMIT);
                self.learn_work += self.pruners.dead_sets.nodes - before;
            }
            a = self.table.parent(a);
            if a == crate::table::NO_PARENT {
                break;
            }
        }
    }

    /// Keep `child` among the nodes with the most boxes on target: it takes the place of
    /// the first of the least packed, once they are `WAYPOINTS`. Most children pack no more
    /// than that one, which is kept at hand (`least_packed`) for them.
    fn note_most_packed(&mut self, child: u32, packed: u16) {
        if self.most_packed.len() < WAYPOINTS {
            self.most_packed.push((child, packed));
            if self.most_packed.len() == WAYPOINTS {
                self.least_packed = least_packed(&self.most_packed);
            }
            return;
        }
        let (i, least) = self.least_packed;
        if packed > least {
            self.most_packed[i] = (child, packed);
            self.least_packed = least_packed(&self.most_packed);
        }
    }

    /// Keep the closest-approach figures.
    fn note_closest(&mut self, h: i32, packed: u16) {
        self.stats.best_h = self.stats.best_h.min(h);
        self.stats.most_packed = self.stats.most_packed.max(packed);
    }

    /// A push that brings a box into a goal room from outside may carry it on to the
    /// room's next goal in packing order: an extra child, the plain push stays too.
    fn goal_macro(&mut self, c: &Child, other: Opposite) -> Option<Step> {
        let room = self.cx.packing.room[c.to as usize];
        // One edge holds one kind of macro: none after a tunnel.
        if room == 0 || self.cx.packing.room[c.from as usize] == room || c.push.via != Via::Step {
            return None;
        }
        self.pos.occupied[c.from as usize] = false;
        let target = self.cx.packing.next_goal(room, &self.pos.occupied);
        let path = match target {
            Some(t) if t != c.to => {
                let rooms = &self.cx.packing.room;
                let in_room = |x: Cell| rooms[x as usize] == room;
                self.macros.box_path.push_path_on_from_layout(
                    self.cx.board,
                    &self.pos.occupied,
                    c.from,
                    c.to,
                    t,
                    in_room,
                )
            }
            _ => None,
        };
        self.pos.occupied[c.from as usize] = true;
        let path = path?;
        let last = *path.last()?;
        self.stats.macros += 1;
        let child = Child {
            to: last.to,
            player: last.from,
            push: Push { to: last.to, via: Via::Room, ..c.push },
            depth: c.depth.saturating_add(path.len() as u16),
            whole_move: false,
            ..*c
        };
        self.emit(&child, other)
    }
}

/// Where the first of the least packed of `nodes` (node, boxes on target) is, and its count.
fn least_packed(nodes: &[(u32, u16)]) -> (usize, u16) {
    nodes.iter().enumerate().min_by_key(|(_, &(_, p))| p).map_or((0, 0), |(i, &(_, p))| (i, p))
}
