//! Player flood fill: which cells the player can walk to without pushing.
//!
//! A generation stamp replaces clearing the visited array, so a fill costs only the
//! cells it visits.

use crate::board::{Board, Cell, NONE};

pub struct Reach {
    stamp: Vec<u32>,
    generation: u32,
    stack: Vec<Cell>,
}

impl Reach {
    pub fn new(cells: usize) -> Reach {
        Reach { stamp: vec![0; cells], generation: 0, stack: Vec::with_capacity(cells) }
    }

    /// Fill from `from` through cells not marked in `occupied`; returns the smallest cell
    /// reached, which is the canonical player cell of the area.
    pub fn fill(&mut self, board: &Board, occupied: &[bool], from: Cell) -> Cell {
        self.flood(board, occupied, NONE, &[from]).0
    }

    /// Fill from every free cell of `seeds`, with `wall` (or `NONE`) blocking as well as
    /// the boxes. Returns the smallest cell reached (`NONE` if none) and how many cells
    /// were reached, so that callers can charge the work.
    pub fn flood(&mut self, board: &Board, occupied: &[bool], wall: Cell, seeds: &[Cell]) -> (Cell, usize) {
        let g = self.next_generation();
        let mut min = NONE;
        let mut count = 0;
        // Slices of one length let one comparison stand for `NONE` and both bounds checks.
        let n = self.stamp.len().min(occupied.len()).min(NONE as usize);
        let (stamp, occupied, stack) = (&mut self.stamp[..n], &occupied[..n], &mut self.stack);
        stack.clear();
        for &s in seeds {
            let i = s as usize;
            if i < n && s != wall && !occupied[i] && stamp[i] != g {
                stamp[i] = g;
                stack.push(s);
            }
        }
        while let Some(c) = stack.pop() {
            min = min.min(c);
            count += 1;
            for &t in &board.nbr[c as usize] {
                let i = t as usize;
                if i < n && t != wall && stamp[i] != g && !occupied[i] {
                    stamp[i] = g;
                    stack.push(t);
                }
            }
        }
        (min, count)
    }

    /// `fill` when the occupied cells are exactly `boxes` (a few, on a mostly empty
    /// board): they are stamped as met before the flood, one value below the area's, so
    /// each neighbour costs one test instead of two, and `reached` stays false for them.
    pub fn fill_among(&mut self, board: &Board, boxes: &[Cell], from: Cell) -> Cell {
        self.fill_moved(board, boxes, NONE, NONE, from)
    }

    /// `fill_among` once the box on `lifted` has moved to `placed`.
    pub fn fill_moved(&mut self, board: &Board, boxes: &[Cell], lifted: Cell, placed: Cell, from: Cell) -> Cell {
        self.next_generation();
        let mut g = self.next_generation();
        if g == 1 {
            g = self.next_generation(); // wrapped: every stamp is 0, and 0 must mean unmet
        }
        let n = self.stamp.len().min(NONE as usize);
        let (stamp, stack) = (&mut self.stamp[..n], &mut self.stack);
        for &b in boxes {
            stamp[b as usize] = g - 1;
        }
        if lifted != NONE {
            stamp[lifted as usize] = 0;
            stamp[placed as usize] = g - 1;
        }
        let mut min = NONE;
        stack.clear();
        if (from as usize) < n && stamp[from as usize] < g - 1 {
            stamp[from as usize] = g;
            stack.push(from);
        }
        while let Some(c) = stack.pop() {
            min = min.min(c);
            for &t in &board.nbr[c as usize] {
                let i = t as usize;
                if i < n && stamp[i] < g - 1 {
                    stamp[i] = g;
                    stack.push(t);
                }
            }
        }
        min
    }

