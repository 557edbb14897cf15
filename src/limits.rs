//! The thresholds past which a map is too big for a technique, in one place. Each
//! technique whose cost grows faster than the map (quadratic in the floor cells, or per
//! move a flood of the floor) is bounded or left out past its own threshold, so that
//! the largest maps the input allows (65,535 open cells, 500 boxes) still get a search.
//! Cells are floor cells (`Board::n`).

/// Player-aware push distances and dead sides (`board`): the pass that links a box's
/// sides is quadratic in the cells. Past it, distances let the player walk through the box.
pub const PLAYER_AWARE_MAX_CELLS: usize = 4000;

/// The hotspot table (`hotspot`): two bits per pair of cells (the table and its transpose),
/// 1 MiB at most. Past it, no push unblocks.
pub const HOTSPOT_MAX_CELLS: usize = 2048;

/// The analysis of the board that boxes frozen on goals leave (`frozen_goals`), quadratic
/// in the cells: past it, it would cost more than it saves.
pub const FROZEN_GOALS_MAX_CELLS: usize = 1024;

/// Packing macros and whole box moves (`search::movegen`): one attempt may flood the
/// floor once per (cell, side), quadratic in the floor, so on bigger maps it would eat
/// the budget in a handful of expansions. Past it, boxes go by single pushes.
pub const PACKING_MACRO_MAX_CELLS: usize = 1024;

/// On maps with more boxes or more cells than these, an expansion looks at the clock
/// between boxes: one expansion can take longer than the margin to the deadline.
pub const DEADLINE_CHECK_BOXES: usize = 64;
pub const DEADLINE_CHECK_CELLS: usize = 4000;

/// A side's matching costs by cell (`search::bound`) up to this many entries, cells times
/// boxes (16 MB a side); past it, each row is read from the distances.
pub const COST_ROWS_LIMIT: usize = 1 << 22;

/// Goal rooms of more goals than this get no packing order (`packing`): the analysis is
/// quadratic in the room.
pub const MAX_ROOM: usize = 64;

/// Cells the packing analysis may flood in all, so that it stays a small part of the time
/// budget even on the largest maps; rooms not done by then get no order.
pub const PACKING_ANALYSIS_WORK: u64 = 30_000_000;

/// The global packing plan (`plan`): levels with more boxes get none (its rank walks every
/// target per child), and the peeling counts at most this many cells the player walks to,
/// step by step (`plan::Puller`). Twice what it was when each step was a flood: the plans'
/// setup still takes less time in all than then, and one more sample map gets a plan.
pub const PLAN_MAX_BOXES: usize = 100;
pub const PLAN_WORK: u64 = 40_000_000;
/// The plan search (`plan_search`) counts at most this many cells, and stores at most this
/// many boxes over all its nodes (about 6 bytes each, with its table of positions seen),
/// a node counting 16 more for itself: some 50 MB at most. Half the peeling's: with a
/// quarter of this, some maps that neither peeling plans got no plan here either.
pub const PLAN_SEARCH_WORK: u64 = PLAN_WORK / 2;
/// The plan search for a second plan (`Plan::second`) gets a quarter of that: it runs on
/// levels that have a plan, and where it finds none the time is the phases'.
pub const SECOND_PLAN_SEARCH_WORK: u64 = PLAN_SEARCH_WORK / 4;
pub const PLAN_SEARCH_BOXES: usize = 4_000_000;
