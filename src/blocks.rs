//! The blocks (biconnected components) of free floor: which cells a box cuts off from
//! which, without a flood per box cell.

use crate::board::{Board, Cell, NONE};

/// The blocks (biconnected components) of one area of free floor. Two free cells next to
/// a cell `x` stay connected when a box stands on `x` exactly when their edges to `x` lie
/// in one block, so a box moving through a fixed layout needs no flood to tell which of
/// its sides the player can walk to (Tarjan's algorithm, one pass per layout).
pub struct Blocks {
    /// Depth-first discovery time per cell; times below `base` are from older areas.
    disc: Vec<u32>,
    low: Vec<u32>,
    base: u32,
    clock: u32,
    /// Per cell of the latest area: the block of the edge to its parent, named by the
    /// cell below that block's top edge. Every edge lies in the block of its endpoint
    /// discovered later (a tree edge's child, a back edge's descendant), so edges need
    /// no labels of their own.
    block: Vec<Cell>,
    /// The depth-first path: cell, and the next direction to try from it.
    path: Vec<(Cell, u8)>,
    /// Per cell of the latest area: its parent in the depth-first tree (`NONE`: the
    /// root), the last discovery time in its subtree, and its subtree's smallest cell.
    up: Vec<Cell>,
    last: Vec<u32>,
    least: Vec<Cell>,
    root: Cell,
    /// The area's cells in discovery order, and once `without` needs them (`ends_known`),
    /// the smallest cell of each prefix and of each suffix of that order.
    order: Vec<Cell>,
    prefix: Vec<Cell>,
    suffix: Vec<Cell>,
    ends_known: bool,
}

impl Blocks {
    pub fn new(cells: usize) -> Blocks {
        Blocks {
            disc: vec![0; cells],
            low: vec![0; cells],
            base: 1,
            clock: 1,
            block: vec![NONE; cells],
            path: Vec::new(),
            up: vec![NONE; cells],
            last: vec![0; cells],
            least: vec![NONE; cells],
            root: NONE,
            order: Vec::with_capacity(cells),
            prefix: Vec::with_capacity(cells),
            suffix: Vec::with_capacity(cells),
            ends_known: false,
        }
    }

    /// Label the blocks of the area of free cells that holds `root` (free). Returns how
    /// many cells the area has.
    pub fn label(&mut self, board: &Board, occupied: &[bool], root: Cell) -> usize {
        if self.clock > u32::MAX - board.n as u32 - 2 {
            self.disc.iter_mut().for_each(|d| *d = 0);
            self.clock = 1;
        }
        self.base = self.clock;
        self.root = root;
        // Slices of one length: one comparison stands for `NONE` and the bounds checks.
        let n = self.disc.len().min(occupied.len()).min(NONE as usize);
        self.order.clear();
        self.ends_known = false;
        self.visit(root);
        self.up[root as usize] = NONE;
        self.path.clear();
        self.path.push((root, 0));
        while let Some(&(v, next)) = self.path.last() {
            // The directions not tried yet, until one leads to a new cell. The edge back to
            // the parent lowers `low` to the parent's time, which the test below allows.
            let mut deeper = None;
            let (disc, occupied) = (&self.disc[..n], &occupied[..n]);
            for d in next as usize..4 {
                let w = board.nbr[v as usize][d];
                let i = w as usize;
                if i >= n || occupied[i] {
                    continue;
                }
                let seen = disc[i];
                if seen < self.base {
                    let top = self.path.len() - 1;
                    self.path[top].1 = d as u8 + 1;
                    deeper = Some(w);
                    break;
                }
                self.low[v as usize] = self.low[v as usize].min(seen);
            }
            if let Some(w) = deeper {
                self.visit(w);
                self.up[w as usize] = v;
                self.path.push((w, 0));
                continue;
            }
            self.path.pop();
            self.last[v as usize] = self.clock - 1;
            let Some(&(p, _)) = self.path.last() else { break };
            self.low[p as usize] = self.low[p as usize].min(self.low[v as usize]);
            self.least[p as usize] = self.least[p as usize].min(self.least[v as usize]);
        }
        // A tree edge tops its block when nothing below it reaches above its parent;
        // else it shares its parent's edge's block. Parents come first in discovery order.
        for &v in &self.order[1..] {
            let p = self.up[v as usize];
            self.block[v as usize] =
                if self.low[v as usize] >= self.disc[p as usize] { v } else { self.block[p as usize] };
        }
        (self.clock - self.base) as usize
    }

