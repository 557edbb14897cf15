//! The lower bound: a minimum-cost perfect matching of boxes to targets (goals going
//! forward, start cells going backward) on lone-box push distances, solved with the
//! Hungarian method (shortest augmenting paths with potentials).
//!
//! A push moves one box, which changes one row of the cost matrix, so a child's matching
//! is its parent's with that row re-inserted: one augmentation, O(n^2) instead of O(n^3).
//! A box moved whole has dozens of children, each a new row in place of the same one:
//! one Dijkstra over the columns prices them all, O(n) each (`release_costs`).
//! No perfect matching on finite distances means the position is a deadlock.

/// Cost of an impossible pairing; large enough to dominate, small enough not to overflow.
pub const IMPOSSIBLE: i32 = 1 << 20;
/// Potentials beyond this are reset by a fresh solve (see `potentials_are_small`).
const POTENTIAL_LIMIT: u32 = 1 << 28;

#[derive(Clone, Debug)]
pub struct Matching {
    n: usize,
    /// Row-major `n * n` costs, rows = boxes, columns = targets.
    pub cost: Vec<i32>,
    u: Vec<i32>,
    v: Vec<i32>,
    /// `col_row[j]`: 1-based row matched to 1-based column `j` (0 = free).
    col_row: Vec<usize>,
    /// `insert_row`'s settled columns as masks (-1 settled, 0 not), for vector code;
    /// `way[j]`: the column before `j` on its shortest path (`i32`, the masks' width).
    settled: Vec<i32>,
    way: Vec<i32>,
    minv: Vec<i32>,
    /// Scratch for `solve`: rows already matched.
    row_done: Vec<bool>,
    shift_at: Vec<i32>,
    /// The cost of the matching of the latest `solve` or `rebase`, on `cost` (a child's
    /// fast repair in `changed_row_cost` starts from its parent's).
    sum: i32,
    /// Scratch for `rebase`: the old costs and row potentials, and old row -> new row.
    old_cost: Vec<i32>,
    old_u: Vec<i32>,
    renumber: Vec<usize>,
}

impl Matching {
    pub fn new(n: usize) -> Matching {
        Matching {
            n,
            cost: vec![0; n * n],
            u: vec![0; n + 1],
            v: vec![0; n + 1],
            col_row: vec![0; n + 1],
            way: vec![0; n + 1],
            settled: vec![0; n + 1],
            minv: vec![0; n + 1],
            row_done: vec![false; n + 1],
            shift_at: vec![0; n + 1],
            sum: IMPOSSIBLE,
            old_cost: vec![0; n * n],
            old_u: vec![0; n + 1],
            renumber: vec![0; n + 1],
        }
    }

    /// Solve from scratch; returns the total cost (>= IMPOSSIBLE means no perfect matching).
    pub fn solve(&mut self) -> i32 {
        let n = self.n;
        self.u.iter_mut().for_each(|x| *x = 0);
        self.col_row.iter_mut().for_each(|x| *x = 0);
        // Column reduction: each column's minimum as its potential keeps every reduced
        // cost non-negative, and a column's minimum row, if still free, is a tight pair.
        // Most boxes have a goal of their own, so few rows are left to augment.
        let mut row_done = std::mem::take(&mut self.row_done);
        row_done.iter_mut().for_each(|x| *x = false);
        for j in 1..=n {
            let (mut best, mut arg) = (i32::MAX, 0);
            for i in 1..=n {
                let c = self.cost[(i - 1) * n + (j - 1)];
                if c < best {
                    best = c;
                    arg = i;
                }
            }
            self.v[j] = best;
            if !row_done[arg] {
                row_done[arg] = true;
                self.col_row[j] = arg;
            }
        }
        self.v[0] = 0;
        // Row reduction: a row's cheapest reduced cost as its potential keeps the duals
        // feasible; if a free column attains it, the pair is tight and taken as it is.
        // When many boxes share one nearest goal (a room far away), this leaves few rows
        // for the costly augmentations.
        let mut left = Vec::new();
        for i in (1..=n).filter(|&i| !row_done[i]) {
            let row = &self.cost[(i - 1) * n..i * n];
            let cheapest = cheapest_reduced(row, &self.v);
            self.u[i] = cheapest;
            match (1..=n).find(|&j| self.col_row[j] == 0 && row[j - 1] - self.v[j] == cheapest) {
                Some(j) => self.col_row[j] = i,
                None => left.push(i),
            }
        }
        self.row_done = row_done;
        self.insert_own_rows(left)
    }

