//! Matching of log file paths against the include / exclude patterns of an
//! `[[input]]` section.
//!
//! Patterns are absolute paths. Within a path component:
//!
//! * `*` matches any run of characters except `/`
//! * `?` matches exactly one character
//! * `[abc]`, `[a-z]` and `[!a-z]` match one character from (or not from) a class
//!
//! A component that is exactly `**` matches zero or more directories, so
//! `/var/log/**/*.log` matches both `/var/log/syslog.log` and
//! `/var/log/nginx/access.log`. Symlinks are not followed while walking.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PatternError {
    #[error("pattern `{0}` is not an absolute path")]
    NotAbsolute(String),
    #[error("pattern `{0}` has an unterminated character class")]
    UnterminatedClass(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Literal(char),
    AnyChar,
    Star,
    Class { negated: bool, ranges: Vec<(char, char)> },
}

impl Token {
    fn matches_char(&self, c: char) -> bool {
        match self {
            Token::Literal(l) => *l == c,
            Token::AnyChar => true,
            Token::Class { negated, ranges } => {
                ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated
            }
            Token::Star => unreachable!("stars are handled by match_tokens"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Literal(String),
    Wildcard(Vec<Token>),
    Recursive,
}

impl Segment {
    fn matches_component(&self, part: &str) -> bool {
        match self {
            Segment::Literal(s) => s == part,
            Segment::Wildcard(tokens) => {
                let chars: Vec<char> = part.chars().collect();
                match_tokens(tokens, &chars)
            }
            Segment::Recursive => true,
        }
    }
}

/// A single compiled pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    source: String,
    segments: Vec<Segment>,
}

impl Pattern {
    pub fn new(pattern: &str) -> Result<Self, PatternError> {
        if !pattern.starts_with('/') {
            return Err(PatternError::NotAbsolute(pattern.to_owned()));
        }
        let mut segments = Vec::new();
        for part in pattern.split('/').filter(|p| !p.is_empty()) {
            let segment = if part == "**" {
                if segments.last() == Some(&Segment::Recursive) {
                    continue; // `**/**` is the same as `**`
                }
                Segment::Recursive
            } else if part.contains(['*', '?', '[']) {
                let tokens = tokenize(part)
                    .ok_or_else(|| PatternError::UnterminatedClass(pattern.to_owned()))?;
                Segment::Wildcard(tokens)
            } else {
                Segment::Literal(part.to_owned())
            };
            segments.push(segment);
        }
        Ok(Self {
            source: pattern.to_owned(),
            segments,
        })
    }

    pub fn as_str(&self) -> &str {
        &self.source
    }

    pub fn matches(&self, path: &Path) -> bool {
        let mut parts = Vec::new();
        for component in path.components() {
            match component {
                Component::RootDir => {}
                Component::Normal(part) => match part.to_str() {
                    Some(part) => parts.push(part),
                    None => return false,
                },
                // relative, `.` / `..` or Windows prefixes never match an absolute pattern
                _ => return false,
            }
        }
        match_segments(&self.segments, &parts)
    }

    /// Number of leading components without wildcards, excluding the last one
    /// (which names files, not a directory).
    fn literal_prefix_len(&self) -> usize {
        let dirs = self.segments.len().saturating_sub(1);
        self.segments[..dirs]
            .iter()
            .take_while(|s| matches!(s, Segment::Literal(_)))
            .count()
    }

    /// Deepest directory that contains every possible match; walking starts here.
    pub fn base_dir(&self) -> PathBuf {
        let mut base = PathBuf::from("/");
        for segment in &self.segments[..self.literal_prefix_len()] {
            if let Segment::Literal(name) = segment {
                base.push(name);
            }
        }
        base
    }

    /// How many directory levels below [`Pattern::base_dir`] can contain
    /// matches, or `None` if the pattern contains `**`.
    fn max_depth(&self) -> Option<usize> {
        if self.segments.contains(&Segment::Recursive) {
            None
        } else {
            Some(self.segments.len() - self.literal_prefix_len())
        }
    }
}

/// Include / exclude pattern set of one input. A path is selected when it
/// matches at least one include pattern and no exclude pattern.
#[derive(Debug, Clone)]
pub struct PathMatcher {
    include: Vec<Pattern>,
    exclude: Vec<Pattern>,
}

impl PathMatcher {
    pub fn new<S: AsRef<str>>(include: &[S], exclude: &[S]) -> Result<Self, PatternError> {
        let compile = |patterns: &[S]| -> Result<Vec<Pattern>, PatternError> {
            patterns.iter().map(|p| Pattern::new(p.as_ref())).collect()
        };
        Ok(Self {
            include: compile(include)?,
            exclude: compile(exclude)?,
        })
    }

    pub fn is_match(&self, path: &Path) -> bool {
        self.include.iter().any(|p| p.matches(path)) && !self.exclude.iter().any(|p| p.matches(path))
    }

    /// Directories that have to be watched to see every file this matcher can select.
    pub fn base_dirs(&self) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = self.include.iter().map(Pattern::base_dir).collect();
        dirs.sort();
        dirs.dedup();
        dirs
    }

    /// Lists the regular files that currently match, sorted and de-duplicated.
    pub fn expand(&self) -> io::Result<Vec<PathBuf>> {
        let mut found = Vec::new();
        for pattern in &self.include {
            walk(&pattern.base_dir(), pattern.max_depth(), &mut |path| {
                if self.is_match(path) {
                    found.push(path.to_path_buf());
                }
            })?;
        }
        found.sort();
        found.dedup();
        Ok(found)
    }
}

fn walk(dir: &Path, depth: Option<usize>, visit: &mut dyn FnMut(&Path)) -> io::Result<()> {
    if depth == Some(0) {
        return Ok(());
    }
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        // Directories that don't exist (yet) are normal: the app may not have logged anything.
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err),
    };
    for entry in entries {
        let entry = entry?;
        let file_type = entry.file_type()?;
        let path = entry.path();
        if file_type.is_dir() {
            walk(&path, depth.map(|d| d - 1), visit)?;
        } else if file_type.is_file() {
            visit(&path);
        }
    }
    Ok(())
}