    /// Can the player walk from `from` to `to` through cells not marked in `occupied`?
    /// Breadth first, stopping when `to` is met: the two are usually near each other
    /// (round a box), and the board far away need not be flooded. `reached` then tells
    /// only which cells were met.
    pub fn connects(&mut self, board: &Board, occupied: &[bool], from: Cell, to: Cell) -> bool {
        let g = self.next_generation();
        let n = self.stamp.len().min(occupied.len()).min(NONE as usize);
        let (stamp, occupied, queue) = (&mut self.stamp[..n], &occupied[..n], &mut self.stack);
        queue.clear();
        if (from as usize) >= n || occupied[from as usize] {
            return false;
        }
        stamp[from as usize] = g;
        queue.push(from);
        let mut head = 0;
        while let Some(&c) = queue.get(head) {
            if c == to {
                return true;
            }
            head += 1;
            stamp_free_neighbours(board, stamp, occupied, g, c, queue);
        }
        false
    }

    /// A fresh stamp value: every cell counts as unvisited again.
    fn next_generation(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.generation
    }

    /// How many separate areas of free floor the `occupied` cells cut the board into (the
    /// search counts with `Areas`; this is what those are tested against).
    #[cfg(test)]
    pub fn count_areas(&mut self, board: &Board, occupied: &[bool]) -> u16 {
        let g = self.next_generation();
        self.count_unstamped(board, occupied, g)
    }

    /// Right after a `fill` on the same layout: how many areas hold the free cells of
    /// `seeds`, the area of the fill included (it must hold one of them). Afterwards
    /// `reached` answers for all those areas together.
    pub fn count_areas_of_after_fill(&mut self, board: &Board, occupied: &[bool], seeds: &[Cell]) -> u16 {
        let g = self.generation;
        let more = seeds.iter().filter(|&&s| s != NONE && self.flood_new_area(board, occupied, s, g)).count();
        (1 + more).min(u16::MAX as usize) as u16
    }

    /// Flood and count the free areas whose cells are not yet stamped `g`.
    #[cfg(test)]
    fn count_unstamped(&mut self, board: &Board, occupied: &[bool], g: u32) -> u16 {
        let areas = (0..board.n as Cell).filter(|&c| self.flood_new_area(board, occupied, c, g)).count();
        areas.min(u16::MAX as usize) as u16
    }

    /// Stamp `g` on the area of `start` if it is free and not stamped yet; did it?
    fn flood_new_area(&mut self, board: &Board, occupied: &[bool], start: Cell, g: u32) -> bool {
        if occupied[start as usize] || self.stamp[start as usize] == g {
            return false;
        }
        self.stamp[start as usize] = g;
        let n = self.stamp.len().min(occupied.len()).min(NONE as usize);
        let (stamp, occupied, stack) = (&mut self.stamp[..n], &occupied[..n], &mut self.stack);
        stack.clear();
        stack.push(start);
        while let Some(c) = stack.pop() {
            stamp_free_neighbours(board, stamp, occupied, g, c, stack);
        }
        true
    }

    /// Was `c` reached by the latest fill?
    #[inline]
    pub fn reached(&self, c: Cell) -> bool {
        self.stamp[c as usize] == self.generation
    }

    /// For each direction d: can the player, in the area of the latest fill, stand behind
    /// the box on `b` to push it in direction d?
    pub fn behind(&self, board: &Board, b: Cell) -> [bool; 4] {
        std::array::from_fn(|d| {
            let stand = board.step(b, d ^ 1);
            stand != NONE && self.reached(stand)
        })
    }

    /// Where the box on `b` goes if the player, in the area of the latest fill, pushes it
    /// in direction `d`: `None` unless it lands on a free cell that is not dead forward.
    #[inline]
    pub fn push_to(&self, board: &Board, occupied: &[bool], b: Cell, d: usize) -> Option<Cell> {
        let (to, stand) = (board.step(b, d), board.step(b, d ^ 1));
        let ok = to != NONE
            && stand != NONE
            && !occupied[to as usize]
            && !board.dead_fwd[to as usize]
            && self.reached(stand);
        ok.then_some(to)
    }
}