    /// The cost of `parent`'s optimal matching with row `row` (0-based) replaced by `costs`.
    /// `self` (of `parent`'s size) is scratch for the repair and holds no matching
    /// afterwards. The costs are read from `parent` and `costs`: copying the matrix for
    /// every child was a few percent of the search.
    #[cfg(not(judge))]
    pub fn changed_row_cost(&mut self, parent: &Matching, row: usize, costs: &[i32]) -> i32 {
        match parent.kept_column_cost(row, costs) {
            Some(cost) => cost,
            None => self.repaired_row_cost(parent, row, costs),
        }
    }

    /// `changed_row_cost` by an augmentation, whatever column the row gets.
    pub fn repaired_row_cost(&mut self, parent: &Matching, row: usize, costs: &[i32]) -> i32 {
        let n = self.n;
        let r = row + 1;
        let view = Costs { n, cost: &parent.cost, changed: r, row: costs };
        let column = parent.column_of(r);
        self.u.copy_from_slice(&parent.u);
        self.v.copy_from_slice(&parent.v);
        self.col_row.copy_from_slice(&parent.col_row);
        // `self.cost` is not this matching's: it cannot be the parent of a fast repair.
        self.sum = IMPOSSIBLE;
        self.u[r] = 0;
        match column {
            Some(j) => {
                self.col_row[j] = 0;
                // The row's old column is the only free one: the augmenting path ends there.
                self.insert_row(view, r, j);
            }
            None => self.insert_row(view, r, 0),
        }
        self.total(view)
    }

    /// The values beside the costs that a repair starts from: the potentials and the
    /// pairs, `3 * (n + 1)` of them (`restore_duals` puts them back).
    pub const fn duals_len(n: usize) -> usize {
        3 * (n + 1)
    }

    /// Writes the potentials and the pairs into `out` (`duals_len` values).
    pub fn save_duals(&self, out: &mut [i32]) {
        let m = self.n + 1;
        out[..m].copy_from_slice(&self.u);
        out[m..2 * m].copy_from_slice(&self.v);
        for (o, &r) in out[2 * m..3 * m].iter_mut().zip(&self.col_row) {
            *o = r as i32;
        }
    }

    /// The matching `save_duals` saved, once `cost` holds its rows again.
    pub fn restore_duals(&mut self, from: &[i32]) {
        let m = self.n + 1;
        self.u.copy_from_slice(&from[..m]);
        self.v.copy_from_slice(&from[m..2 * m]);
        for (r, &o) in self.col_row.iter_mut().zip(&from[2 * m..3 * m]) {
            *r = o as usize;
        }
    }

    /// The 1-based column matched to 1-based row `r`. Column 0 is the algorithm's
    /// scratch slot and may still name the row.
    fn column_of(&self, r: usize) -> Option<usize> {
        (1..=self.n).find(|&j| self.col_row[j] == r)
    }

    /// `changed_row_cost` where the row keeps its column, without a repair; `None` where
    /// it may not. Most pushes keep a box headed for the same target. If that column is
    /// still among the row's cheapest under the column potentials, the row keeps it with
    /// u = that reduced cost: every other row is untouched, so the duals stay feasible
    /// and tight on the matching, which is therefore still optimal. Only the row's own
    /// pair changed, so the parent's sum gives the cost (on levels with a hundred boxes,
    /// summing every column and copying the parent's potentials for it took a quarter of
    /// the time). A parent at or past `IMPOSSIBLE` may have saturated its sum: that one
    /// is summed afresh.
    pub fn kept_column_cost(&self, row: usize, costs: &[i32]) -> Option<i32> {
        let (n, r) = (self.n, row + 1);
        let j = self.column_of(r)?;
        if costs[j - 1] - self.v[j] != cheapest_reduced(costs, &self.v) {
            return None;
        }
        if self.sum < IMPOSSIBLE {
            let old = self.cost[(r - 1) * n + (j - 1)].min(IMPOSSIBLE);
            return Some(self.sum - old + costs[j - 1].min(IMPOSSIBLE));
        }
        Some(self.total(Costs { n, cost: &self.cost, changed: r, row: costs }))
    }

