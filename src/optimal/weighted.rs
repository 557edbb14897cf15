//! The bound for weighted pushes: a minimum-cost perfect matching of boxes to goals where
//! box `i` on cell `c` costs `(1 + C_i)` times its lone-box push distance to the goal.
//!
//! `bound.rs` works in `i32` and reads any cost from 2^20 up as impossible; weighted
//! distances pass that easily (a box of cost 10^6 two pushes away), so this matching works
//! in `i64`. It is solved afresh for every child, O(m^3): only `--optimal cost` with boxes
//! of different costs uses it, and there a strong bound saves far more than it costs.

/// A pairing that cannot be made; sums of `m` of them still fit in an `i64`.
pub const NEVER: i64 = 1 << 50;

pub struct Weighted {
    m: usize,
    /// Row-major `m * m`: rows are boxes (slots), columns goals.
    pub cost: Vec<i64>,
    u: Vec<i64>,
    v: Vec<i64>,
    /// `owner[j]`: the 1-based row matched to 1-based column `j`, 0 if none.
    owner: Vec<usize>,
    way: Vec<usize>,
    least: Vec<i64>,
    done: Vec<bool>,
}

impl Weighted {
    pub fn new(m: usize) -> Weighted {
        Weighted {
            m,
            cost: vec![0; m * m],
            u: vec![0; m + 1],
            v: vec![0; m + 1],
            owner: vec![0; m + 1],
            way: vec![0; m + 1],
            least: vec![0; m + 1],
            done: vec![false; m + 1],
        }
    }

    /// The cheapest perfect matching's cost on `cost`; `NEVER` or more when there is none.
    ///
    /// Rows join one at a time; each finds the cheapest way to a free column by a
    /// Dijkstra-like search over reduced costs (`cost - u - v`, never negative), and the
    /// potentials then move so that the matched pairs stay at reduced cost zero.
    pub fn solve(&mut self) -> i64 {
        let m = self.m;
        self.u.iter_mut().for_each(|x| *x = 0);
        self.v.iter_mut().for_each(|x| *x = 0);
        self.owner.iter_mut().for_each(|x| *x = 0);
        for row in 1..=m {
            self.owner[0] = row;
            let mut col = 0;
            self.least.iter_mut().for_each(|x| *x = i64::MAX);
            self.done.iter_mut().for_each(|x| *x = false);
            loop {
                self.done[col] = true;
                let r = self.owner[col];
                let (mut delta, mut next) = (i64::MAX, 0);
                for j in 1..=m {
                    if self.done[j] {
                        continue;
                    }
                    let reduced = self.cost[(r - 1) * m + j - 1] - self.u[r] - self.v[j];
                    if reduced < self.least[j] {
                        self.least[j] = reduced;
                        self.way[j] = col;
                    }
                    if self.least[j] < delta {
                        delta = self.least[j];
                        next = j;
                    }
                }
                for j in 0..=m {
                    if self.done[j] {
                        self.u[self.owner[j]] += delta;
                        self.v[j] -= delta;
                    } else {
                        self.least[j] -= delta;
                    }
                }
                col = next;
                if self.owner[col] == 0 {
                    break;
                }
            }
            // Flip the pairs along the path back to the new row.
            while col != 0 {
                let before = self.way[col];
                self.owner[col] = self.owner[before];
                col = before;
            }
        }
        (1..=m).map(|j| self.cost[(self.owner[j] - 1) * m + j - 1].min(NEVER)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every permutation, for small matrices.
    fn brute(m: usize, cost: &[i64]) -> i64 {
        fn go(m: usize, row: usize, used: &mut [bool], cost: &[i64]) -> i64 {
            if row == m {
                return 0;
            }
            let mut best = i64::MAX;
            for j in 0..m {
                if !used[j] {
                    used[j] = true;
                    best = best.min(cost[row * m + j].min(NEVER) + go(m, row + 1, used, cost));
                    used[j] = false;
                }
            }
            best
        }
        go(m, 0, &mut vec![false; m], cost)
    }

    #[test]
    fn matches_every_permutation() {
        let mut seed = 0x1234_5678_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for m in 1..=6 {
            for _ in 0..200 {
                let mut w = Weighted::new(m);
                for c in w.cost.iter_mut() {
                    // Weighted distances: small distances times weights up to a million,
                    // and now and then an impossible pairing.
                    let x = next();
                    *c =
                        if x % 9 == 0 { NEVER } else { (x >> 8) as i64 % 7 * [1, 2, 1_000_001][(x >> 4) as usize % 3] };
                }
                let want = brute(m, &w.cost);
                let got = w.solve();
                if want >= NEVER {
                    assert!(got >= NEVER, "m {} cost {:?}", m, w.cost);
                } else {
                    assert_eq!(got, want, "m {} cost {:?}", m, w.cost);
                }
            }
        }
    }
}
