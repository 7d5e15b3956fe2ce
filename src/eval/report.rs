//! Scoring recorded runs and reporting them: accuracy per category per parser, calls rescued per
//! stage, remaining failures by kind, irrelevance breakdown, and the run's model, sampling, speed
//! and dates — as JSON (the `--replay --json` contract) and as a Markdown table.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use super::data::{self, Category, DataError, is_irrelevance};
use super::parse::{self, FullPolicy, ParserKind, Rescue};
use super::record::RecordLine;
use super::score::{self, FailureKind};
use crate::backend::GenerateOptions;

/// One parser's score in one category.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct ParserScore {
    /// Questions scored correct.
    pub correct: u32,
    /// `correct / n` (0 when `n` is 0).
    pub accuracy: f64,
}

/// Only for irrelevance categories: where the calls come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct IrrelevanceBreakdown {
    /// Outputs without any call-shaped text (prose only).
    pub no_call_shaped_text: u32,
    /// Of those, outputs where `full` still returned a call (must be 0: no call is invented).
    pub full_calls_from_prose: u32,
    /// Outputs where the model really wrote a call (call-shaped text that `full` parsed): the
    /// model's mistake, scored wrong.
    pub model_wrote_a_call: u32,
}

/// The scores of one category.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct CategoryReport {
    /// Questions scored.
    pub n: u32,
    /// The `strict` parser.
    pub strict: ParserScore,
    /// The `naive` baseline (tags, fences or bare JSON, strict JSON).
    pub naive: ParserScore,
    /// The `extract` parser.
    pub extract: ParserScore,
    /// The `full` parser.
    pub full: ParserScore,
    /// What `extract` did to find its calls.
    pub extract_rescued: Rescue,
    /// What `full` did to find and fix its calls.
    pub full_rescued: Rescue,
    /// Failures remaining under `full`, by kind.
    pub full_failures: BTreeMap<&'static str, u32>,
    /// Failures under `strict`, by kind.
    pub strict_failures: BTreeMap<&'static str, u32>,
    /// Outputs `full` scores wrong although the calls found by another parser (`naive`,
    /// `extract`), once the schema is applied to them as `full` does, pass and `full` does not
    /// return them all: calls lost to parsing (must be 0). An output where `full` returns those
    /// calls and more (it also read a broken call the other parser skipped) is the model's
    /// `wrong_count`, not a loss.
    pub lost_to_parsing: u32,
    /// Irrelevance categories only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub irrelevance: Option<IrrelevanceBreakdown>,
}

impl CategoryReport {
    fn score_mut(&mut self, kind: ParserKind) -> &mut ParserScore {
        match kind {
            ParserKind::Strict => &mut self.strict,
            ParserKind::Naive => &mut self.naive,
            ParserKind::Extract => &mut self.extract,
            ParserKind::Full => &mut self.full,
        }
    }

    /// The score of one parser.
    pub fn score(&self, kind: ParserKind) -> ParserScore {
        match kind {
            ParserKind::Strict => self.strict,
            ParserKind::Naive => self.naive,
            ParserKind::Extract => self.extract,
            ParserKind::Full => self.full,
        }
    }
}

/// How one question scored (for `--details`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QuestionResult {
    /// The BFCL id.
    pub id: String,
    /// Its category.
    pub category: String,
    /// Correct under each parser, in [`ParserKind::ALL`] order.
    pub correct: BTreeMap<&'static str, bool>,
    /// Why `full` scored it wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_failure: Option<score::Failure>,
    /// The calls `full` found.
    pub full_calls: Vec<score::Call>,
}

/// The report of one recorded model run.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ModelReport {
    /// The model's short name.
    pub model: String,
    /// The model file (its name carries the quantisation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_file: Option<String>,
    /// The quantisation, read from the file name (e.g. `Q4_K_M`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quantisation: Option<String>,
    /// Sampling settings of the run (from its first line that has them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampling: Option<GenerateOptions>,
    /// Generated tokens per second over the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens_per_second: Option<f64>,
    /// Prompt tokens per second over the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens_per_second: Option<f64>,
    /// First and last recording time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded: Option<(String, String)>,
    /// The `full` parser's policy.
    pub policy: FullPolicy,
    /// Questions recorded that are not in the BFCL data (skipped).
    pub unknown_ids: u32,
    /// Scores per category.
    pub categories: BTreeMap<String, CategoryReport>,
    /// Per-question results (only with `--details`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<QuestionResult>,
}

