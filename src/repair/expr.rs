//! Constant arithmetic written where a number belongs: `2 * Math.PI`, `60 * 60 * 24`,
//! `(3 + 4) * 2`, `math.pi / 2`. Small models write these in arguments; repair evaluates them to
//! the number they stand for (reported as [`FixKind::EvaluatedExpression`](super::FixKind)).
//!
//! Only numbers, the constants π and e under a module prefix (`Math.PI`, `math.pi`, `np.pi`,
//! `Math.E`, …), `+ - * /` and parentheses count. Text that merely looks like arithmetic stays
//! text: `-` or `/` between two plain numbers without spaces around it is a date, a range or a
//! fraction (`2024-01-05`, `10-12`, `10/2/2024`), and so is anything followed by more than a
//! delimiter. The scan looks at most [`MAX_LEN`] bytes ahead, so trying it everywhere stays linear.

/// The longest expression looked at, in bytes.
pub(crate) const MAX_LEN: usize = 160;

/// Deepest parenthesis nesting evaluated.
const MAX_PARENS: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok {
    Num { value: f64, int: Option<i64> },
    Const(f64),
    Op(u8),
    Open,
    Close,
}

/// A value computed from an expression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Value {
    /// Only integers, `+ - *` and no overflow.
    Int(i64),
    /// Anything else (finite).
    Float(f64),
}

/// The expression at the start of `b`: its value and its length in bytes (trailing spaces not
/// included), when `b` starts with constant arithmetic that ends at a delimiter (`,` `}` `]` `)`)
/// or the end of input, and holds at least one operator or one named constant.
pub(crate) fn at(b: &[u8]) -> Option<(Value, usize)> {
    let first = *b.first()?;
    if !(first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.' | b'(' | b'M' | b'm' | b'n'))
    {
        return None;
    }
    let limit = b.len().min(MAX_LEN);
    // Cheap rejection first (this runs at every number): no operator after the first byte (up to
    // the value's end at `,` `}` `]`) and no named constant means no expression. A plain byte
    // scan: the segment is a few bytes for the usual number.
    if !matches!(first, b'M' | b'm' | b'n')
        && !b[1..limit]
            .iter()
            .take_while(|c| !matches!(c, b',' | b'}' | b']'))
            .any(|c| matches!(c, b'*' | b'/' | b'+' | b'-'))
    {
        return None;
    }
    let mut toks: Vec<(Tok, usize, usize)> = Vec::new();
    // Parentheses open so far.
    let mut open = 0usize;
    let mut i = 0;
    let mut end = 0;
    loop {
        while i < limit && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        if i >= limit {
            if b.len() > limit {
                return None;
            }
            break;
        }
        let c = b[i];
        let start = i;
        let tok = match c {
            b'0'..=b'9' | b'.' => {
                let (tok, n) = number(&b[i..limit])?;
                i += n;
                tok
            }
            b'+' | b'-' | b'*' | b'/' => {
                i += 1;
                Tok::Op(c)
            }
            b'(' => {
                i += 1;
                open += 1;
                Tok::Open
            }
            b')' => {
                // A `)` that closes nothing ends the expression (a tuple or a call around it).
                if open == 0 {
                    break;
                }
                open -= 1;
                i += 1;
                Tok::Close
            }
            b'A'..=b'Z' | b'a'..=b'z' => {
                let mut j = i;
                while j < limit && (b[j].is_ascii_alphanumeric() || b[j] == b'.' || b[j] == b'_') {
                    j += 1;
                }
                let v = constant(&b[i..j])?;
                i = j;
                Tok::Const(v)
            }
            b',' | b'}' | b']' | b'\n' | b'\r' => break,
            _ => return None,
        };
        toks.push((tok, start, i));
        end = i;
    }
    if !toks
        .iter()
        .any(|t| matches!(t.0, Tok::Op(b'*' | b'/') | Tok::Const(_)))
        && !toks
            .iter()
            .enumerate()
            .any(|(k, t)| matches!(t.0, Tok::Op(_)) && k > 0 && is_binary(&toks, k))
    {
        return None;
    }
    // `-` `+` `/` between two plain numbers need spaces on both sides: `10-12` is a range.
    for k in 1..toks.len().saturating_sub(1) {
        if let Tok::Op(b'-' | b'+' | b'/') = toks[k].0
            && is_binary(&toks, k)
            && matches!(toks[k - 1].0, Tok::Num { .. })
            && matches!(toks[k + 1].0, Tok::Num { .. })
        {
            let spaced = toks[k - 1].2 < toks[k].1 && toks[k].2 < toks[k + 1].1;
            if !spaced {
                return None;
            }
        }
    }
    let tokens: Vec<Tok> = toks.iter().map(|t| t.0).collect();
    let mut p = Eval {
        toks: &tokens,
        k: 0,
        depth: 0,
    };
    let v = p.sum()?;
    if p.k != tokens.len() {
        return None;
    }
    match v {
        Value::Float(f) if !f.is_finite() => None,
        v => Some((v, end)),
    }
}

/// True when the operator at `k` joins two operands (it follows an operand or `)`).
fn is_binary(toks: &[(Tok, usize, usize)], k: usize) -> bool {
    k > 0 && matches!(toks[k - 1].0, Tok::Num { .. } | Tok::Const(_) | Tok::Close)
}

fn number(b: &[u8]) -> Option<(Tok, usize)> {
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i;
    let mut float = false;
    if i < b.len() && b[i] == b'.' {
        float = true;
        i += 1;
        let f0 = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == f0 && int_digits == 0 {
            return None;
        }
    }
    if i < b.len() && matches!(b[i], b'e' | b'E') {
        float = true;
        i += 1;
        if i < b.len() && matches!(b[i], b'+' | b'-') {
            i += 1;
        }
        let e0 = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == e0 {
            return None;
        }
    }
    if i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        return None;
    }
    let text = std::str::from_utf8(&b[..i]).ok()?;
    let value: f64 = text.parse().ok()?;
    // A leading zero (`007`) is an id, not a number: not arithmetic.
    if int_digits > 1 && b[0] == b'0' {
        return None;
    }
    let int = if float {
        None
    } else {
        text.parse::<i64>().ok()
    };
    Some((Tok::Num { value, int }, i))
}

fn constant(word: &[u8]) -> Option<f64> {
    let (module, name) = word.split_at(word.iter().rposition(|&c| c == b'.')?);
    let name = &name[1..];
    if !matches!(module, b"Math" | b"math" | b"np" | b"numpy") {
        return None;
    }
    match name {
        b"PI" | b"pi" => Some(std::f64::consts::PI),
        b"E" | b"e" => Some(std::f64::consts::E),
        b"tau" | b"TAU" => Some(std::f64::consts::TAU),
        _ => None,
    }
}

/// Precedence climbing over the tokens; parentheses nest at most [`MAX_PARENS`] deep.
struct Eval<'t> {
    toks: &'t [Tok],
    k: usize,
    depth: usize,
}