/// Stamp `g` on each neighbour of `c` that is free and not stamped yet, and queue it. The
/// two slices have one length, at most `NONE`, so one comparison also rules out `NONE`
/// and both bounds checks.
#[inline(always)]
fn stamp_free_neighbours(board: &Board, stamp: &mut [u32], occupied: &[bool], g: u32, c: Cell, queue: &mut Vec<Cell>) {
    let n = stamp.len().min(occupied.len());
    for &t in &board.nbr[c as usize] {
        let i = t as usize;
        if i < n && stamp[i] != g && !occupied[i] {
            stamp[i] = g;
            queue.push(t);
        }
    }
}

/// The free areas of one layout, every free cell labelled with its area. A child layout
/// differs by one box moved, and its player's area then mostly follows from the labels
/// without a flood: the freed cell joins the areas around it, and the filled cell splits
/// nothing when the cells around it stay connected through their own ring.
pub struct Areas {
    /// Per cell: its area's id; an id below `base` is stale (the cell was not free).
    label: Vec<u32>,
    base: u32,
    /// Per area of the latest labelling: its two smallest cells (`NONE` if it has one).
    least: Vec<[Cell; 2]>,
    stack: Vec<Cell>,
    /// The latest child (see `child`): the areas its freed cell joins, and the area of
    /// its player if he is not among them.
    joined: [u32; 4],
    njoined: usize,
    player_joined: bool,
    player_area: u32,
    from: Cell,
    to: Cell,
}

impl Areas {
    pub fn new(cells: usize) -> Areas {
        Areas {
            label: vec![0; cells],
            base: 1,
            least: Vec::new(),
            stack: Vec::with_capacity(cells),
            joined: [0; 4],
            njoined: 0,
            player_joined: false,
            player_area: 0,
            from: NONE,
            to: NONE,
        }
    }

    /// Label the free areas of the layout in `occupied`.
    pub fn label(&mut self, board: &Board, occupied: &[bool]) {
        self.start_labels(board);
        self.label_the_rest(board, occupied);
    }

    /// `label`, and `reach` filled from `player` (free) as by `Reach::fill`: the player's
    /// area is flooded once for both. `boxes` is how many cells `occupied` marks: when the
    /// player's area holds every other cell, no scan looks for more areas.
    pub fn label_with_reach(
        &mut self,
        board: &Board,
        occupied: &[bool],
        boxes: usize,
        player: Cell,
        reach: &mut Reach,
    ) {
        self.start_labels(board);
        let g = reach.next_generation();
        let stamp = &mut reach.stamp;
        let size = self.label_area(board, occupied, player, |c| stamp[c as usize] = g);
        if size + boxes < board.n {
            self.label_the_rest(board, occupied);
        }
    }

    /// A fresh labelling: every label so far becomes stale.
    fn start_labels(&mut self, board: &Board) {
        let next = self.base as u64 + self.least.len() as u64;
        if next + board.n as u64 >= u32::MAX as u64 {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.base = 1;
        } else {
            self.base = next as u32;
        }
        self.least.clear();
    }

    /// Label the free cells not labelled yet, area by area.
    fn label_the_rest(&mut self, board: &Board, occupied: &[bool]) {
        let n = board.n.min(occupied.len()).min(self.label.len());
        for start in 0..n {
            if !occupied[start] && self.label[start] < self.base {
                self.label_area(board, occupied, start as Cell, |_| {});
            }
        }
    }

    /// Label the free area of `start` (not labelled yet) as the next area, keeping its
    /// two smallest cells; `mark` sees each of its cells. Returns how many it has.
    fn label_area(&mut self, board: &Board, occupied: &[bool], start: Cell, mut mark: impl FnMut(Cell)) -> usize {
        let (base, id) = (self.base, self.base + self.least.len() as u32);
        let mut least = [start, NONE];
        self.label[start as usize] = id;
        mark(start);
        // Slices of one length: one comparison stands for `NONE` and both bounds checks.
        let n = self.label.len().min(occupied.len()).min(NONE as usize);
        let (label, occupied, stack) = (&mut self.label[..n], &occupied[..n], &mut self.stack);
        stack.clear();
        stack.push(start);
        let mut size = 0;
        while let Some(c) = stack.pop() {
            size += 1;
            if c < least[0] {
                least = [c, least[0]];
            } else if c > least[0] && c < least[1] {
                least[1] = c;
            }
            for &t in &board.nbr[c as usize] {
                let i = t as usize;
                if i < n && !occupied[i] && label[i] < base {
                    label[i] = id;
                    mark(t);
                    stack.push(t);
                }
            }
        }
        self.least.push(least);
        size
    }