/// The BFCL data a replay needs, loaded once per category.
#[derive(Debug, Default)]
pub struct DataSet {
    dir: std::path::PathBuf,
    categories: HashMap<String, Category>,
}

impl DataSet {
    /// A data set reading from the BFCL data folder `dir`.
    pub fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_path_buf(),
            categories: HashMap::new(),
        }
    }

    /// The category `name`, loaded on first use.
    ///
    /// # Errors
    /// [`DataError`] when it cannot be loaded.
    pub fn category(&mut self, name: &str) -> Result<&Category, DataError> {
        if !self.categories.contains_key(name) {
            let c = data::load_category(&self.dir, name)?;
            self.categories.insert(name.to_owned(), c);
        }
        Ok(&self.categories[name])
    }
}

/// The quantisation named in a GGUF file name (`…-q4_k_m.gguf` → `Q4_K_M`, `….Q4_1.gguf` → `Q4_1`).
pub fn quantisation_of(file: &str) -> Option<String> {
    let stem = file.strip_suffix(".gguf").unwrap_or(file);
    let lower = stem.to_ascii_lowercase();
    let idx = lower
        .rmatch_indices(['-', '.', '_'])
        .map(|(i, _)| i + 1)
        .filter(|&i| {
            let rest = &lower[i..];
            (rest.starts_with('q') || rest.starts_with("iq") || rest.starts_with('f'))
                && rest[1..].starts_with(|c: char| c.is_ascii_digit())
                || rest.starts_with("iq")
        })
        .min()?;
    Some(stem[idx..].to_ascii_uppercase())
}

