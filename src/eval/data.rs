//! BFCL data: questions (user turns and function docs) and ground truth, loaded by category.
//!
//! The `bfcl-eval` wheel ships `data/BFCL_v4_<category>.json` (JSON Lines despite the suffix) and the
//! ground truth in `data/possible_answer/BFCL_v4_<category>.json`. Irrelevance categories have no
//! ground truth: the right answer there is no call.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::backend::{Message, Role, ToolDef};

/// The categories `toolmend eval bfcl` runs when none are named.
pub const DEFAULT_CATEGORIES: &[&str] = &[
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
];

/// [`DEFAULT_CATEGORIES`] as one comma-separated argument (the CLI's default, shown in its help
/// as a user would write it).
pub const DEFAULT_CATEGORIES_ARG: &str =
    "simple_python,multiple,parallel,parallel_multiple,irrelevance";

/// The single-turn categories this module can score (BFCL's AST and relevance categories).
pub const KNOWN_CATEGORIES: &[&str] = &[
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
    "live_simple",
    "live_multiple",
    "live_parallel",
    "live_parallel_multiple",
    "live_irrelevance",
    "live_relevance",
];

/// A problem with the BFCL data folder or one of its files.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DataError {
    /// No data folder was given and none was found in the default places.
    #[error(
        "no BFCL data folder found (looked in {looked}): run scripts/fetch-bfcl, or pass --data DIR / set TOOLMEND_BFCL_DATA"
    )]
    NotFound {
        /// The places searched.
        looked: String,
    },
    /// A category this module does not know.
    #[error("unknown BFCL category '{name}': use one of {}", KNOWN_CATEGORIES.join(", "))]
    UnknownCategory {
        /// The name given.
        name: String,
    },
    /// A data file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line of a data file is not the expected JSON.
    #[error("{path} line {line}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// One BFCL function doc, as shipped (Python-ish types inside `parameters`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct FunctionDoc {
    /// The function's name (may contain dots, e.g. `math.factorial`).
    pub name: String,
    /// What it does.
    #[serde(default)]
    pub description: String,
    /// The parameter schema with BFCL's Python-ish type names (`dict`, `float`, `tuple`, `any`).
    pub parameters: Value,
}

impl FunctionDoc {
    /// The doc as a tool definition with a proper JSON Schema (see [`crate::eval::types`]).
    pub fn to_tool(&self) -> ToolDef {
        ToolDef {
            name: self.name.clone(),
            description: self.description.clone(),
            parameters: super::types::to_json_schema(&self.parameters),
        }
    }

    /// The BFCL type name of parameter `param` (`None` when the parameter is not documented).
    pub fn param_type(&self, param: &str) -> Option<&str> {
        self.properties()?.get(param)?.get("type")?.as_str()
    }

    /// The documented parameters (`properties`).
    pub fn properties(&self) -> Option<&Map<String, Value>> {
        self.parameters.get("properties")?.as_object()
    }

    /// The names of the required parameters.
    pub fn required(&self) -> Vec<&str> {
        self.parameters
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }
}

/// One BFCL question: the conversation and the functions offered.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// The BFCL id, e.g. `simple_python_0`.
    pub id: String,
    /// The category it belongs to.
    pub category: String,
    /// The messages of the (single) turn: an optional system message and the user message.
    pub messages: Vec<Message>,
    /// The functions offered.
    pub functions: Vec<FunctionDoc>,
}

impl Question {
    /// The functions as tool definitions with JSON Schema parameters.
    pub fn tools(&self) -> Vec<ToolDef> {
        self.functions.iter().map(FunctionDoc::to_tool).collect()
    }