    /// Per cell, its area in the latest labelling, 0 for a cell that was not free or the
    /// first area's cells alike: `area_of` with both folded into 0.
    pub fn write_areas_or_zero(&self, out: &mut [u32]) {
        let base = self.base;
        for (o, &l) in out.iter_mut().zip(&self.label) {
            *o = l.saturating_sub(base);
        }
    }

    /// The area of free cell `c` in the latest labelling, numbered from 0 in the order the
    /// labelling found them (the player's first, after `label_with_reach`); `None` for a
    /// box.
    #[inline]
    pub fn area_of(&self, c: Cell) -> Option<u32> {
        let l = self.label[c as usize];
        (l >= self.base).then(|| l - self.base)
    }

    /// The smallest cell of free cell `c`'s area in the latest labelling; `NONE` for a box.
    pub fn smallest_in_area_of(&self, c: Cell) -> Cell {
        self.area_of(c).map_or(NONE, |a| self.least[a as usize][0])
    }

    /// How many areas the labelled layout has.
    pub fn count(&self) -> u16 {
        self.least.len().min(u16::MAX as usize) as u16
    }

    /// The canonical (smallest) cell of the player's area once the box on `from` of the
    /// labelled layout (still in `occupied`) moves to `to` and the player stands on
    /// `player`; `None` when the labels cannot tell (a flood must). Afterwards
    /// `child_reaches` and `child_count` answer for that child.
    pub fn child(&mut self, board: &Board, occupied: &[bool], from: Cell, to: Cell, player: Cell) -> Option<Cell> {
        if from == to || player == to || (player != from && occupied[player as usize]) {
            return None;
        }
        if !self.stays_connected(board, occupied, from, to) {
            return None;
        }
        self.from = from;
        self.to = to;
        let mut joined = [0; 4];
        let around = board.nbr[from as usize].into_iter().filter(|&t| t != NONE && t != to && !occupied[t as usize]);
        self.njoined = self.distinct_areas(around, &mut joined);
        self.joined = joined;
        self.player_joined = player == from || self.joined[..self.njoined].contains(&self.area(player));
        if self.player_joined {
            let joined = &self.joined[..self.njoined];
            Some(joined.iter().map(|&a| self.least_but(a, to)).fold(from, Cell::min))
        } else {
            self.player_area = self.area(player);
            Some(self.least_but(self.player_area, to))
        }
    }

    /// How many areas the layout `child` has: the labelled one with a box moved from
    /// `from` to `to`, the player beside it, his area just filled into `reach` (when the
    /// labels could not tell it). Only the areas around `from` and `to`'s own change, and
    /// each of their pieces holds `from` or a cell beside `to`: only those are flooded.
    pub fn count_after_fill(&self, board: &Board, child: &[bool], from: Cell, to: Cell, reach: &mut Reach) -> u16 {
        let [a, b, c, d] = board.nbr[to as usize];
        let pieces = reach.count_areas_of_after_fill(board, child, &[a, b, c, d, from]);
        self.count_with_pieces(board, child, from, to, pieces)
    }

    /// `count_after_fill` when the child's areas that hold `from` or a cell beside `to`
    /// are known to be `pieces` (`Blocks::without`).
    pub fn count_with_pieces(&self, board: &Board, child: &[bool], from: Cell, to: Cell, pieces: u16) -> u16 {
        let around = board.nbr[from as usize].into_iter().filter(|&t| t != NONE && (t == to || !child[t as usize]));
        let touched = self.distinct_areas(std::iter::once(to).chain(around), &mut [0; 5]);
        self.count() + pieces - touched as u16
    }

