//! A small GBNF recognizer for tests: parses a grammar the way llama.cpp's `llama-grammar.cpp`
//! reads it (rules `name ::= body`, literals with escapes, character classes with ranges,
//! negation and `\x`/`\u` escapes, rule references, `( )`, `|`, `?`, `*`, `+`, `{m}`, `{m,}`,
//! `{m,n}`, `#` comments) and tells whether a text matches the `root` rule.
//!
//! It is stricter than llama.cpp where toolmend's generator must be careful anyway: a rule name
//! defined twice, a reference to an undefined rule, and an empty rule body are parse errors.
//! Matching computes, for each expression and start position, the set of end positions, memoised
//! per (rule, position); left recursion (which llama.cpp also refuses) panics.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap};

/// A parsed grammar.
#[derive(Debug)]
pub struct Grammar {
    names: Vec<String>,
    bodies: Vec<Expr>,
    root: usize,
}

#[derive(Debug, Clone)]
enum Expr {
    Seq(Vec<Expr>),
    Alt(Vec<Expr>),
    Lit(Vec<char>),
    Class {
        ranges: Vec<(char, char)>,
        negated: bool,
    },
    Any,
    Ref(usize),
    Repeat(Box<Expr>, usize, Option<usize>),
}

struct Parser<'a> {
    s: &'a [char],
    i: usize,
    names: HashMap<String, usize>,
    order: Vec<String>,
    bodies: Vec<Option<Expr>>,
}

impl Grammar {
    /// Parses `text`.
    ///
    /// # Errors
    /// A message naming the problem: bad syntax, a duplicate or undefined rule, an empty body,
    /// or no `root` rule.
    pub fn parse(text: &str) -> Result<Self, String> {
        let chars: Vec<char> = text.chars().collect();
        let mut p = Parser {
            s: &chars,
            i: 0,
            names: HashMap::new(),
            order: Vec::new(),
            bodies: Vec::new(),
        };
        loop {
            p.skip_space(true);
            if p.i >= p.s.len() {
                break;
            }
            let name = p.name()?;
            p.skip_space(false);
            if !p.eat_str("::=") {
                return Err(format!("expected ::= after {name} at {}", p.i));
            }
            let id = p.id(&name);
            if p.bodies[id].is_some() {
                return Err(format!("rule {name} is defined twice"));
            }
            let body = p.alternates(false)?;
            if matches!(&body, Expr::Seq(v) if v.is_empty()) {
                return Err(format!("rule {name} has an empty body"));
            }
            p.bodies[id] = Some(body);
        }
        let mut bodies = Vec::new();
        for (name, b) in p.order.iter().zip(p.bodies) {
            bodies.push(b.ok_or_else(|| format!("rule {name} is used but not defined"))?);
        }
        let root = *p.names.get("root").ok_or("no root rule")?;
        Ok(Grammar {
            names: p.order,
            bodies,
            root,
        })
    }

    /// Whether all of `text` matches the `root` rule.
    #[must_use]
    pub fn accepts(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let mut m = Matcher {
            g: self,
            s: &chars,
            memo: HashMap::new(),
        };
        m.rule(self.root, 0).contains(&chars.len())
    }

    /// The rule names, in order of first mention.
    #[must_use]
    pub fn rule_names(&self) -> &[String] {
        &self.names
    }
}