    /// For many children that each put a new row in place of row `row` (0-based): per
    /// column j, the least reduced cost of moving the other rows along alternating paths
    /// so that j is given up and the row's old column taken instead (0 for that column),
    /// by one Dijkstra from the old column, into `release`. With it `cost_with_row`
    /// prices a new row in one pass over the columns, where `changed_row_cost` runs an
    /// augmentation per row. False (and `release` unusable) if the matching is not one
    /// such pricing is exact for: impossible, or the row unmatched.
    pub fn release_costs(&mut self, row: usize, release: &mut Vec<i64>) -> bool {
        let n = self.n;
        release.clear();
        release.resize(n + 1, i64::MAX);
        let Some(j0) = self.column_of(row + 1).filter(|_| self.sum < IMPOSSIBLE) else { return false };
        let done = &mut self.row_done;
        done.iter_mut().for_each(|d| *d = false);
        release[j0] = 0;
        let mut settled = j0;
        loop {
            done[settled] = true;
            let (base, v) = (release[settled], self.v[settled] as i64);
            let mut next = (i64::MAX, 0);
            for j in (1..=n).filter(|&j| !done[j]) {
                // Column j's row moves over to the column just settled.
                let i = self.col_row[j];
                if i == 0 {
                    continue;
                }
                let reduced = self.cost[(i - 1) * n + (settled - 1)] as i64 - self.u[i] as i64 - v;
                release[j] = release[j].min(base + reduced);
                next = next.min((release[j], j));
            }
            if next.1 == 0 || next.0 == i64::MAX {
                return true;
            }
            settled = next.1;
        }
    }

    /// The cost of the matching with row `row` (0-based) replaced by `costs`, from its
    /// `release_costs`: the parent's sum without the row's old pair, plus the cheapest
    /// column for the new row counting what giving it up costs the others. At least
    /// `IMPOSSIBLE` is reported as `IMPOSSIBLE`.
    pub fn cost_with_row(&self, row: usize, release: &[i64], costs: &[i32]) -> i32 {
        let n = self.n;
        let Some(j0) = self.column_of(row + 1) else { return IMPOSSIBLE };
        let best = (1..=n)
            .filter(|&j| release[j] != i64::MAX)
            .map(|j| costs[j - 1] as i64 - self.v[j] as i64 + release[j])
            .min()
            .unwrap_or(i64::MAX / 2);
        let old = self.cost[row * n + (j0 - 1)] as i64;
        let total = self.sum as i64 - old + self.v[j0] as i64 + best;
        total.min(IMPOSSIBLE as i64) as i32
    }

    /// Re-solve for rows that are mostly the old ones in a new order: new row `k` (0-based)
    /// is old row `old_row[k]`, or, if `None`, a new row with costs `fresh[k * n..]`. The
    /// kept rows keep their potentials, so only the new rows need an augmentation each.
    pub fn rebase(&mut self, old_row: &[Option<usize>], fresh: &[i32]) -> i32 {
        let n = self.n;
        // Every row of `cost` is written below, so the old matrix need not be copied first.
        std::mem::swap(&mut self.old_cost, &mut self.cost);
        self.old_u.copy_from_slice(&self.u);
        self.renumber.iter_mut().for_each(|r| *r = 0);
        for (k, &p) in old_row.iter().enumerate() {
            let row = k * n..(k + 1) * n;
            match p {
                Some(p) => {
                    self.cost[row].copy_from_slice(&self.old_cost[p * n..(p + 1) * n]);
                    self.u[k + 1] = self.old_u[p + 1];
                    self.renumber[p + 1] = k + 1;
                }
                None => {
                    self.cost[row.clone()].copy_from_slice(&fresh[row]);
                    self.u[k + 1] = 0;
                }
            }
        }
        // A dropped row's column is free again (`renumber` gives it row 0).
        for j in 1..=n {
            self.col_row[j] = self.renumber[self.col_row[j]];
        }
        let fresh_rows = old_row.iter().enumerate().filter(|(_, p)| p.is_none()).map(|(k, _)| k + 1);
        self.insert_own_rows(fresh_rows)
    }

