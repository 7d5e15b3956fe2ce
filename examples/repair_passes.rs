//! Repairs the bench's 10,000 typical broken tool-call arguments (`benches/support/typical.rs`,
//! the same fixed seed as the `typical` criterion group) a given number of times, with toolmend
//! or with the `jsonrepair` crate, for instruction counts under `valgrind --tool=callgrind`:
//! counted at 1 pass and at 2, the difference over 10,000 is the instructions a call takes, the
//! result's allocation and free included, the inputs' generation left out. Counts do not move
//! with the machine's load, unlike time.
//!
//! The other modes count the floors of `benches/support/floor.rs` and the valid baselines on the
//! same inputs: `floor_alloc_copy` (a changed result's allocations, copy and frees, on the broken
//! inputs), and on the inputs once repaired (valid): `floor_validator` (the grammar-shaped
//! validator), `serde_ignored_any` (`serde_json::from_str::<IgnoredAny>`) and `toolmend_valid`.
//! The repaired inputs are made in every mode, so they cancel out of the difference.
//!
//! ```sh
//! cargo build --release --no-default-features --example repair_passes
//! for who in toolmend jsonrepair floor_alloc_copy floor_validator serde_ignored_any toolmend_valid; do
//!   for n in 1 2; do
//!     valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!       target/release/examples/repair_passes $who $n 2>&1 | grep refs
//!   done
//! done
//! ```

use std::hint::black_box;

#[path = "../benches/support/typical.rs"]
mod typical;

#[path = "../benches/support/floor.rs"]
mod floor;

const MODES: &str =
    "toolmend|jsonrepair|floor_alloc_copy|floor_validator|serde_ignored_any|toolmend_valid";

fn main() {
    let mut args = std::env::args().skip(1);
    let who = args.next().unwrap_or_else(|| "toolmend".into());
    let passes: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let inputs = typical::typical_inputs(0x5eed_0002);
    let repaired: Vec<String> = inputs
        .iter()
        .map(|s| toolmend::repair::repair(s).map_or_else(|_| "{}".into(), |r| r.text.into_owned()))
        .collect();
    let opts = jsonrepair::Options::default();
    let mut out = 0usize;
    for _ in 0..passes {
        for (s, v) in inputs.iter().zip(&repaired) {
            out += match who.as_str() {
                "toolmend" => toolmend::repair::repair(black_box(s)).map_or(0, |r| r.text.len()),
                "jsonrepair" => {
                    jsonrepair::repair_to_string(black_box(s), &opts).map_or(0, |r| r.len())
                }
                "floor_alloc_copy" => floor::alloc_copy(black_box(s)),
                "floor_validator" => usize::from(floor::validate(black_box(v.as_bytes()))),
                "serde_ignored_any" => {
                    usize::from(serde_json::from_str::<serde::de::IgnoredAny>(black_box(v)).is_ok())
                }
                "toolmend_valid" => {
                    toolmend::repair::repair(black_box(v)).map_or(0, |r| r.text.len())
                }
                _ => {
                    eprintln!("usage: repair_passes {MODES} [PASSES]");
                    std::process::exit(2);
                }
            };
        }
    }
    println!(
        "{who}: {passes} passes over {} inputs, {out} output bytes",
        inputs.len()
    );
}