    /// The distinct areas of `cells`, free cells of the labelled layout, into `out`; how
    /// many there are.
    fn distinct_areas(&self, cells: impl Iterator<Item = Cell>, out: &mut [u32]) -> usize {
        let mut n = 0;
        for c in cells {
            let a = self.area(c);
            if !out[..n].contains(&a) {
                out[n] = a;
                n += 1;
            }
        }
        n
    }

    /// Does the latest `child`'s player area hold cell `x`? (The tests check the labels
    /// against a flood with it.)
    #[cfg(test)]
    pub fn child_reaches(&self, occupied: &[bool], x: Cell) -> bool {
        if x == self.to {
            return false;
        }
        if x == self.from {
            return self.player_joined;
        }
        if occupied[x as usize] {
            return false;
        }
        let a = self.area(x);
        if self.player_joined {
            self.joined[..self.njoined].contains(&a)
        } else {
            a == self.player_area
        }
    }

    /// How many areas the latest `child`'s layout has.
    pub fn child_count(&self) -> u16 {
        let vanished = self.least[self.area(self.to) as usize] == [self.to, NONE];
        let n = self.least.len() + 1 - self.njoined - vanished as usize;
        n.min(u16::MAX as usize) as u16
    }

    fn area(&self, free: Cell) -> u32 {
        self.label[free as usize] - self.base
    }

    /// The smallest cell of area `a` other than `to`.
    fn least_but(&self, a: u32, to: Cell) -> Cell {
        let [first, second] = self.least[a as usize];
        if first == to {
            second
        } else {
            first
        }
    }

