//! Unsigned integers of a fixed number of 64-bit limbs: the Dutch system's edge weights hold
//! one field per pairing criterion, hundreds of bits in all (`dutch.rs`).

use std::cmp::Ordering;

/// An unsigned integer of `L` 64-bit limbs, least significant first. Arithmetic wraps
/// silently past `64 * L` bits: callers size `L` for the largest value they build.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const L: usize>(pub [u64; L]);

impl<const L: usize> std::fmt::Debug for Wide<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("0x")?;
        let mut started = false;
        for limb in self.0.iter().rev() {
            if started {
                write!(f, "{limb:016x}")?;
            } else if *limb != 0 {
                write!(f, "{limb:x}")?;
                started = true;
            }
        }
        if !started {
            f.write_str("0")?;
        }
        Ok(())
    }
}

impl<const L: usize> Default for Wide<L> {
    fn default() -> Self {
        Wide::ZERO
    }
}

impl<const L: usize> Wide<L> {
    /// Zero.
    pub const ZERO: Wide<L> = Wide([0; L]);

    /// A small value.
    pub fn from_u64(v: u64) -> Wide<L> {
        let mut w = Wide::ZERO;
        w.0[0] = v;
        w
    }

    /// Whether it is zero.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// `self + other`.
    #[must_use]
    pub fn add(&self, other: &Wide<L>) -> Wide<L> {
        let mut out = [0u64; L];
        let mut carry = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(other.0[i]);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *slot = s2;
            carry = c1 || c2;
        }
        Wide(out)
    }

    /// `self - other`; `other` must not be larger.
    #[must_use]
    pub fn sub(&self, other: &Wide<L>) -> Wide<L> {
        debug_assert!(*self >= *other, "{self:?} - {other:?}");
        self.wrapping_sub(other)
    }

    /// `self - other`, wrapping below zero (as the Dutch weights' two's-complement tricks
    /// want: added to a larger weight, it subtracts).
    #[must_use]
    pub fn wrapping_sub(&self, other: &Wide<L>) -> Wide<L> {
        let mut out = [0u64; L];
        let mut borrow = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
            *slot = d2;
            borrow = b1 || b2;
        }
        Wide(out)
    }

    /// `self << bits`.
    #[must_use]
    pub fn shl(&self, bits: u32) -> Wide<L> {
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        let mut out = [0u64; L];
        for i in (limbs..L).rev() {
            let from = i - limbs;
            let mut v = self.0[from] << rest;
            if rest > 0 && from > 0 {
                v |= self.0[from - 1] >> (64 - rest);
            }
            out[i] = v;
        }
        Wide(out)
    }

    /// `self >> 1`.
    #[must_use]
    pub fn half(&self) -> Wide<L> {
        let mut out = [0u64; L];
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = self.0[i] >> 1;
            if i + 1 < L {
                *slot |= self.0[i + 1] << 63;
            }
        }
        Wide(out)
    }

    /// `self | other`.
    #[must_use]
    pub fn or(&self, other: &Wide<L>) -> Wide<L> {
        let mut out = self.0;
        for (o, b) in out.iter_mut().zip(other.0) {
            *o |= b;
        }
        Wide(out)
    }

    /// Whether the lowest bit is set.
    pub fn is_odd(&self) -> bool {
        self.0[0] & 1 == 1
    }

    /// The number of bits needed to write it (0 for zero).
    pub fn bits(&self) -> u32 {
        for i in (0..L).rev() {
            if self.0[i] != 0 {
                return 64 * i as u32 + (64 - self.0[i].leading_zeros());
            }
        }
        0
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const L: usize> Ord for Wide<L> {
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..L).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type W = Wide<3>;

    fn from_u128(v: u128) -> W {
        Wide([v as u64, (v >> 64) as u64, 0])
    }

    fn to_u128(w: W) -> u128 {
        assert_eq!(w.0[2], 0);
        u128::from(w.0[0]) | (u128::from(w.0[1]) << 64)
    }

    #[test]
    fn arithmetic_agrees_with_u128() {
        let mut x: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = x >> 2;
            let b = (x.rotate_left(41)) >> 3;
            let (wa, wb) = (from_u128(a), from_u128(b));
            assert_eq!(to_u128(wa.add(&wb)), a + b);
            let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
            assert_eq!(to_u128(from_u128(hi).sub(&from_u128(lo))), hi - lo);
            assert_eq!(wa.cmp(&wb), a.cmp(&b));
            assert_eq!(to_u128(wa.half()), a >> 1);
            let s = (x % 60) as u32;
            assert_eq!(to_u128(from_u128(a >> 62).shl(s)), (a >> 62) << s);
            assert_eq!(to_u128(wa.or(&wb)), a | b);
            assert_eq!(wa.bits(), 128 - a.leading_zeros());
        }
        assert_eq!(W::from_u64(1).shl(130).bits(), 131);
        assert_eq!(W::from_u64(3).shl(64).0, [0, 3, 0]);
    }
}