impl Parser<'_> {
    fn id(&mut self, name: &str) -> usize {
        if let Some(&i) = self.names.get(name) {
            return i;
        }
        self.names.insert(name.to_owned(), self.order.len());
        self.order.push(name.to_owned());
        self.bodies.push(None);
        self.order.len() - 1
    }

    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn eat_str(&mut self, t: &str) -> bool {
        let t: Vec<char> = t.chars().collect();
        if self.s[self.i..].starts_with(&t) {
            self.i += t.len();
            true
        } else {
            false
        }
    }

    /// Skips blanks and comments; newlines too when `newlines` (or inside parentheses).
    fn skip_space(&mut self, newlines: bool) {
        while let Some(c) = self.peek() {
            if c == '#' {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.i += 1;
                }
            } else if c == ' ' || c == '\t' || (newlines && (c == '\n' || c == '\r')) {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn name(&mut self) -> Result<String, String> {
        let start = self.i;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            self.i += 1;
        }
        if start == self.i {
            return Err(format!("expected a rule name at {}", self.i));
        }
        Ok(self.s[start..self.i].iter().collect())
    }

    fn alternates(&mut self, nested: bool) -> Result<Expr, String> {
        let mut alts = vec![self.sequence(nested)?];
        while self.peek() == Some('|') {
            self.i += 1;
            self.skip_space(true);
            alts.push(self.sequence(nested)?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap()
        } else {
            Expr::Alt(alts)
        })
    }

    fn sequence(&mut self, nested: bool) -> Result<Expr, String> {
        let mut items: Vec<Expr> = Vec::new();
        loop {
            self.skip_space(nested);
            let Some(c) = self.peek() else { break };
            let item = match c {
                '"' => {
                    self.i += 1;
                    let mut lit = Vec::new();
                    loop {
                        match self.peek() {
                            None => return Err("unterminated literal".into()),
                            Some('"') => {
                                self.i += 1;
                                break;
                            }
                            Some(_) => lit.push(self.char_in()?),
                        }
                    }
                    Expr::Lit(lit)
                }
                '[' => {
                    self.i += 1;
                    let negated = self.peek() == Some('^');
                    if negated {
                        self.i += 1;
                    }
                    let mut ranges = Vec::new();
                    loop {
                        match self.peek() {
                            None => return Err("unterminated character class".into()),
                            Some(']') => {
                                self.i += 1;
                                break;
                            }
                            Some(_) => {
                                let lo = self.char_in()?;
                                let hi = if self.peek() == Some('-')
                                    && self.s.get(self.i + 1).is_some_and(|c| *c != ']')
                                {
                                    self.i += 1;
                                    self.char_in()?
                                } else {
                                    lo
                                };
                                ranges.push((lo, hi));
                            }
                        }
                    }
                    Expr::Class { ranges, negated }
                }
                '.' => {
                    self.i += 1;
                    Expr::Any
                }
                '(' => {
                    self.i += 1;
                    self.skip_space(true);
                    let inner = self.alternates(true)?;
                    self.skip_space(true);
                    if self.peek() != Some(')') {
                        return Err(format!("expected ) at {}", self.i));
                    }
                    self.i += 1;
                    inner
                }
                '*' | '+' | '?' | '{' => {
                    let Some(last) = items.pop() else {
                        return Err(format!("repetition without an item at {}", self.i));
                    };
                    self.i += 1;
                    let (min, max) = match c {
                        '*' => (0, None),
                        '+' => (1, None),
                        '?' => (0, Some(1)),
                        _ => {
                            self.skip_space(nested);
                            let min = self.int()?;
                            self.skip_space(nested);
                            let max = if self.peek() == Some(',') {
                                self.i += 1;
                                self.skip_space(nested);
                                if self.peek() == Some('}') {
                                    None
                                } else {
                                    Some(self.int()?)
                                }
                            } else {
                                Some(min)
                            };
                            self.skip_space(nested);
                            if self.peek() != Some('}') {
                                return Err(format!("expected }} at {}", self.i));
                            }
                            self.i += 1;
                            (min, max)
                        }
                    };
                    Expr::Repeat(Box::new(last), min, max)
                }
                c if c.is_ascii_alphanumeric() || c == '-' || c == '_' => {
                    let n = self.name()?;
                    Expr::Ref(self.id(&n))
                }
                _ => break,
            };
            items.push(item);
        }
        Ok(if items.len() == 1 {
            items.pop().unwrap()
        } else {
            Expr::Seq(items)
        })
    }

    fn int(&mut self) -> Result<usize, String> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let s: String = self.s[start..self.i].iter().collect();
        s.parse()
            .map_err(|_| format!("expected a number at {start}"))
    }

    /// One character of a literal or class, with its escape.
    fn char_in(&mut self) -> Result<char, String> {
        let c = self.peek().ok_or("unexpected end")?;
        self.i += 1;
        if c != '\\' {
            return Ok(c);
        }
        let e = self.peek().ok_or("unexpected end in escape")?;
        self.i += 1;
        let hex = |p: &mut Self, n: usize| -> Result<char, String> {
            let s: String =
                p.s.get(p.i..p.i + n)
                    .ok_or("short escape")?
                    .iter()
                    .collect();
            p.i += n;
            let v = u32::from_str_radix(&s, 16).map_err(|_| format!("bad escape {s}"))?;
            char::from_u32(v).ok_or_else(|| format!("bad code point {v}"))
        };
        Ok(match e {
            'x' => hex(self, 2)?,
            'u' => hex(self, 4)?,
            'U' => hex(self, 8)?,
            't' => '\t',
            'r' => '\r',
            'n' => '\n',
            '\\' | '"' | '[' | ']' => e,
            other => return Err(format!("unknown escape \\{other}")),
        })
    }
}