fn match_segments(segments: &[Segment], parts: &[&str]) -> bool {
    match segments.split_first() {
        None => parts.is_empty(),
        Some((Segment::Recursive, rest)) => {
            (0..=parts.len()).any(|skip| match_segments(rest, &parts[skip..]))
        }
        Some((segment, rest)) => match parts.split_first() {
            Some((part, tail)) => segment.matches_component(part) && match_segments(rest, tail),
            None => false,
        },
    }
}

fn match_tokens(tokens: &[Token], text: &[char]) -> bool {
    match tokens.split_first() {
        None => text.is_empty(),
        Some((Token::Star, rest)) => (0..=text.len()).any(|i| match_tokens(rest, &text[i..])),
        Some((token, rest)) => match text.split_first() {
            Some((c, tail)) => token.matches_char(*c) && match_tokens(rest, tail),
            None => false,
        },
    }
}

/// Returns `None` for an unterminated `[` class.
fn tokenize(part: &str) -> Option<Vec<Token>> {
    let mut tokens = Vec::new();
    let mut chars = part.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' => {
                // consecutive stars behave like one and would only slow matching down
                if tokens.last() != Some(&Token::Star) {
                    tokens.push(Token::Star);
                }
            }
            '?' => tokens.push(Token::AnyChar),
            '[' => {
                let negated = chars.next_if(|&c| c == '!' || c == '^').is_some();
                let mut ranges = Vec::new();
                let mut first = true;
                loop {
                    let c = chars.next()?;
                    if c == ']' && !first {
                        break;
                    }
                    first = false;
                    if chars.peek() == Some(&'-') {
                        let mut ahead = chars.clone();
                        ahead.next();
                        match ahead.next() {
                            Some(end) if end != ']' => {
                                chars = ahead;
                                ranges.push((c, end));
                            }
                            _ => ranges.push((c, c)),
                        }
                    } else {
                        ranges.push((c, c));
                    }
                }
                tokens.push(Token::Class { negated, ranges });
            }
            other => tokens.push(Token::Literal(other)),
        }
    }
    Some(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(p: &str) -> Pattern {
        Pattern::new(p).unwrap()
    }

    #[test]
    fn star_stays_within_one_component() {
        let p = pat("/var/log/*.log");
        assert!(p.matches(Path::new("/var/log/syslog.log")));
        assert!(!p.matches(Path::new("/var/log/nginx/access.log")));
        assert!(!p.matches(Path::new("/var/log/syslog.log.1")));
    }

    #[test]
    fn double_star_matches_zero_or_more_directories() {
        let p = pat("/var/log/**/*.log");
        assert!(p.matches(Path::new("/var/log/app.log")));
        assert!(p.matches(Path::new("/var/log/nginx/access.log")));
        assert!(p.matches(Path::new("/var/log/a/b/c/deep.log")));
        assert!(!p.matches(Path::new("/srv/log/app.log")));
    }

    #[test]
    fn trailing_double_star_matches_everything_below() {
        let p = pat("/tmp/cinder/archive/**");
        assert!(p.matches(Path::new("/tmp/cinder/archive/2024/06/app.log")));
        assert!(!p.matches(Path::new("/tmp/cinder/app.log")));
    }

    #[test]
    fn character_classes() {
        let p = pat("/var/log/app-[0-9].log");
        assert!(p.matches(Path::new("/var/log/app-7.log")));
        assert!(!p.matches(Path::new("/var/log/app-x.log")));

        let negated = pat("/var/log/app-[!0-9].log");
        assert!(negated.matches(Path::new("/var/log/app-x.log")));
        assert!(!negated.matches(Path::new("/var/log/app-7.log")));

        assert_eq!(
            Pattern::new("/var/log/app-[0-9.log").unwrap_err(),
            PatternError::UnterminatedClass("/var/log/app-[0-9.log".into())
        );
    }

    #[test]
    fn relative_patterns_are_rejected() {
        assert!(matches!(Pattern::new("logs/*.log"), Err(PatternError::NotAbsolute(_))));
    }

    #[test]
    fn exclude_wins_over_include() {
        let m = PathMatcher::new(&["/var/log/**/*.log"], &["/var/log/nginx/*.log"]).unwrap();
        assert!(m.is_match(Path::new("/var/log/app/server.log")));
        assert!(!m.is_match(Path::new("/var/log/nginx/access.log")));
    }

    #[test]
    fn base_dir_and_depth() {
        let p = pat("/var/log/nginx/*.log");
        assert_eq!(p.base_dir(), PathBuf::from("/var/log/nginx"));
        assert_eq!(p.max_depth(), Some(1));

        let p = pat("/var/log/*/current");
        assert_eq!(p.base_dir(), PathBuf::from("/var/log"));
        assert_eq!(p.max_depth(), Some(2));

        assert_eq!(pat("/var/log/**/*.log").max_depth(), None);
    }

    #[test]
    fn expand_walks_the_filesystem() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("nested/deeper")).unwrap();
        for file in ["a.log", "b.txt", "nested/c.log", "nested/deeper/d.log"] {
            fs::write(root.join(file), "line\n").unwrap();
        }

        let include = [format!("{}/**/*.log", root.display())];
        let exclude = [format!("{}/nested/deeper/*", root.display())];
        let found = PathMatcher::new(&include, &exclude).unwrap().expand().unwrap();
        assert_eq!(found, vec![root.join("a.log"), root.join("nested/c.log")]);
    }
}
