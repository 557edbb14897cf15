//! The blocks (biconnected components) of free floor: which cells a box cuts off from
//! which, without a flood per box cell.

use crate::board::{Board, Cell, NONE};

/// `Blocks::side_lifted`'s name for an edge to the lifted cell in a block of its own: no
/// cell's.
const LONE_EDGE: u32 = u32::MAX;

/// The blocks (biconnected components) of areas of free floor. Two free cells next to a
/// cell `x` stay connected when a box stands on `x` exactly when their edges to `x` lie in
/// one block, so a box moving through a fixed layout needs no flood to tell which of its
/// sides the player can walk to (Tarjan's algorithm, one pass per area).
///
/// Either one area, labelled with the moving box lifted off (`label`); or the areas of a
/// whole layout, each labelled once when a box next to it is lifted (`new_layout`, `lift`):
/// the lifted box's cell then joins the areas around it, so every box of an expansion is
/// told by one labelling instead of one each.
pub struct Blocks {
    /// Depth-first discovery time per cell; times below `base` are from older layouts.
    disc: Vec<u32>,
    low: Vec<u32>,
    base: u32,
    clock: u32,
    /// Per cell of the latest layout: the block of the edge to its parent, named by the
    /// cell below that block's top edge. Every edge lies in the block of its endpoint
    /// discovered later (a tree edge's child, a back edge's descendant), so edges need
    /// no labels of their own.
    block: Vec<Cell>,
    /// The depth-first path: cell, and the next direction to try from it.
    path: Vec<(Cell, u8)>,
    /// Per cell of the latest layout: its parent in the depth-first tree (`NONE`: its
    /// area's root), the last discovery time in its subtree, its subtree's smallest cell,
    /// and its area's root.
    up: Vec<Cell>,
    last: Vec<u32>,
    least: Vec<Cell>,
    area: Vec<Cell>,
    /// Per cell of the latest layout: does a box on it cut its area in two or more?
    cuts: Vec<bool>,
    /// The layout's cells in discovery order (each area's in one run, its root first),
    /// and once `piece_least` needs them (`ends_known`), the smallest cell of each prefix
    /// and of each suffix of its area's run.
    order: Vec<Cell>,
    prefix: Vec<Cell>,
    suffix: Vec<Cell>,
    ends_known: bool,
    /// The lifted box's cell (`lift`); per area around it, its root and the cell's first
    /// neighbour there; per area where it merged blocks, the block standing for them.
    lifted: Cell,
    joined: Vec<(Cell, Cell)>,
    reps: Vec<(Cell, Cell)>,
    /// Per block (named as in `block`): the block standing for it, if `merged_at` holds
    /// the latest lift's stamp.
    merged: Vec<Cell>,
    merged_at: Vec<u32>,
    stamp: u32,
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
            area: vec![NONE; cells],
            cuts: vec![false; cells],
            order: Vec::with_capacity(cells),
            prefix: Vec::with_capacity(cells),
            suffix: Vec::with_capacity(cells),
            ends_known: false,
            lifted: NONE,
            joined: Vec::with_capacity(4),
            reps: Vec::with_capacity(4),
            merged: vec![NONE; cells],
            merged_at: vec![0; cells],
            stamp: 0,
        }
    }

    /// Label the blocks of the area of free cells that holds `root` (free), forgetting
    /// every earlier area. Returns how many cells the area has.
    pub fn label(&mut self, board: &Board, occupied: &[bool], root: Cell) -> usize {
        self.new_layout(board);
        self.label_area(board, occupied, NONE, root)
    }

    /// Forget every labelled area: the boxes have moved.
    pub fn new_layout(&mut self, board: &Board) {
        if self.clock > u32::MAX - board.n as u32 - 2 {
            self.disc.iter_mut().for_each(|d| *d = 0);
            self.clock = 1;
        }
        self.base = self.clock;
        self.order.clear();
        self.ends_known = false;
        self.lifted = NONE;
    }

    fn labelled(&self, c: Cell) -> bool {
        self.disc[c as usize] >= self.base
    }

    /// Label the area of free cells, `wall` blocking too, that holds `root`, beside the
    /// areas of this layout labelled before. Returns how many cells it has.
    fn label_area(&mut self, board: &Board, occupied: &[bool], wall: Cell, root: Cell) -> usize {
        // Slices of one length: one comparison stands for `NONE` and the bounds checks.
        let n = self.disc.len().min(occupied.len()).min(NONE as usize);
        let (first, start) = (self.order.len(), self.clock);
        self.ends_known = false;
        self.visit(root, root);
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
                if i >= n || occupied[i] || w == wall {
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
                self.visit(w, root);
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
        // Such a tree edge's parent cuts the area, unless it is the root: that takes two.
        let mut tops = 0;
        for &v in &self.order[first + 1..] {
            let p = self.up[v as usize];
            let top = self.low[v as usize] >= self.disc[p as usize];
            self.block[v as usize] = if top { v } else { self.block[p as usize] };
            self.cuts[p as usize] |= top;
            tops += (top && p == root) as u32;
        }
        self.cuts[root as usize] = tops >= 2;
        (self.clock - start) as usize
    }

    fn visit(&mut self, c: Cell, root: Cell) {
        self.disc[c as usize] = self.clock;
        self.low[c as usize] = self.clock;
        self.least[c as usize] = c;
        self.area[c as usize] = root;
        self.cuts[c as usize] = false;
        self.order.push(c);
        self.clock += 1;
    }

    /// With a box on `x`, a cell of the labelled area, are its free neighbours in
    /// directions `a` and `b` still connected?
    #[inline]
    pub fn around(&self, board: &Board, x: Cell, a: usize, b: usize) -> bool {
        self.edge(x, board.nbr[x as usize][a]) == self.edge(x, board.nbr[x as usize][b])
    }

    /// The depth-first children of `x`, a labelled cell, each with whether a box on `x`
    /// cuts its subtree off: no back edge leads out of it above `x`. A root cuts off all
    /// its children or, with one, none: that one is then the rest of its area.
    fn children<'s>(&'s self, board: &'s Board, x: Cell) -> impl Iterator<Item = (Cell, bool)> + 's {
        let root = self.up[x as usize] == NONE;
        let cuts = self.cuts[x as usize];
        board.nbr[x as usize]
            .iter()
            .copied()
            .filter(move |&c| c != NONE && self.labelled(c) && self.up[c as usize] == x)
            .map(move |c| (c, if root { cuts } else { self.low[c as usize] >= self.disc[x as usize] }))
    }

    /// Does the subtree of `v` hold the labelled cell `c`?
    fn inside(&self, v: Cell, c: Cell) -> bool {
        (self.disc[v as usize]..=self.last[v as usize]).contains(&self.disc[c as usize])
    }

    /// With a box on `x`, the piece of its area that holds `y` (another cell of it): the
    /// child of `x` whose subtree `x` cuts off with `y` in it, else `x`, naming the rest
    /// (`children`).
    fn piece(&self, board: &Board, x: Cell, y: Cell) -> Cell {
        if !self.cuts[x as usize] || !self.inside(x, y) {
            return x;
        }
        if self.up[y as usize] == x {
            // x cuts: a root all its children off, another those nothing leads above x from.
            let cut_off = self.up[x as usize] == NONE || self.low[y as usize] >= self.disc[x as usize];
            return if cut_off { y } else { x };
        }
        self.children(board, x).find(|&(c, cut_off)| cut_off && self.inside(c, y)).map_or(x, |(c, _)| c)
    }

    /// With a box on `x`, a cell of the labelled area, how many cells the player beside it
    /// on side `side` can walk to: what a flood from there, `x` blocked, would count.
    /// The pieces `x` cuts off are its children's subtrees (`children`); the rest of the
    /// area is one more piece.
    pub fn piece_size(&self, board: &Board, x: Cell, side: usize) -> usize {
        let y = board.nbr[x as usize][side];
        debug_assert!(y != NONE && self.labelled(y) && self.labelled(x));
        let mut cut = 0;
        for (c, _) in self.children(board, x).filter(|&(_, cut_off)| cut_off) {
            let size = (self.last[c as usize] - self.disc[c as usize] + 1) as usize;
            if self.inside(c, y) {
                return size;
            }
            cut += size;
        }
        self.size(self.area[x as usize]) - 1 - cut
    }

    /// The smallest cell of piece `piece` (`piece`'s answer) with a box on `to`.
    fn piece_least(&mut self, board: &Board, to: Cell, piece: Cell) -> Cell {
        if piece != to {
            return self.least[piece as usize];
        }
        // The rest: the area outside `to`'s subtree, and the subtrees of `to` kept in it.
        let root = self.area[to as usize];
        let smallest = self.least[root as usize];
        let mut kept = NONE;
        let mut smallest_cut = smallest == to;
        for (c, cut_off) in self.children(board, to) {
            if cut_off {
                smallest_cut |= self.inside(c, smallest);
            } else {
                kept = kept.min(self.least[c as usize]);
            }
        }
        if !smallest_cut {
            return smallest;
        }
        if !self.ends_known {
            self.know_ends();
        }
        let at = |c: Cell| (self.disc[c as usize] - self.base) as usize;
        let (first, end, area_end) =
            (at(to), (self.last[to as usize] - self.base) as usize, at(root) + self.size(root));
        let before = if first > at(root) { self.prefix[first - 1] } else { NONE };
        let after = if end + 1 < area_end { self.suffix[end + 1] } else { NONE };
        before.min(after).min(kept)
    }

    /// How many cells the area of `root` has.
    fn size(&self, root: Cell) -> usize {
        (self.last[root as usize] - self.disc[root as usize] + 1) as usize
    }

    /// The smallest cell of each prefix and each suffix of each area's run of the
    /// discovery order.
    fn know_ends(&mut self) {
        let up = &self.up;
        let mut m = NONE;
        self.prefix.clear();
        self.prefix.extend(self.order.iter().map(|&c| {
            m = if up[c as usize] == NONE { c } else { m.min(c) };
            m
        }));
        m = NONE;
        self.suffix.clear();
        self.suffix.extend(self.order.iter().rev().map(|&c| {
            m = m.min(c);
            let here = m;
            if up[c as usize] == NONE {
                m = NONE;
            }
            here
        }));
        self.suffix.reverse();
        self.ends_known = true;
    }

    /// The cell of the box lifted off the layout (`lift`), else `NONE`.
    pub fn lifted(&self) -> Cell {
        self.lifted
    }

    /// Lift the box on `cell` off a layout (`new_layout`), the other boxes in
    /// `occupied`: label the areas around it not labelled yet. Until the next lift, the
    /// cell is free floor joining those areas (`around_lifted`, `without_lifted`).
    ///
    /// In an area where the cell has two or more neighbours, it joins into one block the
    /// blocks on the ways between them (in the tree of blocks and the cells that cut):
    /// each of those points at one block that stands for them all (`merged`).
    pub fn lift(&mut self, board: &Board, occupied: &[bool], cell: Cell) {
        self.lifted = cell;
        self.joined.clear();
        self.reps.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.merged_at.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        for &m in &board.nbr[cell as usize] {
            if m == NONE || occupied[m as usize] {
                continue;
            }
            if !self.labelled(m) {
                self.label_area(board, occupied, cell, m);
            }
            let root = self.area[m as usize];
            match self.joined.iter().position(|&(r, _)| r == root) {
                None => self.joined.push((root, m)),
                Some(i) => {
                    let first = self.joined[i].1;
                    self.merge_way(first, m);
                }
            }
        }
    }

    /// The block of a cell's edge to its depth-first parent (`NONE` at a root).
    fn home(&self, c: Cell) -> Cell {
        if self.up[c as usize] == NONE {
            NONE
        } else {
            self.block[c as usize]
        }
    }

    /// Merge the blocks on the way between the cells `y` and `z` of one area: climb from
    /// the deeper block (its name discovered later) to the block above its top cell, until
    /// both sides reach one block (merged too) or one cell.
    fn merge_way(&mut self, y: Cell, z: Cell) {
        let (mut vy, mut by, mut vz, mut bz) = (y, self.home(y), z, self.home(z));
        let mut rep = self.joined_rep(y);
        while vy != vz && by != bz {
            let z_deeper = by == NONE || (bz != NONE && self.disc[bz as usize] > self.disc[by as usize]);
            let climbed = if z_deeper { bz } else { by };
            rep = self.merge(climbed, rep);
            let top = self.up[climbed as usize];
            if z_deeper {
                (vz, bz) = (top, self.home(top));
            } else {
                (vy, by) = (top, self.home(top));
            }
        }
        if vy != vz {
            self.merge(by, rep);
        }
    }

    /// The block standing for the blocks merged in the area of `c` so far, if any.
    fn joined_rep(&self, c: Cell) -> Cell {
        let root = self.area[c as usize];
        self.reps.iter().find(|&&(r, _)| r == root).map_or(NONE, |&(_, b)| b)
    }

    /// Merge block `b` into the blocks `rep` stands for (`NONE`: none yet, `b` will).
    fn merge(&mut self, b: Cell, rep: Cell) -> Cell {
        let rep = if rep == NONE { b } else { rep };
        self.merged[b as usize] = rep;
        self.merged_at[b as usize] = self.stamp;
        let root = self.area[b as usize];
        if !self.reps.iter().any(|&(r, _)| r == root) {
            self.reps.push((root, rep));
        }
        rep
    }

    /// The block standing for block `b` while the latest lift lasts.
    fn id(&self, b: Cell) -> Cell {
        if self.merged_at[b as usize] == self.stamp {
            self.merged[b as usize]
        } else {
            b
        }
    }

    /// The block of the edge between neighbouring labelled cells `x` and `y`.
    fn edge(&self, x: Cell, y: Cell) -> Cell {
        let later = if self.disc[y as usize] > self.disc[x as usize] { y } else { x };
        self.block[later as usize]
    }

    /// `around` with the box lifted (`lift`) and standing on `x` instead, a cell of its
    /// joined area.
    #[cfg(test)]
    pub fn around_lifted(&self, board: &Board, x: Cell, a: usize, b: usize) -> bool {
        self.side_lifted(board, x, a) == self.side_lifted(board, x, b)
    }

    /// With the box lifted (`lift`) and standing on `x` instead, a cell of its joined
    /// area: a name for the side of `x` in direction `d` (a free cell there) that two
    /// sides share exactly when they stay connected (`around`).
    #[inline]
    pub fn side_lifted(&self, board: &Board, x: Cell, d: usize) -> u32 {
        let (y, lifted) = (board.nbr[x as usize][d], self.lifted);
        if x == lifted {
            // The layout as it is: its areas.
            self.area[y as usize] as u32
        } else if y == lifted {
            // The merged block, if the lifted cell has other neighbours in x's area; else
            // a block of its own, one cell that no other side names.
            let rep = self.joined_rep(x);
            if rep == NONE {
                LONE_EDGE
            } else {
                rep as u32
            }
        } else {
            self.id(self.edge(x, y)) as u32
        }
    }

    /// `without` with the box lifted (`lift`) and moved onto `to`, a cell of its joined
    /// area: the pieces of the joined area, and the smallest cell of the player's.
    pub fn without_lifted(&mut self, board: &Board, to: Cell, player: Cell) -> (Cell, u16) {
        let lifted = self.lifted;
        let root = self.area[to as usize];
        // The rest of the area (`piece`'s `to`): at a root, only if it cuts nothing.
        let whole = !self.cuts[to as usize];
        let rest = self.up[to as usize] != NONE || (whole && self.size(root) > 1);
        let cut = if whole { 0 } else { self.children(board, to).filter(|&(_, cut_off)| cut_off).count() };
        // The pieces of to's area the lifted cell joins, through its neighbours.
        let mut touched = [NONE; 4];
        let mut ntouched = 0;
        for &m in &board.nbr[lifted as usize] {
            if m != NONE && m != to && self.labelled(m) && self.area[m as usize] == root {
                let k = self.piece(board, to, m);
                if !touched[..ntouched].contains(&k) {
                    touched[ntouched] = k;
                    ntouched += 1;
                }
            }
        }
        let pieces = (1 + rest as usize + cut - ntouched) as u16;
        if player != lifted && self.area[player as usize] == root {
            let own = self.piece(board, to, player);
            if !touched[..ntouched].contains(&own) {
                return (self.piece_least(board, to, own), pieces);
            }
        }
        // The joined piece: the lifted cell, the other areas around it, the pieces it touches.
        let mut least = lifted;
        for i in 0..self.joined.len() {
            let r = self.joined[i].0;
            if r != root {
                least = least.min(self.least[r as usize]);
            }
        }
        for &k in &touched[..ntouched] {
            least = least.min(self.piece_least(board, to, k));
        }
        (least, pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reach::Reach;
    use crate::testing::{layouts, numbers, ROOMS};

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

    /// A layout's boxes lifted in turn (`lift`), its areas labelled once: with the box
    /// moved onto any cell of its joined area, which of that cell's sides still meet
    /// (`around_lifted`), the pieces and the player's piece's smallest cell
    /// (`without_lifted`), as floods tell them.
    #[test]
    fn a_layouts_blocks_tell_each_lifted_box_what_floods_do() {
        let b = Board::from_text(ROOMS);
        let (mut blocks, mut flood, mut pieces) = (Blocks::new(b.n), Reach::new(b.n), Reach::new(b.n));
        let mut rnd = numbers(3);
        let (mut asked, mut cut, mut split) = (0, 0, 0);
        for (mut occ, root) in layouts(&b, 5).take(1500) {
            // Up to three more boxes, all of them lifted in turn from one labelling.
            let mut boxes = vec![root];
            boxes.extend((0..rnd(4)).map(|_| rnd(b.n) as Cell).filter(|&c| !occ[c as usize] && c != root));
            boxes.dedup();
            boxes.iter().for_each(|&c| occ[c as usize] = true);
            blocks.new_layout(&b);
            for &lifted in &boxes {
                occ[lifted as usize] = false;
                blocks.lift(&b, &occ, lifted);
                flood.fill(&b, &occ, lifted);
                let area: Vec<Cell> = (0..b.n as Cell).filter(|&c| flood.reached(c)).collect();
                for &x in area.iter().filter(|&&c| c != lifted) {
                    for a in (0..4).filter(|&a| b.step(x, a) != NONE && !occ[b.step(x, a) as usize]) {
                        pieces.flood(&b, &occ, x, &[b.step(x, a)]);
                        for d in (0..4).filter(|&d| b.step(x, d) != NONE && !occ[b.step(x, d) as usize]) {
                            asked += 1;
                            let meet = pieces.reached(b.step(x, d));
                            cut += !meet as u32;
                            assert_eq!(blocks.around_lifted(&b, x, a, d), meet, "box on {x}, sides {a} {d}");
                        }
                    }
                    let mut after = occ.clone();
                    after[x as usize] = true;
                    let expected = pieces.count_areas(&b, &after) - flood.count_areas(&b, &occ) + 1;
                    for &player in area.iter().filter(|&&c| c != x) {
                        let (least, n) = blocks.without_lifted(&b, x, player);
                        split += (n > 1) as u32;
                        assert_eq!(n, expected, "box on {x}");
                        assert_eq!(least, pieces.fill(&b, &after, player), "box on {x}, player on {player}");
                    }
                }
                occ[lifted as usize] = true;
            }
        }
        // Both answers must be common, or the test proves little.
        assert!(cut * 10 > asked && cut * 10 < asked * 9, "{} of {} cut off", cut, asked);
        assert!(split > 10_000, "only {split} splits");
    }
}