struct Matcher<'g, 's> {
    g: &'g Grammar,
    s: &'s [char],
    /// `None` while being computed (a second visit is left recursion).
    memo: HashMap<(usize, usize), Option<BTreeSet<usize>>>,
}

impl Matcher<'_, '_> {
    fn rule(&mut self, r: usize, at: usize) -> BTreeSet<usize> {
        match self.memo.get(&(r, at)) {
            Some(Some(set)) => return set.clone(),
            Some(None) => panic!("left recursion through rule {}", self.g.names[r]),
            None => {}
        }
        self.memo.insert((r, at), None);
        let body = &self.g.bodies[r];
        let set = self.expr(body, at);
        self.memo.insert((r, at), Some(set.clone()));
        set
    }

    fn expr(&mut self, e: &Expr, at: usize) -> BTreeSet<usize> {
        match e {
            Expr::Lit(l) => {
                if self.s[at..].starts_with(l) {
                    BTreeSet::from([at + l.len()])
                } else {
                    BTreeSet::new()
                }
            }
            Expr::Class { ranges, negated } => match self.s.get(at) {
                Some(c) if ranges.iter().any(|(lo, hi)| lo <= c && c <= hi) != *negated => {
                    BTreeSet::from([at + 1])
                }
                _ => BTreeSet::new(),
            },
            Expr::Any => {
                if at < self.s.len() {
                    BTreeSet::from([at + 1])
                } else {
                    BTreeSet::new()
                }
            }
            Expr::Ref(r) => self.rule(*r, at),
            Expr::Alt(alts) => {
                let mut out = BTreeSet::new();
                for a in alts {
                    out.extend(self.expr(a, at));
                }
                out
            }
            Expr::Seq(items) => {
                let mut cur = BTreeSet::from([at]);
                for item in items {
                    let mut next = BTreeSet::new();
                    for p in cur {
                        next.extend(self.expr(item, p));
                    }
                    if next.is_empty() {
                        return next;
                    }
                    cur = next;
                }
                cur
            }
            Expr::Repeat(inner, min, max) => {
                let mut out = BTreeSet::new();
                let mut cur = BTreeSet::from([at]);
                let mut n = 0;
                loop {
                    if n >= *min {
                        out.extend(cur.iter().copied());
                    }
                    if max.is_some_and(|m| n >= m) || cur.is_empty() {
                        break;
                    }
                    let mut next = BTreeSet::new();
                    for p in &cur {
                        next.extend(self.expr(inner, *p));
                    }
                    n += 1;
                    if n > *min {
                        // Past the minimum, a position already reached (with fewer repetitions,
                        // so as many or more still allowed) adds nothing new.
                        next.retain(|p| !out.contains(p));
                    }
                    cur = next;
                }
                out
            }
        }
    }
}

/// The call text `{"name":"<name>","arguments":<args>}` of [`toolmend::schema::Envelope::json`],
/// with no spaces (the grammar allows optional spaces; compact text is what a model writes most).
#[must_use]
pub fn json_call(name: &str, args: &serde_json::Value) -> String {
    format!(
        "{{\"name\":{},\"arguments\":{}}}",
        serde_json::Value::String(name.to_owned()),
        args
    )
}
