//! Precomputes the attack tables at build time and writes them as Rust statics:
//! fancy magic bitboards for sliders (magics found by a seeded search, so the
//! output is the same on every build), leaper tables, and the between/line tables.

use std::fmt::Write as _;
use std::path::PathBuf;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn sliding(sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut out = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f, r) {
            let bit = 1u64 << (r * 8 + f);
            out |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

/// Squares whose occupancy matters: the rays without their last square.
fn relevant(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut out = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f + df, r + dr) {
            out |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    out
}

fn leaper(sq: usize, steps: &[(i32, i32)]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    steps
        .iter()
        .filter(|&&(df, dr)| on_board(f0 + df, r0 + dr))
        .fold(0, |acc, &(df, dr)| acc | 1u64 << ((r0 + dr) * 8 + f0 + df))
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(dirs: &[(i32, i32)], table: &mut Vec<u64>, rng: &mut Rng) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = relevant(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Enumerate every subset of the mask (Carry-Rippler).
        let mut occs = Vec::with_capacity(size);
        let mut sub = 0u64;
        loop {
            occs.push((sub, sliding(sq, sub, dirs)));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let mut slots = vec![0u64; size];
        let mut stamp = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            attempt += 1;
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            let ok = occs.iter().all(|&(occ, att)| {
                let idx = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
                if stamp[idx] != attempt {
                    stamp[idx] = attempt;
                    slots[idx] = att;
                    true
                } else {
                    slots[idx] == att
                }
            });
            if ok {
                break magic;
            }
        };
        let offset = table.len();
        table.extend_from_slice(&slots);
        magics.push(Magic {
            mask,
            magic,
            shift: 64 - bits,
            offset,
        });
    }
    magics
}

fn write_u64s(out: &mut String, name: &str, values: &[u64]) {
    writeln!(out, "pub(crate) static {name}: [u64; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        for v in chunk {
            write!(out, "{v:#x},").unwrap();
        }
        out.push('\n');
    }
    out.push_str("];\n");
}

fn write_magics(out: &mut String, name: &str, magics: &[Magic]) {
    writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
    for m in magics {
        writeln!(
            out,
            "Magic {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
            m.mask, m.magic, m.shift, m.offset
        )
        .unwrap();
    }
    out.push_str("];\n");
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let mut rng = Rng(0x5eed_0f00_c0ff_ee11);
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut table, &mut rng);
    let bishop = find_magics(&BISHOP_DIRS, &mut table, &mut rng);

    let knight: Vec<u64> = (0..64)
        .map(|sq| {
            leaper(
                sq,
                &[
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ],
            )
        })
        .collect();
    let king: Vec<u64> = (0..64)
        .map(|sq| {
            leaper(
                sq,
                &[
                    (1, 0),
                    (1, 1),
                    (0, 1),
                    (-1, 1),
                    (-1, 0),
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                ],
            )
        })
        .collect();
    let white_pawn: Vec<u64> = (0..64).map(|sq| leaper(sq, &[(-1, 1), (1, 1)])).collect();
    let black_pawn: Vec<u64> = (0..64).map(|sq| leaper(sq, &[(-1, -1), (1, -1)])).collect();

    // between[a][b]: squares strictly between a and b on a shared line, else empty.
    // line[a][b]: the whole line through a and b (edge to edge), else empty.
    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64 {
        for dirs in [&ROOK_DIRS[..], &BISHOP_DIRS[..]] {
            let rays = sliding(a, 0, dirs);
            for b in 0..64 {
                if a == b || rays & (1u64 << b) == 0 {
                    continue;
                }
                let bb = 1u64 << b;
                between[a * 64 + b] = sliding(a, bb, dirs) & sliding(b, 1u64 << a, dirs);
                line[a * 64 + b] = (sliding(a, 0, dirs) & sliding(b, 0, dirs)) | (1u64 << a) | bb;
            }
        }
    }

    let rook_rays: Vec<u64> = (0..64).map(|sq| sliding(sq, 0, &ROOK_DIRS)).collect();
    let bishop_rays: Vec<u64> = (0..64).map(|sq| sliding(sq, 0, &BISHOP_DIRS)).collect();

    let mut out = String::with_capacity(3 << 20);
    out.push_str("// Generated by build.rs. Do not edit.\n");
    write_magics(&mut out, "ROOK_MAGICS", &rook);
    write_magics(&mut out, "BISHOP_MAGICS", &bishop);
    write_u64s(&mut out, "SLIDER_TABLE", &table);
    write_u64s(&mut out, "KNIGHT_ATTACKS", &knight);
    write_u64s(&mut out, "KING_ATTACKS", &king);
    write_u64s(&mut out, "WHITE_PAWN_ATTACKS", &white_pawn);
    write_u64s(&mut out, "BLACK_PAWN_ATTACKS", &black_pawn);
    write_u64s(&mut out, "ROOK_RAYS", &rook_rays);
    write_u64s(&mut out, "BISHOP_RAYS", &bishop_rays);
    write_u64s(&mut out, "BETWEEN", &between);
    write_u64s(&mut out, "LINE", &line);

    let path = PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("attack_tables.rs");
    std::fs::write(path, out).unwrap();
}
