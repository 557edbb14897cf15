//! The search state: a sorted list of box cells plus one canonical player cell, the
//! Zobrist keys that hash it incrementally, and the pushes that lead from state to state.
//!
//! A key is `boxes (sorted ascending) ++ [normalised player]`, all `u16`. The player is
//! normalised to the smallest cell of his reachable area, so two positions that differ
//! only by walking share one key.

use crate::board::Cell;

/// A hasher for small keys of cells (search positions of a few boxes, feature cells): a
/// multiply and rotate per word, many times cheaper than the standard one, which guards
/// against hostile keys that a map's own cells cannot be. Fixed, so runs repeat.
#[derive(Default)]
pub struct QuickHasher(u64);

impl std::hash::Hasher for QuickHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517C_C1B7_2722_0A95);
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(n as u64);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash map keyed through `QuickHasher`.
pub type QuickMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<QuickHasher>>;
/// A hash set keyed through `QuickHasher`.
pub type QuickSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<QuickHasher>>;

/// Random 64-bit keys per cell, one table for boxes and one for the normalised player.
/// The player's keys leave bits 32-55 clear: those pick a key's first slot in a table
/// (`Table::first_slot`), so that slot depends on the boxes alone and can be fetched into
/// the cache as soon as a push is chosen, before the player's area is known.
#[derive(Clone, Debug)]
pub struct Zobrist {
    pub boxes: Vec<u64>,
    pub player: Vec<u64>,
}

/// The bits a player key may set: not those that place a key in a table of up to 2^24 slots.
const PLAYER_BITS: u64 = 0xFF00_0000_FFFF_FFFF;

/// SplitMix64: a fixed seed keeps hashes, and so node counts, identical run to run.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    pub fn new(cells: usize) -> Zobrist {
        let mut seed = 0x5EED_50C0_BA11_u64;
        let boxes = (0..cells).map(|_| splitmix64(&mut seed)).collect();
        let player = (0..cells).map(|_| splitmix64(&mut seed) & PLAYER_BITS).collect();
        Zobrist { boxes, player }
    }

    pub fn of_boxes(&self, boxes: &[Cell]) -> u64 {
        boxes.iter().fold(0, |h, &b| h ^ self.boxes[b as usize])
    }

    /// Hash of a whole key (boxes then player).
    pub fn of_key(&self, key: &[Cell]) -> u64 {
        let (boxes, player) = key.split_at(key.len() - 1);
        self.of_boxes(boxes) ^ self.player[player[0] as usize]
    }
}

/// The move that produced a node, in forward terms: the box on `from` is pushed in
/// direction `dir` and ends on `to`. Usually `to` is the next cell; a macro (several
/// pushes of one box) has a farther `to`, and `via` says how its pushes are found
/// again when the answer is assembled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Push {
    pub from: Cell,
    pub dir: u8,
    pub via: Via,
    pub to: Cell,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// One push: `to` is the next cell.
    Step,
    /// Straight on through a tunnel, all pushes in `dir`.
    Tunnel,
    /// Into a goal room and on to a goal along the fewest pushes inside the room.
    Room,
    /// From anywhere to any cell along the fewest pushes, the other boxes standing still
    /// (packing macros and whole box moves).
    Path,
    /// A whole pull found backward, pushed forward: to `to` along the fewest pushes whose
    /// last leaves the player on side `dir` of the box, in the area the pull started from.
    Back,
}

impl Push {
    pub fn step(from: Cell, dir: u8, to: Cell) -> Push {
        Push { from, dir, via: Via::Step, to }
    }
}

/// Move the box in slot `k` of a sorted box list to cell `to`, keeping the list sorted.
pub fn move_box(boxes: &mut [Cell], k: usize, to: Cell) {
    let mut i = k;
    boxes[i] = to;
    while i > 0 && boxes[i - 1] > boxes[i] {
        boxes.swap(i - 1, i);
        i -= 1;
    }
    while i + 1 < boxes.len() && boxes[i + 1] < boxes[i] {
        boxes.swap(i, i + 1);
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_box_keeps_order() {
        let mut b = vec![2, 5, 9, 14];
        move_box(&mut b, 0, 10);
        assert_eq!(b, vec![5, 9, 10, 14]);
        move_box(&mut b, 3, 1);
        assert_eq!(b, vec![1, 5, 9, 10]);
        move_box(&mut b, 1, 6);
        assert_eq!(b, vec![1, 6, 9, 10]);
        // Every slot of every sorted list of 1 to 5 cells below 8, moved to every free cell.
        for mask in 1u32..256 {
            let list: Vec<Cell> = (0..8).filter(|c| mask >> c & 1 == 1).collect();
            if list.len() > 5 {
                continue;
            }
            for k in 0..list.len() {
                for to in (0..8).filter(|&c| c == list[k] || !list.contains(&c)) {
                    let mut moved = list.clone();
                    move_box(&mut moved, k, to);
                    let mut want = list.clone();
                    want[k] = to;
                    want.sort_unstable();
                    assert_eq!(moved, want, "{list:?} slot {k} to {to}");
                }
            }
        }
    }

    #[test]
    fn hashing_is_order_free_incremental_and_deterministic() {
        let z = Zobrist::new(50);
        let a = z.of_boxes(&[3, 7, 11]);
        assert_eq!(a, z.of_boxes(&[11, 3, 7]));
        // Moving box 7 -> 8 is two XORs.
        assert_eq!(a ^ z.boxes[7] ^ z.boxes[8], z.of_boxes(&[3, 8, 11]));
        assert_ne!(z.of_key(&[3, 7, 11, 0]), z.of_key(&[3, 7, 11, 1]));
        assert_eq!(Zobrist::new(50).boxes, z.boxes);
        // Box and player keys are distinct tables.
        assert_ne!(z.boxes[4], z.player[4]);
    }
}