    /// The function doc named `name`.
    pub fn function(&self, name: &str) -> Option<&FunctionDoc> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// One expected call: the function name and, per parameter, the allowed values (`""` = may be omitted).
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedCall {
    /// The function to call.
    pub name: String,
    /// Parameter → allowed values.
    pub params: Map<String, Value>,
}

/// The ground truth of one question: the expected calls (any order for parallel categories).
pub type GroundTruth = Vec<ExpectedCall>;

/// One category: its questions in file order and the ground truth by id.
#[derive(Debug, Clone, Default)]
pub struct Category {
    /// The category name.
    pub name: String,
    /// Its questions, in file order.
    pub questions: Vec<Question>,
    /// Ground truth by question id (empty for irrelevance categories).
    pub answers: HashMap<String, GroundTruth>,
}

impl Category {
    /// The question with BFCL id `id`.
    pub fn question(&self, id: &str) -> Option<&Question> {
        self.questions.iter().find(|q| q.id == id)
    }
}

/// True for categories where the right answer is no call at all.
pub fn is_irrelevance(category: &str) -> bool {
    category.contains("irrelevance")
}

/// The category of a BFCL id: the id without its trailing `_<number>` (live ids also carry a
/// `-<n>-<m>` suffix, e.g. `live_simple_0-0-0`).
pub fn category_of(id: &str) -> &str {
    let base = id.split('-').next().unwrap_or(id);
    match base.rfind('_') {
        Some(i) if base[i + 1..].chars().all(|c| c.is_ascii_digit()) => &base[..i],
        _ => base,
    }
}

/// Finds the BFCL data folder: `explicit` when given, else `$TOOLMEND_BFCL_DATA`, else
/// `$TOOLMEND_BFCL/data`, else `~/.cache/toolmend/bfcl/data` (where `scripts/fetch-bfcl` puts it).
///
/// # Errors
/// [`DataError::NotFound`] when none of them holds `BFCL_v4_simple_python.json`.
pub fn locate(explicit: Option<&Path>) -> Result<PathBuf, DataError> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(p) = explicit {
        candidates.push(p.to_path_buf());
    } else {
        if let Some(p) = std::env::var_os("TOOLMEND_BFCL_DATA") {
            candidates.push(PathBuf::from(p));
        }
        if let Some(p) = std::env::var_os("TOOLMEND_BFCL") {
            candidates.push(PathBuf::from(p).join("data"));
        }
        if let Some(home) = std::env::var_os("HOME") {
            candidates.push(PathBuf::from(home).join(".cache/toolmend/bfcl/data"));
        }
    }
    for c in &candidates {
        if c.join("BFCL_v4_simple_python.json").is_file() {
            return Ok(c.clone());
        }
        // Accept the wheel's root or the unpacked package folder too.
        for sub in ["bfcl_eval/data", "data"] {
            if c.join(sub).join("BFCL_v4_simple_python.json").is_file() {
                return Ok(c.join(sub));
            }
        }
    }
    Err(DataError::NotFound {
        looked: candidates
            .iter()
            .map(|c| c.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
    })
}

#[derive(Deserialize)]
struct RawQuestion {
    id: String,
    question: Vec<Vec<RawMessage>>,
    function: Vec<FunctionDoc>,
}

#[derive(Deserialize)]
struct RawMessage {
    role: String,
    content: String,
}

#[derive(Deserialize)]
struct RawAnswer {
    id: String,
    ground_truth: Vec<Map<String, Value>>,
}

fn read_lines(path: &Path) -> Result<Vec<(usize, String)>, DataError> {
    let text = std::fs::read_to_string(path).map_err(|source| DataError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.to_owned()))
        .collect())
}

fn parse_role(role: &str) -> Role {
    match role {
        "system" => Role::System,
        "assistant" => Role::Assistant,
        "tool" => Role::Tool,
        _ => Role::User,
    }
}

/// Loads one category (questions and, unless it is an irrelevance category, ground truth).
///
/// # Errors
/// [`DataError`] when the category is unknown or a file is missing or malformed.
pub fn load_category(dir: &Path, name: &str) -> Result<Category, DataError> {
    if !KNOWN_CATEGORIES.contains(&name) {
        return Err(DataError::UnknownCategory {
            name: name.to_owned(),
        });
    }
    let file = format!("BFCL_v4_{name}.json");
    let qpath = dir.join(&file);
    let mut questions = Vec::new();
    for (line, text) in read_lines(&qpath)? {
        let raw: RawQuestion = serde_json::from_str(&text).map_err(|e| DataError::Parse {
            path: qpath.clone(),
            line,
            message: e.to_string(),
        })?;
        let messages = raw
            .question
            .into_iter()
            .next()
            .unwrap_or_default()
            .into_iter()
            .map(|m| Message::new(parse_role(&m.role), m.content))
            .collect();
        questions.push(Question {
            id: raw.id,
            category: name.to_owned(),
            messages,
            functions: raw.function,
        });
    }
    let mut answers = HashMap::new();
    let apath = dir.join("possible_answer").join(&file);
    if apath.is_file() {
        for (line, text) in read_lines(&apath)? {
            let raw: RawAnswer = serde_json::from_str(&text).map_err(|e| DataError::Parse {
                path: apath.clone(),
                line,
                message: e.to_string(),
            })?;
            let mut calls = Vec::new();
            for entry in raw.ground_truth {
                for (name, params) in entry {
                    let params = match params {
                        Value::Object(m) => m,
                        other => {
                            return Err(DataError::Parse {
                                path: apath.clone(),
                                line,
                                message: format!(
                                    "ground truth of '{name}' is {other}, expected an object"
                                ),
                            });
                        }
                    };
                    calls.push(ExpectedCall { name, params });
                }
            }
            answers.insert(raw.id, calls);
        }
    } else if !is_irrelevance(name) && name != "live_relevance" {
        return Err(DataError::Io {
            path: apath,
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "no ground truth file"),
        });
    }
    Ok(Category {
        name: name.to_owned(),
        questions,
        answers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn category_of_strips_the_index() {
        assert_eq!(category_of("simple_python_12"), "simple_python");
        assert_eq!(category_of("parallel_multiple_0"), "parallel_multiple");
        assert_eq!(category_of("live_simple_3-2-0"), "live_simple");
        assert_eq!(category_of("irrelevance"), "irrelevance");
    }

    #[test]
    fn default_categories_arg_lists_the_defaults() {
        assert_eq!(DEFAULT_CATEGORIES.join(","), DEFAULT_CATEGORIES_ARG);
    }
}