    fn visit(&mut self, c: Cell) {
        self.disc[c as usize] = self.clock;
        self.low[c as usize] = self.clock;
        self.least[c as usize] = c;
        self.order.push(c);
        self.clock += 1;
    }

    /// With a box on `x`, a cell of the labelled area, are its free neighbours in
    /// directions `a` and `b` still connected?
    #[inline]
    pub fn around(&self, board: &Board, x: Cell, a: usize, b: usize) -> bool {
        let edge = |y: Cell| {
            let later = if self.disc[y as usize] > self.disc[x as usize] { y } else { x };
            self.block[later as usize]
        };
        edge(board.nbr[x as usize][a]) == edge(board.nbr[x as usize][b])
    }

    /// The depth-first children of `x`, a labelled cell, each with whether a box on `x`
    /// cuts its subtree off: no back edge leads out of it above `x` (at the root, none can).
    fn children<'s>(&'s self, board: &'s Board, x: Cell) -> impl Iterator<Item = (Cell, bool)> + 's {
        board.nbr[x as usize]
            .iter()
            .copied()
            .filter(move |&c| c != NONE && self.disc[c as usize] >= self.base && self.up[c as usize] == x)
            .map(move |c| (c, x == self.root || self.low[c as usize] >= self.disc[x as usize]))
    }

    /// Does the subtree of `v` hold the labelled cell `c`?
    fn inside(&self, v: Cell, c: Cell) -> bool {
        (self.disc[v as usize]..=self.last[v as usize]).contains(&self.disc[c as usize])
    }

    /// With a box on `x`, a cell of the labelled area, how many cells the player beside it
    /// on side `side` can walk to: what a flood from there, `x` blocked, would count.
    /// The pieces `x` cuts off are its children's subtrees (`children`); the rest of the
    /// area is one more piece.
    pub fn piece_size(&self, board: &Board, x: Cell, side: usize) -> usize {
        let y = board.nbr[x as usize][side];
        debug_assert!(y != NONE && self.disc[y as usize] >= self.base && self.disc[x as usize] >= self.base);
        let mut cut = 0;
        for (c, _) in self.children(board, x).filter(|&(_, cut_off)| cut_off) {
            let size = (self.last[c as usize] - self.disc[c as usize] + 1) as usize;
            if self.inside(c, y) {
                return size;
            }
            cut += size;
        }
        (self.clock - self.base) as usize - 1 - cut
    }

    /// With a box on `to`, a cell of the labelled area other than its root: how many
    /// pieces the area falls into, and the smallest cell of the piece that holds `player`
    /// (a labelled cell). The pieces cut off are the subtrees of the children of `to`
    /// that no back edge leads out of; the root's piece is the rest.
    pub fn without(&mut self, board: &Board, to: Cell, player: Cell) -> (Cell, u16) {
        debug_assert!(
            to != self.root && self.disc[to as usize] >= self.base && self.disc[player as usize] >= self.base
        );
        let smallest = self.least[self.root as usize];
        let (mut pieces, mut own, mut smallest_cut) = (1, None, smallest == to);
        // The root's piece's smallest cell among the children's subtrees that stay in it.
        let mut kept = NONE;
        for (c, cut_off) in self.children(board, to) {
            if cut_off {
                pieces += 1;
                if self.inside(c, player) {
                    own = Some(self.least[c as usize]);
                }
                smallest_cut |= self.inside(c, smallest);
            } else {
                kept = kept.min(self.least[c as usize]);
            }
        }
        if let Some(least) = own {
            return (least, pieces);
        }
        if !smallest_cut {
            return (smallest, pieces);
        }
        // The root's piece is the area outside `to`'s subtree and the subtrees kept.
        if !self.ends_known {
            self.know_ends();
        }
        let (first, end) =
            ((self.disc[to as usize] - self.base) as usize, (self.last[to as usize] - self.base) as usize);
        let before = self.prefix[first - 1];
        let after = self.suffix.get(end + 1).copied().unwrap_or(NONE);
        (before.min(after).min(kept), pieces)
    }

