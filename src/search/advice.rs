//! A side's advisor weights (FESS) and boxes in doorways, for its feature cells. A node's
//! weight counts the pushes on its path that no advisor suggested: packing (a box more
//! on target), connectivity (fewer floor areas) and, with hotspot weights, a push that
//! leaves fewer boxes blocking others. Weighted cells serve their nodes lightest first.

use crate::board::{Cell, NONE};
use crate::hotspot::Hotspots;
use crate::table::Table;

use super::Child;

/// Within one advisor weight, nodes go by rank in this many bands (better rank first,
/// which solved a level more than last in, first out); finer bands cost more buckets.
pub(super) const RANK_BANDS: usize = 16;

/// One side's advice to its feature cells.
pub(super) struct Advice<'a> {
    /// The feature cells serve their nodes by advisor weight (`Switches::advisor_weights`;
    /// forward only: weighing the backward side too solved no level more, nor fewer).
    pub weighs: bool,
    /// With weights: a push of the box the parent's push moved is free too, so a weight
    /// counts box moves (`Switches::box_move_weights`).
    box_moves: bool,
    /// With weights: the hotspots a push may unblock (`Switches::hotspot_weights`).
    hotspots: Option<&'a Hotspots>,
    /// With hotspots: the boxes of the position being expanded (`Hotspots::layout`).
    layout: Vec<u64>,
    /// The board's doorway table, when the feature cells count boxes in doorways; else
    /// empty. Forward only: backward it traded one level for another. A walled board has
    /// no doorway table.
    doorway: &'a [bool],
    /// Advisor weight by node, when the side weighs: two bytes a node outside the table's
    /// budget, a few percent of what a node costs there.
    pub weights: Vec<u16>,
    /// The expanding node's weight, for its children's.
    parent_weight: u16,
    /// Where the expanding node's last push left its box (`NONE` for a root).
    parent_moved: Cell,
    /// The first root's rank, which scales the rank bands of weighted cells.
    pub root_rank: usize,
    /// Boxes in doorways in the position being expanded (see `doorways`).
    pub parent_doorways: u16,
}

impl<'a> Advice<'a> {
    pub fn new(weighs: bool, box_moves: bool, hotspots: Option<&'a Hotspots>, doorway: &'a [bool]) -> Advice<'a> {
        Advice {
            weighs,
            box_moves: weighs && box_moves,
            hotspots: hotspots.filter(|_| weighs),
            layout: Vec::new(),
            doorway,
            weights: Vec::new(),
            parent_weight: 0,
            parent_moved: NONE,
            root_rank: 0,
            parent_doorways: 0,
        }
    }

    /// Expand `node` of `table`, its boxes `boxes`: its figures become the parent's.
    pub fn expanding(&mut self, node: u32, table: &Table, boxes: &[Cell]) {
        self.parent_doorways = self.doorways(boxes);
        if self.weighs {
            self.parent_weight = self.weights[node as usize];
            self.parent_moved = table.push_of(node).to;
        }
        if let Some(spots) = self.hotspots {
            spots.layout(boxes, &mut self.layout);
        }
    }

    /// Boxes of `boxes` in doorways (0 when the side does not count them).
    pub fn doorways(&self, boxes: &[Cell]) -> u16 {
        if self.doorway.is_empty() {
            return 0;
        }
        boxes.iter().filter(|&&b| self.doorway[b as usize]).count() as u16
    }

    /// Boxes in doorways once child `c`'s move is made.
    pub fn child_doorways(&self, c: &Child) -> u16 {
        if self.doorway.is_empty() {
            return 0;
        }
        let door = |x: Cell| self.doorway[x as usize] as u16;
        self.parent_doorways + door(c.to) - door(c.from)
    }

    /// The weight of child `c` of the expanding node: its parent's, one more unless an
    /// advisor suggests the push (`advised`: packing or connectivity; or hotspots) or it
    /// pushes on the box the parent's push moved, counting box moves.
    pub fn child_weight(&self, c: &Child, advised: bool) -> u16 {
        let same_box = self.box_moves && c.from == self.parent_moved;
        let free = advised || same_box || self.unblocks(c);
        self.parent_weight.saturating_add(!free as u16)
    }

    /// With hotspot weights: does child `c` leave fewer blocking pairs than its parent?
    fn unblocks(&self, c: &Child) -> bool {
        let Some(spots) = self.hotspots else { return false };
        spots.pairs_with(&self.layout, c.to, c.from) < spots.pairs_with(&self.layout, c.from, c.from)
    }

    /// A node's rank inside its feature cell: its advisor weight (kept for its children)
    /// when the side weighs, then its plain rank in one of `RANK_BANDS` bands of the
    /// first root's; else its plain rank.
    pub fn cell_priority(&mut self, node: u32, priority: usize, weight: u16) -> usize {
        if !self.weighs {
            return priority;
        }
        let i = node as usize;
        if i >= self.weights.len() {
            self.weights.resize(i + 1, 0);
        }
        self.weights[i] = weight;
        if self.root_rank == 0 {
            self.root_rank = priority.max(1);
        }
        let band = (priority * RANK_BANDS / (self.root_rank + 1)).min(RANK_BANDS - 1);
        weight as usize * RANK_BANDS + band
    }
}
