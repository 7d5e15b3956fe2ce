//! Replays the recorded BFCL runs in `corpus/wild/bfcl/`: the committed reports are reproduced
//! exactly (library and CLI), each category's `full` accuracy never drops below the committed
//! baseline (the ratchet), `full` ≥ `extract` ≥ `strict` outside irrelevance, and `full` returns no
//! call for an irrelevance output without call-shaped text. Skips, with a note, when the BFCL data
//! is absent (run `scripts/fetch-bfcl`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toolmend::eval::data;
use toolmend::eval::parse::FullPolicy;
use toolmend::eval::record;
use toolmend::eval::report::{self, DataSet, ModelReport};
use toolmend::eval::score::FailureKind;

/// The recorded runs: `corpus/wild/bfcl`, or `$TOOLMEND_BFCL_CORPUS` (to check a snapshot while a
/// recording is still appending to the working copy).
fn corpus() -> PathBuf {
    std::env::var_os("TOOLMEND_BFCL_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/wild/bfcl"),
        PathBuf::from,
    )
}

#[derive(Debug, Deserialize)]
struct Baseline {
    n: u32,
    full: f64,
}

/// `baseline.json`: model → category → the committed `full` accuracy over `n` questions.
fn baselines() -> BTreeMap<String, BTreeMap<String, Baseline>> {
    let text = std::fs::read_to_string(corpus().join("baseline.json"))
        .expect("corpus/wild/bfcl/baseline.json");
    serde_json::from_str(&text).expect("baseline.json: {model: {category: {n, full}}}")
}

fn recordings() -> Vec<PathBuf> {
    record::list_files(&corpus()).expect("corpus/wild/bfcl")
}

fn scored() -> Option<Vec<(PathBuf, ModelReport)>> {
    let dir = match data::locate(None) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("SKIP: {e}");
            return None;
        }
    };
    let mut data = DataSet::new(&dir);
    Some(
        recordings()
            .into_iter()
            .map(|f| {
                let lines = record::read_file(&f).unwrap();
                let r = report::score_run(&lines, &mut data, FullPolicy::default(), false).unwrap();
                (f, r)
            })
            .collect(),
    )
}

fn sibling(file: &Path, ext: &str) -> PathBuf {
    let stem = file.file_stem().unwrap().to_string_lossy();
    file.with_file_name(format!("{stem}.{ext}"))
}

#[test]
fn every_recording_has_a_baseline_and_committed_reports() {
    let b = baselines();
    for f in recordings() {
        let lines = record::read_file(&f).unwrap();
        assert!(!lines.is_empty(), "{} is empty", f.display());
        let model = &lines[0].model;
        assert!(
            lines.iter().all(|l| &l.model == model),
            "{}: one model per file",
            f.display()
        );
        assert!(
            b.contains_key(model),
            "baseline.json has no entry for {model}"
        );
        assert!(
            sibling(&f, "report.md").is_file(),
            "{}: no report.md",
            f.display()
        );
        assert!(
            sibling(&f, "report.json").is_file(),
            "{}: no report.json",
            f.display()
        );
    }
}

#[test]
fn full_accuracy_never_drops_below_the_committed_baseline() {
    let Some(runs) = scored() else { return };
    let b = baselines();
    for (f, r) in runs {
        let base = &b[&r.model];
        for (cat, want) in base {
            let got = r
                .categories
                .get(cat)
                .unwrap_or_else(|| panic!("{}: category {cat} missing", f.display()));
            assert!(
                got.n >= want.n,
                "{} {cat}: {} questions, baseline has {}",
                r.model,
                got.n,
                want.n
            );
            assert!(
                got.full.accuracy + 1e-9 >= want.full,
                "{} {cat}: full accuracy {:.4} dropped below the baseline {:.4}",
                r.model,
                got.full.accuracy,
                want.full
            );
        }
    }
}

#[test]
fn full_is_at_least_extract_is_at_least_strict_and_irrelevance_invents_nothing() {
    let Some(runs) = scored() else { return };
    let dir = data::locate(None).unwrap();
    let mut data = DataSet::new(&dir);
    for (f, r) in runs {
        let lines = record::read_file(&f).unwrap();
        let questions = report::score_run(&lines, &mut data, FullPolicy::default(), true)
            .unwrap()
            .questions;
        for (cat, c) in &r.categories {
            if let Some(irr) = c.irrelevance {
                assert_eq!(
                    irr.full_calls_from_prose, 0,
                    "{} {cat}: a call invented from prose",
                    r.model
                );
                continue;
            }
            assert_eq!(
                c.lost_to_parsing, 0,
                "{} {cat}: a call lost to parsing",
                r.model
            );
            // `full` may score below `extract` only where it returned extract's calls and more
            // (it read a broken call extract skipped: the model's wrong_count, not a loss).
            let more_calls = questions
                .iter()
                .filter(|q| {
                    &q.category == cat
                        && q.correct["extract"]
                        && !q.correct["full"]
                        && q.full_failure
                            .as_ref()
                            .is_some_and(|f| f.kind == FailureKind::WrongCount)
                })
                .count() as u32;
            assert!(
                c.full.correct + more_calls >= c.extract.correct,
                "{} {cat}: full < extract",
                r.model
            );
            assert!(
                c.extract.correct >= c.strict.correct,
                "{} {cat}: extract < strict",
                r.model
            );
        }
    }
}

#[test]
fn replay_reproduces_the_committed_reports_exactly() {
    let Some(runs) = scored() else { return };
    for (f, r) in runs {
        let md = std::fs::read_to_string(sibling(&f, "report.md")).unwrap();
        assert_eq!(
            report::markdown(&r),
            md,
            "{}: report.md differs from the replay",
            f.display()
        );
        let json = std::fs::read_to_string(sibling(&f, "report.json")).unwrap();
        assert_eq!(
            format!("{}\n", serde_json::to_string(&r).unwrap()),
            json,
            "{}: report.json differs",
            f.display()
        );
        // The CLI prints the same.
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolmend"))
            .args(["eval", "bfcl", "--replay"])
            .arg(&f)
            .arg("--json")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            json,
            "{}: CLI --json",
            f.display()
        );
    }
}