impl Eval<'_> {
    fn sum(&mut self) -> Option<Value> {
        let mut acc = self.product()?;
        while let Some(Tok::Op(op @ (b'+' | b'-'))) = self.toks.get(self.k).copied() {
            self.k += 1;
            let rhs = self.product()?;
            acc = apply(acc, op, rhs)?;
        }
        Some(acc)
    }

    fn product(&mut self) -> Option<Value> {
        let mut acc = self.unary()?;
        while let Some(Tok::Op(op @ (b'*' | b'/'))) = self.toks.get(self.k).copied() {
            self.k += 1;
            let rhs = self.unary()?;
            acc = apply(acc, op, rhs)?;
        }
        Some(acc)
    }

    fn unary(&mut self) -> Option<Value> {
        match self.toks.get(self.k).copied()? {
            Tok::Op(b'-') => {
                self.k += 1;
                Some(match self.unary()? {
                    Value::Int(i) => Value::Int(i.checked_neg()?),
                    Value::Float(f) => Value::Float(-f),
                })
            }
            Tok::Op(b'+') => {
                self.k += 1;
                self.unary()
            }
            Tok::Num { value, int } => {
                self.k += 1;
                Some(int.map_or(Value::Float(value), Value::Int))
            }
            Tok::Const(v) => {
                self.k += 1;
                Some(Value::Float(v))
            }
            Tok::Open => {
                if self.depth >= MAX_PARENS {
                    return None;
                }
                self.depth += 1;
                self.k += 1;
                let v = self.sum()?;
                if self.toks.get(self.k) != Some(&Tok::Close) {
                    return None;
                }
                self.k += 1;
                self.depth -= 1;
                Some(v)
            }
            _ => None,
        }
    }
}

fn apply(a: Value, op: u8, b: Value) -> Option<Value> {
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        let r = match op {
            b'+' => x.checked_add(y),
            b'-' => x.checked_sub(y),
            b'*' => x.checked_mul(y),
            _ => None,
        };
        if let Some(r) = r {
            return Some(Value::Int(r));
        }
    }
    let (x, y) = (as_f64(a), as_f64(b));
    let r = match op {
        b'+' => x + y,
        b'-' => x - y,
        b'*' => x * y,
        _ if y == 0.0 => return None,
        _ => x / y,
    };
    r.is_finite().then_some(Value::Float(r))
}

#[allow(clippy::cast_precision_loss)]
fn as_f64(v: Value) -> f64 {
    match v {
        Value::Int(i) => i as f64,
        Value::Float(f) => f,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(s: &str) -> Option<(Value, usize)> {
        at(s.as_bytes())
    }

    #[test]
    fn evaluates_constant_arithmetic() {
        assert_eq!(
            eval("2 * Math.PI, "),
            Some((Value::Float(std::f64::consts::TAU), 11))
        );
        assert_eq!(eval("60 * 60 * 24}"), Some((Value::Int(86400), 12)));
        assert_eq!(eval("(3 + 4) * 2]"), Some((Value::Int(14), 11)));
        assert_eq!(eval("10 - 3 * 2"), Some((Value::Int(4), 10)));
        assert_eq!(eval("-2 * 3"), Some((Value::Int(-6), 6)));
        assert_eq!(eval("7 / 2"), Some((Value::Float(3.5), 5)));
        assert_eq!(
            eval("math.pi"),
            Some((Value::Float(std::f64::consts::PI), 7))
        );
        assert_eq!(eval("1e3 * 2"), Some((Value::Float(2000.0), 7)));
    }

    #[test]
    fn leaves_lookalikes_and_non_arithmetic_alone() {
        for s in [
            "5",
            "-5",
            "1.5e3",
            "2024-01-05",
            "10-12",
            "10/2/2024",
            "1/2",
            "3 apples",
            "2 * x",
            "1 / 0",
            "pi * 2",
            "(7)",
            "Math.floor(2)",
            "2 *",
            "* 2",
            "007 * 2",
            "9223372036854775807 * 9223372036854775807 * 1e308 * 1e308",
        ] {
            assert_eq!(eval(s), None, "{s}");
        }
        // The expression ends at a delimiter; what follows is the parser's business.
        assert_eq!(eval("2 + 3 }x"), Some((Value::Int(5), 5)));
    }

    #[test]
    fn the_lookahead_is_bounded() {
        let long = format!("{} 1", "1 + ".repeat(100));
        assert_eq!(eval(&long), None);
    }
}