    /// Augment rows `rows` (1-based) into the matching on its own costs; the total. The
    /// costs are lent out meanwhile, since `insert_row` changes the rest of `self`.
    fn insert_own_rows(&mut self, rows: impl IntoIterator<Item = usize>) -> i32 {
        let cost = std::mem::take(&mut self.cost);
        let costs = Costs::whole(self.n, &cost);
        for i in rows {
            self.insert_row(costs, i, 0);
        }
        let total = self.total(costs);
        self.cost = cost;
        self.sum = total;
        total
    }

    /// Repairs keep the potentials, and each augmentation moves them a little further:
    /// past this size a repair could overflow, and the caller solves afresh instead.
    pub fn potentials_are_small(&self) -> bool {
        self.u.iter().chain(&self.v).all(|p| p.unsigned_abs() < POTENTIAL_LIMIT)
    }

    fn total(&self, costs: Costs) -> i32 {
        let n = self.n;
        let mut sum: i32 = 0;
        for j in 1..=n {
            let i = self.col_row[j];
            sum = sum.saturating_add(costs.row(i)[j - 1].min(IMPOSSIBLE));
        }
        sum
    }

    /// One Dijkstra-like augmentation adding row `i` (1-based) to the matching. The
    /// potentials move once, at the end: `minv` holds each column's distance plus the
    /// total shift so far, and `shift_at` the shift when a column was settled. `free`
    /// (0 for none) is a free column taken first among equally near ones: the search can
    /// stop there, where it would settle every other column at that distance first (often
    /// dozens, when many boxes are as near their goals). Any tie gives an optimal matching,
    /// and the bound is only its cost, so the search is the same node for node.
    fn insert_row(&mut self, costs: Costs, i: usize, free: usize) {
        let n = self.n;
        self.col_row[0] = i;
        let mut j0 = 0usize;
        let mut shift = 0i32;
        self.minv.iter_mut().for_each(|x| *x = i32::MAX);
        self.settled.iter_mut().for_each(|x| *x = 0);
        loop {
            self.settled[j0] = -1;
            self.shift_at[j0] = shift;
            let i0 = self.col_row[j0];
            let mut best = i32::MAX;
            let mut j1 = 0;
            let row = &costs.row(i0)[..n];
            let base = shift - self.u[i0];
            // The hottest loop of the search on levels with many boxes, in passes without
            // branches that the compiler turns into vector code: relax every column, find
            // the least distance among the unsettled ones, then the first column with it.
            // Settled columns compute a value too, which the mask drops (so it may wrap).
            let (minv, way) = (&mut self.minv[1..=n], &mut self.way[1..=n]);
            let (v, settled) = (&self.v[1..=n], &self.settled[1..=n]);
            let j0_tag = j0 as i32;
            for j in 0..n {
                let cur = row[j].wrapping_add(base).wrapping_sub(v[j]);
                let better = -((cur < minv[j]) as i32) & !settled[j];
                minv[j] = (cur & better) | (minv[j] & !better);
                way[j] = (j0_tag & better) | (way[j] & !better);
            }
            for j in 0..n {
                best = best.min((minv[j] & !settled[j]) | (i32::MAX & settled[j]));
            }
            if free != 0 && settled[free - 1] == 0 && minv[free - 1] == best {
                j1 = free;
            } else if best != i32::MAX {
                j1 = (0..n).find(|&j| settled[j] == 0 && minv[j] == best).map_or(0, |j| j + 1);
            }
            shift = best;
            j0 = j1;
            if self.col_row[j0] == 0 {
                break;
            }
        }
        for j in 0..=n {
            if self.settled[j] != 0 {
                let delta = shift - self.shift_at[j];
                self.u[self.col_row[j]] += delta;
                self.v[j] -= delta;
            }
        }
        loop {
            let j1 = self.way[j0] as usize;
            self.col_row[j0] = self.col_row[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
}

/// The cost matrix a solve reads: `cost`, with row `changed` (1-based; 0 for none) read
/// from `row` instead.
#[derive(Clone, Copy)]
struct Costs<'a> {
    n: usize,
    cost: &'a [i32],
    changed: usize,
    row: &'a [i32],
}

impl<'a> Costs<'a> {
    fn whole(n: usize, cost: &'a [i32]) -> Costs<'a> {
        Costs { n, cost, changed: 0, row: &[] }
    }

    #[inline]
    fn row(&self, i: usize) -> &'a [i32] {
        if i == self.changed {
            self.row
        } else {
            &self.cost[(i - 1) * self.n..i * self.n]
        }
    }
}

/// A row's cheapest reduced cost under the column potentials `v` (1-based, `v[0]` unused).
fn cheapest_reduced(row: &[i32], v: &[i32]) -> i32 {
    row.iter().zip(&v[1..]).map(|(c, p)| c - p).min().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(n: usize, cost: &[i32]) -> i32 {
        fn go(n: usize, row: usize, used: &mut Vec<bool>, cost: &[i32]) -> i32 {
            if row == n {
                return 0;
            }
            let mut best = i32::MAX;
            for j in 0..n {
                if !used[j] {
                    used[j] = true;
                    let c = cost[row * n + j].min(IMPOSSIBLE).saturating_add(go(n, row + 1, used, cost));
                    best = best.min(c);
                    used[j] = false;
                }
            }
            best
        }
        go(n, 0, &mut vec![false; n], cost)
    }

    fn lcg(seed: &mut u64) -> i32 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((*seed >> 33) % 13) as i32
    }

    /// A cost of 0 to 11, or `IMPOSSIBLE` one time in 13.
    fn cost_or_impossible(seed: &mut u64) -> i32 {
        match lcg(seed) {
            12 => IMPOSSIBLE,
            x => x,
        }
    }

    #[test]
    fn matches_brute_force_and_incremental_agrees() {
        let mut seed = 7;
        for n in 1..=6 {
            for _ in 0..40 {
                let mut m = Matching::new(n);
                m.cost.iter_mut().for_each(|c| *c = cost_or_impossible(&mut seed));
                let want = brute(n, &m.cost);
                assert_eq!(m.solve(), want);
                let row = (lcg(&mut seed) as usize) % n;
                let costs: Vec<i32> = (0..n).map(|_| lcg(&mut seed)).collect();
                let mut child = Matching::new(n);
                let got = child.changed_row_cost(&m, row, &costs);
                let mut full = m.cost.clone();
                full[row * n..(row + 1) * n].copy_from_slice(&costs);
                assert_eq!(got, brute(n, &full));
                // A row that moves by one (the common push) takes the fast path often.
                let mut near = m.cost[row * n..(row + 1) * n].to_vec();
                let k = (lcg(&mut seed) as usize) % n;
                near[k] += 1;
                let got = child.changed_row_cost(&m, row, &near);
                full[row * n..(row + 1) * n].copy_from_slice(&near);
                assert_eq!(got, brute(n, &full));
            }
        }
    }

    /// A search costs each child from its parent, whose matching was itself repaired
    /// from the last one (`rebase`), again and again; the costs, whose augmenting paths
    /// stop at the freed column among equally near ones, must stay what a fresh solve
    /// gives (brute force for small matrices).
    #[test]
    fn chains_of_repairs_stay_optimal() {
        let mut seed = 11;
        let mut release = Vec::new();
        for n in [2, 5, 7, 12, 30] {
            let mut m = Matching::new(n);
            let mut scratch = Matching::new(n);
            for c in m.cost.iter_mut() {
                *c = lcg(&mut seed) % 4;
            }
            m.solve();
            for _ in 0..200 {
                let row = lcg(&mut seed) as usize % n;
                // Few distinct costs make many ties, as boxes equally near their goals do;
                // a row near its old one takes the fast path.
                let mut costs: Vec<i32> = m.cost[row * n..(row + 1) * n].to_vec();
                for c in costs.iter_mut() {
                    if lcg(&mut seed) % 3 == 0 {
                        *c = lcg(&mut seed) % 4;
                    }
                }
                let got = scratch.changed_row_cost(&m, row, &costs);
                let mut full = m.cost.clone();
                full[row * n..(row + 1) * n].copy_from_slice(&costs);
                let mut fresh = Matching::new(n);
                fresh.cost = full.clone();
                let want = if n <= 7 { brute(n, &full) } else { fresh.solve() };
                assert_eq!(got, want);
                // Priced from the release costs instead, as a parent's many children are.
                assert!(m.release_costs(row, &mut release));
                assert_eq!(m.cost_with_row(row, &release, &costs), want.min(IMPOSSIBLE));
                // The next parent: this child, rebased from its parent as the search does.
                let old_row: Vec<Option<usize>> = (0..n).map(|k| (k != row).then_some(k)).collect();
                let mut new_rows = vec![0; n * n];
                new_rows[row * n..(row + 1) * n].copy_from_slice(&costs);
                assert_eq!(m.rebase(&old_row, &new_rows), want);
                if !m.potentials_are_small() {
                    break;
                }
            }
        }
    }

    #[test]
    fn rebased_rows_match_brute_force() {
        let mut seed = 3;
        for n in 1..=6 {
            let mut m = Matching::new(n);
            m.cost.iter_mut().for_each(|c| *c = cost_or_impossible(&mut seed));
            m.solve();
            // One matching repaired again and again, as a search does.
            for _ in 0..300 {
                // Shuffle the rows, then replace a few of them.
                let mut old_row: Vec<Option<usize>> = (0..n).map(Some).collect();
                for k in (1..n).rev() {
                    old_row.swap(k, lcg(&mut seed) as usize % (k + 1));
                }
                for _ in 0..lcg(&mut seed) % 3 {
                    old_row[lcg(&mut seed) as usize % n] = None;
                }
                let fresh: Vec<i32> = (0..n * n).map(|_| lcg(&mut seed)).collect();
                let mut want = vec![0; n * n];
                for (k, p) in old_row.iter().enumerate() {
                    let src = match p {
                        Some(p) => &m.cost[p * n..(p + 1) * n],
                        None => &fresh[k * n..(k + 1) * n],
                    };
                    want[k * n..(k + 1) * n].copy_from_slice(src);
                }
                assert_eq!(m.rebase(&old_row, &fresh), brute(n, &want));
                assert_eq!(m.cost, want);
                assert!(m.potentials_are_small());
            }
        }
    }

    /// Many rows in place of one, each priced from the row's release costs, cost what
    /// brute force says (at least `IMPOSSIBLE` as `IMPOSSIBLE`), impossible pairs too.
    #[test]
    fn rows_priced_by_release_costs_match_brute_force() {
        let mut seed = 5;
        let mut release = Vec::new();
        let mut priced = 0;
        for n in 1..=6 {
            for _ in 0..40 {
                let mut m = Matching::new(n);
                m.cost.iter_mut().for_each(|c| *c = cost_or_impossible(&mut seed));
                let row = lcg(&mut seed) as usize % n;
                if m.solve() >= IMPOSSIBLE {
                    assert!(!m.release_costs(row, &mut release));
                    continue;
                }
                assert!(m.release_costs(row, &mut release));
                for _ in 0..10 {
                    let costs: Vec<i32> = (0..n).map(|_| cost_or_impossible(&mut seed)).collect();
                    let mut full = m.cost.clone();
                    full[row * n..(row + 1) * n].copy_from_slice(&costs);
                    assert_eq!(m.cost_with_row(row, &release, &costs), brute(n, &full).min(IMPOSSIBLE));
                    priced += 1;
                }
            }
        }
        assert!(priced > 1000, "{priced}");
    }

    #[test]
    fn no_perfect_matching_is_detected() {
        let mut m = Matching::new(2);
        m.cost = vec![1, IMPOSSIBLE, 2, IMPOSSIBLE];
        assert!(m.solve() >= IMPOSSIBLE);
    }
}