    /// The smallest cell of each prefix and each suffix of the discovery order.
    fn know_ends(&mut self) {
        let fold = |out: &mut Vec<Cell>, cells: &mut dyn Iterator<Item = &Cell>| {
            out.clear();
            let mut m = NONE;
            out.extend(cells.map(|&c| {
                m = m.min(c);
                m
            }));
        };
        fold(&mut self.prefix, &mut self.order.iter());
        fold(&mut self.suffix, &mut self.order.iter().rev());
        self.suffix.reverse();
        self.ends_known = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reach::Reach;
    use crate::testing::{layouts, ROOMS};

    #[test]
    fn blocks_tell_what_a_box_cuts_off() {
        let b = Board::from_text(ROOMS);
        let (mut blocks, mut flood) = (Blocks::new(b.n), Reach::new(b.n));
        let (mut asked, mut cut) = (0, 0);
        for (occ, root) in layouts(&b, 7) {
            let size = blocks.label(&b, &occ, root);
            assert_eq!(size, flood.flood(&b, &occ, NONE, &[root]).1);
            // Every cell of the area, walled up: which of its neighbours still meet?
            let area: Vec<Cell> = (0..b.n as Cell).filter(|&c| flood.reached(c)).collect();
            for &x in &area {
                for a in 0..4 {
                    let na = b.step(x, a);
                    if na == NONE || occ[na as usize] {
                        continue;
                    }
                    flood.flood(&b, &occ, x, &[na]);
                    for d in 0..4 {
                        let nd = b.step(x, d);
                        if d == a || nd == NONE || occ[nd as usize] {
                            continue;
                        }
                        asked += 1;
                        cut += !flood.reached(nd) as u32;
                        assert_eq!(blocks.around(&b, x, a, d), flood.reached(nd), "cell {} sides {} {}", x, a, d);
                    }
                }
            }
        }
        // Both answers must be common, or the test proves little.
        assert!(cut * 10 > asked && cut * 10 < asked * 9, "{} of {} cut off", cut, asked);
    }

    /// `Blocks::without` tells the pieces a box cuts an area into, and the player's
    /// piece's smallest cell, as floods do.
    #[test]
    fn blocks_tell_the_pieces_and_the_players_area() {
        let b = Board::from_text(ROOMS);
        let (mut blocks, mut flood, mut pieces) = (Blocks::new(b.n), Reach::new(b.n), Reach::new(b.n));
        let (mut asked, mut split) = (0, 0);
        for (occ, root) in layouts(&b, 5) {
            blocks.label(&b, &occ, root);
            flood.fill(&b, &occ, root);
            let area: Vec<Cell> = (0..b.n as Cell).filter(|&c| flood.reached(c)).collect();
            for &to in area.iter().filter(|&&c| c != root) {
                let mut after = occ.clone();
                after[to as usize] = true;
                let expected_pieces = pieces.count_areas(&b, &after) - flood.count_areas(&b, &occ) + 1;
                for &player in area.iter().filter(|&&c| c != to) {
                    asked += 1;
                    let (least, n) = blocks.without(&b, to, player);
                    split += (n > 1) as u32;
                    assert_eq!(n, expected_pieces, "box on {}", to);
                    assert_eq!(least, flood.fill(&b, &after, player), "box on {}, player on {}", to, player);
                    flood.fill(&b, &occ, root);
                }
            }
        }
        // Many of the questions are about real cuts.
        assert!(split * 5 > asked, "only {} of {} split", split, asked);
    }
}