/// Scores the lines of one recording (one model) and builds its report.
///
/// # Errors
/// [`DataError`] when a category's data cannot be loaded.
pub fn score_run(
    lines: &[RecordLine],
    data: &mut DataSet,
    policy: FullPolicy,
    details: bool,
) -> Result<ModelReport, DataError> {
    let mut report = ModelReport {
        model: lines.first().map(|l| l.model.clone()).unwrap_or_default(),
        policy,
        ..ModelReport::default()
    };
    report.model_file = lines.iter().find_map(|l| l.model_file.clone());
    report.quantisation = report.model_file.as_deref().and_then(quantisation_of);
    report.sampling = lines.iter().find_map(|l| l.sampling.clone());
    let (mut gen_tokens, mut gen_ms, mut prompt_tokens, mut prompt_ms) = (0u64, 0f64, 0u64, 0f64);
    let mut dates: Vec<&str> = Vec::new();
    // Each id once: a later line for the same id (a re-recording) replaces the earlier one.
    let mut by_id: BTreeMap<&str, &RecordLine> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for l in lines {
        if by_id.insert(&l.id, l).is_none() {
            order.push(&l.id);
        }
    }
    for id in order {
        let line = by_id[id];
        let category = data.category(&line.category)?;
        let Some(question) = category.question(&line.id) else {
            report.unknown_ids += 1;
            continue;
        };
        if let (Some(t), Some(ms)) = (line.generated_tokens, line.generation_ms) {
            gen_tokens += u64::from(t);
            gen_ms += ms;
        }
        if let (Some(t), Some(ms)) = (line.prompt_tokens, line.prompt_ms) {
            prompt_tokens += u64::from(t);
            prompt_ms += ms;
        }
        if let Some(d) = &line.recorded_at {
            dates.push(d);
        }
        let truth = category
            .answers
            .get(&line.id)
            .map_or(&[][..], Vec::as_slice);
        let irrelevance = is_irrelevance(&line.category);
        let format = line.strict_format();
        let cat = report.categories.entry(line.category.clone()).or_default();
        cat.n += 1;
        let mut result = QuestionResult {
            id: line.id.clone(),
            category: line.category.clone(),
            correct: BTreeMap::new(),
            full_failure: None,
            full_calls: Vec::new(),
        };
        for kind in ParserKind::ALL {
            let parsed = parse::parse_with_native(
                kind,
                &line.output,
                &line.native_calls,
                format,
                &question.functions,
                policy,
            );
            let mut verdict =
                score::check(&line.category, &question.functions, &parsed.calls, truth);
            if let Err(f) = &mut verdict
                && f.kind == FailureKind::NoCall
                && parsed.unparsed > 0
            {
                f.kind = FailureKind::ParseFailure;
            }
            if let Err(f) = &mut verdict
                && f.kind == FailureKind::NoCall
                && parse::is_call_shaped(&line.output, &question.functions)
            {
                // Call-shaped text that this parser turned into nothing.
                f.kind = FailureKind::ParseFailure;
            }
            let s = cat.score_mut(kind);
            if verdict.is_ok() {
                s.correct += 1;
            }
            result.correct.insert(kind.as_str(), verdict.is_ok());
            match kind {
                ParserKind::Strict => {
                    if let Err(f) = &verdict {
                        *cat.strict_failures.entry(f.kind.as_str()).or_default() += 1;
                    }
                }
                ParserKind::Extract => cat.extract_rescued.add(&parsed.rescue),
                ParserKind::Full => {
                    cat.full_rescued.add(&parsed.rescue);
                    if let Err(f) = &verdict {
                        *cat.full_failures.entry(f.kind.as_str()).or_default() += 1;
                    }
                    if irrelevance {
                        let b = cat.irrelevance.get_or_insert_default();
                        if parse::is_call_shaped(&line.output, &question.functions) {
                            if !parsed.calls.is_empty() {
                                b.model_wrote_a_call += 1;
                            }
                        } else {
                            b.no_call_shaped_text += 1;
                            if !parsed.calls.is_empty() {
                                b.full_calls_from_prose += 1;
                            }
                        }
                    }
                    if verdict.is_err() && !irrelevance {
                        let rescued_elsewhere = [ParserKind::Naive, ParserKind::Extract]
                            .into_iter()
                            .any(|other| {
                                let mut p = parse::parse_with_native(
                                    other,
                                    &line.output,
                                    &line.native_calls,
                                    format,
                                    &question.functions,
                                    policy,
                                );
                                let mut sink = Rescue::default();
                                for c in &mut p.calls {
                                    parse::mend(c, &question.functions, policy, &mut sink);
                                }
                                score::check(&line.category, &question.functions, &p.calls, truth)
                                    .is_ok()
                                    // `full` returned every one of those calls and more: it found
                                    // more of what the model wrote (a second, broken call after
                                    // the right one), it lost nothing.
                                    && !p.calls.iter().all(|c| parsed.calls.contains(c))
                            });
                        if rescued_elsewhere {
                            cat.lost_to_parsing += 1;
                        }
                    }
                    result.full_failure = verdict.err();
                    result.full_calls = parsed.calls;
                }
                ParserKind::Naive => {}
            }
        }
        if details {
            report.questions.push(result);
        }
    }
    for cat in report.categories.values_mut() {
        for kind in ParserKind::ALL {
            let n = cat.n;
            let s = cat.score_mut(kind);
            s.accuracy = if n == 0 {
                0.0
            } else {
                f64::from(s.correct) / f64::from(n)
            };
        }
    }
    if gen_ms > 0.0 {
        report.tokens_per_second = Some(round2(gen_tokens as f64 * 1000.0 / gen_ms));
    }
    if prompt_ms > 0.0 {
        report.prompt_tokens_per_second = Some(round2(prompt_tokens as f64 * 1000.0 / prompt_ms));
    }
    dates.sort_unstable();
    if let (Some(first), Some(last)) = (dates.first(), dates.last()) {
        report.recorded = Some(((*first).to_owned(), (*last).to_owned()));
    }
    Ok(report)
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn pct(s: ParserScore) -> String {
    format!("{:.1}% ({})", s.accuracy * 100.0, s.correct)
}

fn points(a: ParserScore, b: ParserScore) -> String {
    let d = (a.accuracy - b.accuracy) * 100.0;
    format!("{d:+.1}")
}

/// The Markdown report of one model run.
pub fn markdown(r: &ModelReport) -> String {
    let mut s = String::new();
    let file = r.model_file.as_deref().unwrap_or("unknown file");
    let _ = writeln!(s, "### {} (`{file}`)\n", r.model);
    let mut facts = Vec::new();
    if let Some(q) = &r.quantisation {
        facts.push(format!("quantisation {q}"));
    }
    if let Some(o) = &r.sampling {
        let sampling = if o.temperature == 0.0 {
            "greedy".to_owned()
        } else {
            format!("temperature {}", o.temperature)
        };
        facts.push(format!(
            "{sampling}, seed {}, at most {} tokens",
            o.seed, o.max_tokens
        ));
    }
    if let Some(t) = r.tokens_per_second {
        facts.push(format!("{t:.1} generated tokens/s"));
    }
    if let Some(t) = r.prompt_tokens_per_second {
        facts.push(format!("{t:.1} prompt tokens/s"));
    }
    if let Some((a, b)) = &r.recorded {
        facts.push(format!("recorded {a} – {b}"));
    }
    if r.policy.rename_by_arguments {
        facts.push("policy: rename by arguments ON".to_owned());
    }
    if !facts.is_empty() {
        let _ = writeln!(s, "{}.\n", facts.join("; "));
    }
    let _ = writeln!(
        s,
        "| category | n | strict | naive | extract | full | extract − strict | full − extract |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, c) in &r.categories {
        let _ = writeln!(
            s,
            "| {name} | {} | {} | {} | {} | {} | {} | {} |",
            c.n,
            pct(c.strict),
            pct(c.naive),
            pct(c.extract),
            pct(c.full),
            points(c.extract, c.strict),
            points(c.full, c.extract),
        );
    }
    let _ = writeln!(
        s,
        "\nWhat `full` did, counted in calls (extract's own foreign-envelope count is the same kind of rescue without repair):\n"
    );
    let _ = writeln!(
        s,
        "| category | foreign envelope | JSON repaired | values coerced | unknown parameter dropped | tool name resolved | renamed by arguments | required parameter from schema default | decoder rejected |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, c) in &r.categories {
        let x = c.full_rescued;
        let _ = writeln!(
            s,
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} |",
            x.foreign_envelope,
            x.repaired,
            x.coerced,
            x.dropped_unknown,
            x.renamed,
            x.renamed_by_arguments,
            x.defaulted,
            x.decode_rejected
        );
    }
    let lost: Vec<String> = r
        .categories
        .iter()
        .map(|(name, c)| format!("{name} {}", c.lost_to_parsing))
        .collect();
    let _ = writeln!(
        s,
        "\nCalls lost to parsing (an output `full` scores wrong although the naive or extract parser finds calls that pass once the schema is applied, and `full` does not return them all): {}.",
        lost.join(", ")
    );
    let _ = writeln!(s, "\nFailures remaining under `full`, by kind:\n");
    let _ = write!(s, "| category |");
    for k in FailureKind::ALL {
        let _ = write!(s, " {} |", k.as_str());
    }
    let _ = write!(s, "\n|---|");
    for _ in FailureKind::ALL {
        let _ = write!(s, "---:|");
    }
    s.push('\n');
    for (name, c) in &r.categories {
        let _ = write!(s, "| {name} |");
        for k in FailureKind::ALL {
            let _ = write!(
                s,
                " {} |",
                c.full_failures.get(k.as_str()).copied().unwrap_or(0)
            );
        }
        s.push('\n');
    }
    for (name, c) in &r.categories {
        if let Some(b) = c.irrelevance {
            let _ = writeln!(
                s,
                "\n{name}: {} of {} outputs hold no call-shaped text at all, and `full` returns a call for {} of them; in {} outputs the model really wrote a call (scored as the model's mistake, not hidden).",
                b.no_call_shaped_text, c.n, b.full_calls_from_prose, b.model_wrote_a_call
            );
        }
    }
    if r.unknown_ids > 0 {
        let _ = writeln!(
            s,
            "\n{} recorded ids are not in the BFCL data and were skipped.",
            r.unknown_ids
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantisation_from_file_names() {
        assert_eq!(
            quantisation_of("qwen2.5-coder-0.5b-instruct-q4_k_m.gguf").as_deref(),
            Some("Q4_K_M")
        );
        assert_eq!(
            quantisation_of("SmolLM2-135M-Instruct.Q4_1.gguf").as_deref(),
            Some("Q4_1")
        );
        assert_eq!(quantisation_of("model.gguf"), None);
    }
}
