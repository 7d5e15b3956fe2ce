//! Helm charts: the values a chart's templates use (`{{ .Values.service.port }}`, `{{
//! .Chart.AppVersion }}`), looked up in the chart's own `values.yaml` and `Chart.yaml`, so that
//! `read` and `grep` can show a template's line with what it renders. Found with a Helm chart
//! (session 42): asked "Which port does the service expose?", Qwen2.5-Coder-0.5B read
//! `templates/service.yaml`, saw `port: {{ .Values.service.port }}` and answered `8`; the
//! value, 8080, is in `values.yaml`, a file it never opened.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::Sandbox;

/// Most values shown for one text.
const MAX_SHOWN: usize = 12;
/// Most entries shown for a value that is a mapping.
const MAX_ENTRIES: usize = 6;
/// Largest `values.yaml` or `Chart.yaml` looked in.
const MAX_BYTES: u64 = 1024 * 1024;

/// A value a template uses, found in the chart's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolved {
    /// The reference as the template writes it: `.Values.service.port`.
    pub reference: String,
    /// The file giving it, as the sandbox shows paths: `values.yaml`, `charts/web/Chart.yaml`.
    pub file: String,
    /// Its line there (1-based).
    pub line: usize,
    /// Its value as written (`8080`), or a mapping's entries (`limits.cpu: 500m, …`).
    pub value: String,
}

/// A chart's `values.yaml` and `Chart.yaml`, read once (each as its shown path and its text;
/// `None` when missing, unreadable or larger than [`MAX_BYTES`]), to look up what its templates'
/// lines use.
pub(crate) struct Chart {
    values: Option<(String, String)>,
    chart_file: Option<(String, String)>,
}

impl Chart {
    /// The chart `file` is a template of, loaded: the nearest folder above `file`, inside the
    /// sandbox's root, holding a `Chart.yaml`, when `file` is below that folder's `templates/`.
    /// `None` otherwise.
    pub(crate) fn of(sb: &Sandbox, file: &Path) -> Option<Chart> {
        let dir = chart_of(sb, file)?;
        let load = |name: &str| {
            let path = dir.join(name);
            std::fs::metadata(&path)
                .is_ok_and(|m| m.len() <= MAX_BYTES)
                .then(|| std::fs::read_to_string(&path).ok())
                .flatten()
                .map(|t| (sb.display(&path), t))
        };
        Some(Chart {
            values: load("values.yaml"),
            chart_file: load("Chart.yaml"),
        })
    }

    /// The values `text` (a template's lines) uses, in the order it first names them, each
    /// once: `.Values.a.b` looked up as the key path `a`, `b` of the chart's `values.yaml`,
    /// `.Chart.AppVersion` as `Chart.yaml`'s `appVersion`. References found in neither file
    /// are left out.
    pub(crate) fn resolved(&self, text: &str) -> Vec<Resolved> {
        static REFERENCE: OnceLock<Option<regex::Regex>> = OnceLock::new();
        let Some(re) = REFERENCE
            .get_or_init(|| {
                regex::Regex::new(r"\.(Values|Chart)((?:\.[A-Za-z_][A-Za-z0-9_]*)+)").ok()
            })
            .as_ref()
        else {
            return Vec::new();
        };
        let mut out: Vec<Resolved> = Vec::new();
        for cap in re.captures_iter(text) {
            let reference = cap[0].to_owned();
            if out.len() >= MAX_SHOWN || out.iter().any(|r| r.reference == reference) {
                continue;
            }
            let mut path: Vec<String> = cap[2]
                .split('.')
                .filter(|p| !p.is_empty())
                .map(str::to_owned)
                .collect();
            let source = if &cap[1] == "Values" {
                self.values.as_ref()
            } else {
                // `.Chart.AppVersion` is Chart.yaml's `appVersion`.
                if let Some(first) = path.first_mut() {
                    let mut chars = first.chars();
                    *first = chars
                        .next()
                        .map(|c| c.to_lowercase().chain(chars).collect())
                        .unwrap_or_default();
                }
                self.chart_file.as_ref()
            };
            let Some((file, yaml)) = source else {
                continue;
            };
            if let Some((line, value)) = lookup(yaml, &path) {
                out.push(Resolved {
                    reference,
                    file: file.clone(),
                    line,
                    value,
                });
            }
        }
        out
    }
}