    /// Are the free cells next to `to` still connected once a box stands there? Checked
    /// in the ring of eight cells around it (with `from` free): enough, not necessary.
    fn stays_connected(&self, board: &Board, occupied: &[bool], from: Cell, to: Cell) -> bool {
        let o = board.nbr[to as usize];
        let diagonal = |a: usize, b: usize| {
            if o[a] != NONE {
                board.nbr[o[a] as usize][b]
            } else if o[b] != NONE {
                board.nbr[o[b] as usize][a]
            } else {
                NONE
            }
        };
        // U, UL, L, DL, D, DR, R, UR: each cell touches the next.
        let ring = [o[0], diagonal(0, 2), o[2], diagonal(2, 1), o[1], diagonal(1, 3), o[3], diagonal(3, 0)];
        let free = |x: Cell| x != NONE && (x == from || !occupied[x as usize]);
        // The cells of `to`'s area beside it: those must stay together.
        let must = |x: Cell| x != NONE && x != from && !occupied[x as usize];
        if o.iter().filter(|&&x| must(x)).count() <= 1 {
            return true;
        }
        let start = match (0..8).find(|&i| !free(ring[i])) {
            Some(s) => s,
            None => return true,
        };
        let (mut runs, mut in_run, mut run_must) = (0, false, false);
        for k in 1..=8 {
            let i = (start + k) % 8;
            if free(ring[i]) {
                if !in_run {
                    in_run = true;
                    run_must = false;
                }
                run_must |= i % 2 == 0 && must(ring[i]);
            } else {
                runs += (in_run && run_must) as u32;
                in_run = false;
            }
        }
        runs <= 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{layouts, numbers, ROOMS};

    #[test]
    fn boxes_split_the_area() {
        let b = Board::from_text("#######\n#  $ @#\n#.######\n");
        let mut occ = vec![false; b.n];
        for &c in &b.start_boxes {
            occ[c as usize] = true;
        }
        let mut r = Reach::new(b.n);
        let min = r.fill(&b, &occ, b.start_player);
        assert_eq!(b.xy(min), (4, 1));
        assert!(r.reached(b.start_player));
        let left = b.grid_of.iter().position(|&g| g == b.width + 1).unwrap() as Cell;
        assert!(!r.reached(left));
        occ.iter_mut().for_each(|o| *o = false);
        let min = r.fill(&b, &occ, b.start_player);
        assert!(r.reached(left));
        assert_eq!(b.xy(min), (1, 1));
    }

    #[test]
    fn areas_are_counted() {
        let b = Board::from_text("#######\n#  $ @#\n#.######\n");
        let mut occ = vec![false; b.n];
        assert_eq!(Reach::new(b.n).count_areas(&b, &occ), 1);
        for &c in &b.start_boxes {
            occ[c as usize] = true;
        }
        assert_eq!(Reach::new(b.n).count_areas(&b, &occ), 2);
        let mut r = Reach::new(b.n);
        r.fill(&b, &occ, b.start_player);
        let box_cell = b.start_boxes[0];
        let seeds = [b.step(box_cell, 2), b.step(box_cell, 3)];
        assert_eq!(r.count_areas_of_after_fill(&b, &occ, &seeds), 2);
        assert_eq!(r.count_areas_of_after_fill(&b, &occ, &seeds), 1, "both areas are stamped now");
    }

    #[test]
    fn one_area_holding_every_free_cell_is_labelled_without_a_scan() {
        let b = Board::from_text("#######\n#  $ @#\n#.    #\n#######\n");
        let (mut areas, mut reach) = (Areas::new(b.n), Reach::new(b.n));
        let mut occ = vec![false; b.n];
        // Two areas first, so that the next labelling starts over stale labels.
        let cut = b.grid_of.iter().position(|&g| g == 2 * b.width + 4).unwrap();
        let box_cell = b.start_boxes[0] as usize;
        occ[box_cell] = true;
        occ[cut] = true;
        areas.label_with_reach(&b, &occ, 2, b.start_player, &mut reach);
        assert_eq!(areas.count(), 2);
        occ[cut] = false;
        areas.label_with_reach(&b, &occ, 1, b.start_player, &mut reach);
        assert_eq!(areas.count(), 1);
        for c in 0..b.n {
            assert_eq!(areas.area_of(c as Cell), (!occ[c]).then_some(0), "cell {}", c);
            assert_eq!(reach.reached(c as Cell), !occ[c]);
        }
    }

    /// The fills that stamp the boxes first, or stop at a cell, reach what the plain
    /// fill reaches: the same smallest cell, the same cells, never a box; one `Reach`
    /// used over and over, so that stale stamps of every kind are in the way.
    #[test]
    fn box_stamped_fills_and_walks_round_agree_with_the_plain_fill() {
        let b = Board::from_text(ROOMS);
        let (mut plain, mut among, mut walk) = (Reach::new(b.n), Reach::new(b.n), Reach::new(b.n));
        let mut rnd = numbers(29);
        let (mut moved, mut met, mut missed) = (0, 0, 0);
        for (mut occ, root) in layouts(&b, 17) {
            let boxes: Vec<Cell> = (0..b.n as Cell).filter(|&c| occ[c as usize]).collect();
            let least = plain.fill(&b, &occ, root);
            assert_eq!(among.fill_among(&b, &boxes, root), least);
            for c in 0..b.n as Cell {
                assert_eq!(among.reached(c), plain.reached(c), "cell {}", c);
            }
            let to = rnd(b.n) as Cell;
            assert_eq!(walk.connects(&b, &occ, root, to), plain.reached(to), "{} to {}", root, to);
            if plain.reached(to) {
                met += 1;
            } else {
                missed += 1;
            }
            // A box moved: from a box cell onto a free one other than the root.
            let Some(&from) = boxes.get(rnd(boxes.len().max(1))) else { continue };
            if occ[to as usize] || to == root {
                continue;
            }
            moved += 1;
            occ[from as usize] = false;
            occ[to as usize] = true;
            let least = plain.fill(&b, &occ, root);
            assert_eq!(among.fill_moved(&b, &boxes, from, to, root), least);
            for c in 0..b.n as Cell {
                assert_eq!(among.reached(c), plain.reached(c), "cell {} after {} -> {}", c, from, to);
            }
        }
        assert!(moved > 500 && met > 300 && missed > 300, "{} {} {}", moved, met, missed);
    }

    /// Wrapping the stamps round starts them over, for the box-stamped fill too.
    #[test]
    fn box_stamped_fill_survives_the_stamps_wrapping() {
        let b = Board::from_text(ROOMS);
        let boxes = b.start_boxes.clone();
        let mut occ = vec![false; b.n];
        for &c in &boxes {
            occ[c as usize] = true;
        }
        let mut plain = Reach::new(b.n);
        let least = plain.fill(&b, &occ, b.start_player);
        for start in [u32::MAX - 2, u32::MAX - 1, u32::MAX] {
            let mut r = Reach::new(b.n);
            r.generation = start;
            for fill in 0..3 {
                assert_eq!(r.fill_among(&b, &boxes, b.start_player), least, "from {}, fill {}", start, fill);
                for c in 0..b.n as Cell {
                    assert_eq!(r.reached(c), plain.reached(c), "from {}, fill {}, cell {}", start, fill, c);
                }
            }
        }
    }

    #[test]
    fn labels_tell_a_childs_area_as_a_flood_does() {
        let b = Board::from_text(
            "##########\n#   #    #\n#    $   #\n# #  ## .#\n#    #   #\n##  @    #\n #   # ###\n #####\n",
        );
        let mut rnd = numbers(11);
        let (mut areas, mut flood, mut parent_reach) = (Areas::new(b.n), Reach::new(b.n), Reach::new(b.n));
        let (mut asked, mut told, mut unlabelled) = (0, 0, 0);
        for _ in 0..4000 {
            let mut occ: Vec<bool> = (0..b.n).map(|_| rnd(3) == 0).collect();
            let from = rnd(b.n) as Cell;
            let to = rnd(b.n) as Cell;
            if from == to {
                continue;
            }
            occ[from as usize] = true;
            occ[to as usize] = false;
            // Half the time the player stands where the box was, as after a push.
            let player = if rnd(2) == 0 { from } else { rnd(b.n) as Cell };
            if player == to || (player != from && occ[player as usize]) {
                continue;
            }
            // Half the time the parent's player area fills a reach in the same pass.
            let parent_player = rnd(b.n) as Cell;
            if occ[parent_player as usize] || rnd(2) == 0 {
                areas.label(&b, &occ);
            } else {
                areas.label_with_reach(&b, &occ, occ.iter().filter(|&&o| o).count(), parent_player, &mut parent_reach);
                flood.fill(&b, &occ, parent_player);
                for x in 0..b.n as Cell {
                    assert_eq!(parent_reach.reached(x), flood.reached(x), "cell {}", x);
                }
            }
            assert_eq!(areas.count(), flood.count_areas(&b, &occ));
            let mut zeroed = vec![7; b.n];
            areas.write_areas_or_zero(&mut zeroed);
            for (x, &k) in zeroed.iter().enumerate() {
                assert_eq!(k, areas.area_of(x as Cell).unwrap_or(0), "cell {}", x);
            }
            asked += 1;
            let mut after = occ.clone();
            after[from as usize] = false;
            after[to as usize] = true;
            let norm = match areas.child(&b, &occ, from, to, player) {
                Some(n) => n,
                None => {
                    // The player beside the box: his area and only the changed ones.
                    if b.nbr[to as usize].contains(&player) {
                        flood.fill(&b, &after, player);
                        let mut count = Reach::new(b.n);
                        let n = areas.count_after_fill(&b, &after, from, to, &mut flood);
                        assert_eq!(n, count.count_areas(&b, &after));
                        unlabelled += 1;
                    }
                    continue;
                }
            };
            told += 1;
            assert_eq!(norm, flood.fill(&b, &after, player));
            for x in 0..b.n as Cell {
                assert_eq!(areas.child_reaches(&occ, x), flood.reached(x), "cell {}", x);
            }
            assert_eq!(areas.child_count(), flood.count_areas(&b, &after));
        }
        // The labels must answer most of the time, or they save nothing.
        assert!(told * 2 > asked, "only {} of {} children told by labels", told, asked);
        assert!(unlabelled > 50, "only {} children counted without labels", unlabelled);
    }
}