/// The folder of the chart `file` is a template of (see [`Chart::of`]).
fn chart_of(sb: &Sandbox, file: &Path) -> Option<PathBuf> {
    let root = sb.root();
    let mut dir = file.parent()?;
    let mut below_templates = false;
    while dir.starts_with(root) {
        below_templates |= dir.file_name().is_some_and(|n| n == "templates");
        if dir.join("Chart.yaml").is_file() {
            return below_templates.then(|| dir.to_path_buf());
        }
        dir = dir.parent()?;
    }
    None
}

/// The line (1-based) of YAML `text` setting the key path `path` and its value, comments
/// aside; a mapping's value is its entries (`limits.cpu: 500m, limits.memory: 256Mi`, at most
/// [`MAX_ENTRIES`], then `…`). Only mappings are followed: a list's items (`- name: redis`) are
/// no keys of the path.
fn lookup(text: &str, path: &[String]) -> Option<(usize, String)> {
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut found: Option<(usize, usize)> = None;
    let mut entries: Vec<String> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') || t.starts_with("---") {
            continue;
        }
        let indent = line.len() - t.len();
        if let Some((_, depth)) = found
            && indent <= stack.get(depth).map_or(0, |(i, _)| *i)
        {
            break;
        }
        let Some((key, rest)) = key_value(t) else {
            continue;
        };
        if t.starts_with("- ") {
            continue;
        }
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        stack.push((indent, key.to_owned()));
        if let Some((_, depth)) = found {
            if !rest.is_empty() && entries.len() <= MAX_ENTRIES {
                let keys: Vec<&str> = stack[depth + 1..].iter().map(|(_, k)| k.as_str()).collect();
                entries.push(format!("{}: {rest}", keys.join(".")));
            }
            continue;
        }
        let here = stack.len() == path.len() && stack.iter().zip(path).all(|((_, a), b)| a == b);
        if here {
            if !rest.is_empty() {
                return Some((k + 1, rest.to_owned()));
            }
            found = Some((k + 1, stack.len() - 1));
        }
    }
    let (line, _) = found?;
    if entries.is_empty() {
        return None;
    }
    let more = entries.len() > MAX_ENTRIES;
    entries.truncate(MAX_ENTRIES);
    let mut value = entries.join(", ");
    if more {
        value.push_str(", …");
    }
    Some((line, value))
}

/// A YAML line's key and its value (a trailing comment aside, quotes kept): `port: 8080` →
/// (`port`, `8080`), `limits:` → (`limits`, ``). `None` for a line that sets no key.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let t = line.strip_prefix("- ").unwrap_or(line);
    let colon = t
        .find(": ")
        .or_else(|| t.ends_with(':').then(|| t.len() - 1))?;
    let key = t[..colon].trim().trim_matches(['"', '\'']);
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
    {
        return None;
    }
    let rest = t[colon + 1..].trim();
    let rest = match rest.find(" #") {
        Some(at) if !rest.starts_with(['"', '\'']) => rest[..at].trim_end(),
        _ => rest,
    };
    Some((key, rest))
}

#[cfg(test)]
mod tests {
    use super::lookup;

    fn path(p: &str) -> Vec<String> {
        p.split('.').map(str::to_owned).collect()
    }

    #[test]
    fn a_key_path_is_looked_up_by_indentation() {
        let values = "# Defaults.\nreplicaCount: 2\nservice:\n  type: ClusterIP\n  port: 8080 # the Service's\nresources:\n  limits:\n    cpu: 500m\n    memory: 256Mi\n  requests:\n    memory: 128Mi\nprobes:\n  liveness:\n    path: /healthz\n";
        assert_eq!(
            lookup(values, &path("service.port")),
            Some((5, "8080".into()))
        );
        assert_eq!(lookup(values, &path("replicaCount")), Some((2, "2".into())));
        assert_eq!(
            lookup(values, &path("probes.liveness.path")),
            Some((14, "/healthz".into()))
        );
        assert_eq!(
            lookup(values, &path("resources")),
            Some((
                6,
                "limits.cpu: 500m, limits.memory: 256Mi, requests.memory: 128Mi".into()
            ))
        );
        assert_eq!(lookup(values, &path("service.host")), None);
        assert_eq!(lookup(values, &path("port")), None, "not at the top level");
        // A list's items are no keys of the path: the chart's own version, not a dependency's.
        let chart = "name: beacon\ndependencies:\n  - name: redis\n    version: 18.6.1\nversion: 0.4.2\nappVersion: \"1.9.0\"\n";
        assert_eq!(lookup(chart, &path("version")), Some((5, "0.4.2".into())));
        assert_eq!(
            lookup(chart, &path("appVersion")),
            Some((6, "\"1.9.0\"".into()))
        );
    }
}
