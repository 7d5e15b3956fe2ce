//! XML-style families whose argument values are raw text (typed later from the tool schema):
//! Qwen3-Coder (`<function=f><parameter=a>…</parameter></function>`), Seed-OSS, MiniMax M2
//! (`<invoke name="f"><parameter name="a">…`), MiniCPM 5 (`<function name="f"><param name="a">…`),
//! DeepSeek DSML and Step 3; also Functionary v3.1 (`<function=f>{json}</function>`).

use std::ops::Range;

use super::Format;
use super::json_tags::trim_range;
use super::scan::{Args, Input, Piece, RawCall, Step, Wait, body_until, find, skip_ws};
use super::value::{Stop, json_at};

/// Strips one leading and one trailing newline (the XML families put values on their own line).
fn strip_nl(s: &str) -> &str {
    let s = s
        .strip_prefix("\r\n")
        .or_else(|| s.strip_prefix('\n'))
        .unwrap_or(s);
    s.strip_suffix("\r\n")
        .or_else(|| s.strip_suffix('\n'))
        .unwrap_or(s)
}

/// Qwen3-Coder values sit on their own lines, indented like the XML around them: leading
/// whitespace goes, and so does the last line break with the close tag's indentation.
fn trim_value(v: &str) -> &str {
    // The close tag's own line: a line break and the XML's indentation.
    let t = v.trim_end_matches([' ', '\t']);
    let indented = t.len() < v.len();
    let v = match t.strip_suffix("\r\n").or_else(|| t.strip_suffix('\n')) {
        Some(x) => x,
        None if indented && t.trim().is_empty() => "",
        None => v,
    };
    let v = v
        .strip_prefix("\r\n")
        .or_else(|| v.strip_prefix('\n'))
        .unwrap_or(v);
    // Values of indented XML carry that indentation too.
    if indented { v.trim() } else { v }
}

/// `<function=NAME>…</function>` blocks inside `text[body]`.
pub(crate) fn qwen_functions(
    inp: &Input<'_>,
    body: Range<usize>,
    span: Range<usize>,
    fmt: Format,
) -> Vec<Piece> {
    let t = inp.text;
    let mut out = Vec::new();
    let mut at = body.start;
    while let Some(o) = find(t, at, "<function=").filter(|o| *o < body.end) {
        let ns = o + "<function=".len();
        let Some(gt) = find(t, ns, ">").filter(|g| *g <= body.end) else {
            break;
        };
        let name = t[ns..gt].trim().trim_matches('"').to_owned();
        if !super::scan::is_name(&name) {
            // `<function=f` never closed by `>`: not a call; the next block is read on its own.
            at = ns;
            continue;
        }
        let fs = gt + 1;
        let (fe, next) = match find(t, fs, "</function>").filter(|e| *e <= body.end) {
            Some(e) => (e, e + "</function>".len()),
            None => (body.end, body.end),
        };
        let (pairs, cut) = params_eq(t, fs..fe, fmt != Format::SeedOssXml);
        out.push(body_call(t, name, fs..fe, pairs, cut, span.clone(), fmt));
        at = next;
    }
    if out.is_empty() {
        out.push(Piece::Content(span));
    }
    out
}

/// The call named `name` whose body is `body`: its parameter `pairs` (`cut`: the output ended
/// inside one), or, when the body holds none and starts with `{`, the body itself as JSON
/// arguments (models that drop the parameter tags and write the object).
fn body_call(
    t: &str,
    name: String,
    body: Range<usize>,
    pairs: Vec<(String, String, Option<bool>)>,
    cut: bool,
    span: Range<usize>,
    format: Format,
) -> Piece {
    let body_json = trim_range(t, body.clone());
    let args = if pairs.is_empty() && t[body_json.clone()].starts_with('{') {
        Args::Json(body_json)
    } else {
        Args::Pairs { pairs, cut }
    };
    Piece::Call(RawCall {
        name,
        args,
        raw: body,
        span,
        format,
        id: None,
    })
}

/// `<parameter=KEY>VALUE</parameter>` pairs (a missing close runs to the next parameter, or to
/// `</function>`). Also says whether the output ended inside a key or a value: the body runs to
/// the end of the text and the last key or value never closed.
fn params_eq(t: &str, r: Range<usize>, trim: bool) -> (Vec<(String, String, Option<bool>)>, bool) {
    let mut pairs = Vec::new();
    let mut at = r.start;
    let at_end = r.end == t.len();
    while let Some(p) = find(t, at, "<parameter=").filter(|p| *p < r.end) {
        let ks = p + "<parameter=".len();
        let Some(gt) = find(t, ks, ">").filter(|g| *g <= r.end) else {
            return (pairs, at_end);
        };
        let key = t[ks..gt].trim().trim_matches('"').to_owned();
        let vs = gt + 1;
        let close = find(t, vs, "</parameter>").filter(|e| *e <= r.end);
        let next_open = find(t, vs, "<parameter=").filter(|e| *e < r.end);
        let (ve, next) = match (close, next_open) {
            (Some(c), Some(n)) if n < c => (n, n),
            (Some(c), _) => (c, c + "</parameter>".len()),
            (None, Some(n)) => (n, n),
            (None, None) => (r.end, r.end),
        };
        let v = &t[vs..ve];
        pairs.push((key, if trim { trim_value(v) } else { v }.to_owned(), None));
        if close.is_none() && next_open.is_none() && at_end {
            // No close tag, no next parameter, no `</function>`: the output ended in the value.
            return (pairs, true);
        }
        at = next;
    }
    (pairs, false)
}

/// `<function=` without a wrapper: Functionary v3.1 JSON or a bare Qwen3-Coder function.
pub(crate) fn function_eq(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    let Some(gt) = find(t, mend, ">") else {
        return inp.more(Wait::Markers(&[">"]));
    };
    let name = t[mend..gt].trim();
    if !super::scan::is_name(name) {
        return Step::NotMine;
    }
    let at = skip_ws(t, gt + 1);
    if at >= t.len() && !inp.fin {
        return Step::NeedMore(Wait::Any);
    }
    if t.as_bytes().get(at) == Some(&b'{') {
        let (args_end, end) = match json_at(t, at) {
            Ok((_, e)) => match super::json_tags::expect_close(inp, e, &["</function>"]) {
                Ok(end) => (e, end),
                Err(st) => return st,
            },
            Err(Stop::Eof) if !inp.fin => return Step::NeedMore(Wait::Markers(&["</function>"])),
            _ => match body_until(inp, at, &["</function>"]) {
                Ok((b, end)) => (b.end, end),
                Err(st) => return st,
            },
        };
        return Step::Done {
            end,
            pieces: vec![Piece::Call(RawCall {
                name: name.to_owned(),
                args: Args::Json(at..args_end),
                raw: at..args_end,
                span: s..end,
                format: Format::FunctionaryV31,
                id: None,
            })],
        };
    }
    // The XML form's body starts with a parameter or the close tag (or is cut off here); text
    // after the tag is prose that quotes it (`use <function=get_weather> to …`).
    let rest = &t[at..];
    let opens = |tag: &str| rest.starts_with(tag) || (!inp.fin && tag.starts_with(rest));
    if !(rest.is_empty() || opens("<parameter=") || opens("</function>")) {
        return Step::NotMine;
    }
    match body_until(inp, gt + 1, &["</function>"]) {
        Ok((body, end)) => {
            let end = match super::json_tags::expect_close(inp, end, &["</tool_call>"]) {
                Ok(x) => x,
                Err(st) => return st,
            };
            let (pairs, cut) = params_eq(t, body.clone(), true);
            Step::Done {
                end,
                pieces: vec![Piece::Call(RawCall {
                    name: name.to_owned(),
                    args: Args::Pairs { pairs, cut },
                    raw: body,
                    span: s..end,
                    format: Format::Qwen3CoderXml,
                    id: None,
                })],
            }
        }
        Err(st) => st,
    }
}

/// `<seed:tool_call>…</seed:tool_call>`.
pub(crate) fn seed(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    match body_until(inp, mend, &["</seed:tool_call>"]) {
        Ok((body, end)) => Step::Done {
            end,
            pieces: qwen_functions(inp, body, s..end, Format::SeedOssXml),
        },
        Err(st) => st,
    }
}

/// Tag names of one invoke-style family.
struct Tags {
    invoke: &'static str,
    invoke_close: &'static str,
    param: &'static str,
    param_close: &'static str,
}

/// Reads `name="X"` / `"X"` / `X` up to `>`: returns (value, rest-of-tag, offset after `>`).
fn attr_tag(t: &str, at: usize, limit: usize) -> Option<(String, String, usize)> {
    let gt = find(t, at, ">").filter(|g| *g < limit)?;
    let inner = t[at..gt].trim();
    let (val, rest) = if let Some(r) = inner.strip_prefix('"') {
        let e = r.find('"')?;
        (&r[..e], &r[e + 1..])
    } else if let Some(r) = inner.strip_prefix('\'') {
        let e = r.find('\'')?;
        (&r[..e], &r[e + 1..])
    } else {
        let e = inner.find(char::is_whitespace).unwrap_or(inner.len());
        (&inner[..e], &inner[e..])
    };
    Some((val.to_owned(), rest.to_owned(), gt + 1))
}

fn invokes(
    t: &str,
    body: Range<usize>,
    span: Range<usize>,
    tags: &Tags,
    fmt: Format,
) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut at = body.start;
    while let Some(o) = find(t, at, tags.invoke).filter(|o| *o < body.end) {
        let Some((name, _, fs)) = attr_tag(t, o + tags.invoke.len(), body.end) else {
            break;
        };
        let (fe, next) = match find(t, fs, tags.invoke_close).filter(|e| *e <= body.end) {
            Some(e) => (e, e + tags.invoke_close.len()),
            None => (body.end, body.end),
        };
        let mut pairs = Vec::new();
        // The output ended inside a parameter's tag or value (the invoke runs to the end).
        let mut cut = false;
        let at_end = fe == t.len();
        let mut p = fs;
        while let Some(po) = find(t, p, tags.param).filter(|x| *x < fe) {
            let Some((key, rest, vs)) = attr_tag(t, po + tags.param.len(), fe) else {
                cut = at_end;
                break;
            };
            let hint = if rest.contains("string=\"true\"") {
                Some(true)
            } else if rest.contains("string=\"false\"") {
                Some(false)
            } else {
                None
            };
            // `<![CDATA[…]]>` protects a value that contains the close tag.
            let (cdata, search_from) = if t[vs..fe].starts_with("<![CDATA[") {
                match find(t, vs, "]]>").filter(|e| *e < fe) {
                    Some(ce) => (Some(vs + 9..ce), ce + 3),
                    None => (None, vs),
                }
            } else {
                (None, vs)
            };
            let (ve, pn) = match find(t, search_from, tags.param_close).filter(|e| *e <= fe) {
                Some(e) => (e, e + tags.param_close.len()),
                None => {
                    cut = at_end;
                    (fe, fe)
                }
            };
            let v = match cdata {
                Some(c) => t[c].to_owned(),
                None => strip_nl(&t[vs..ve]).to_owned(),
            };
            pairs.push((key, v, hint));
            p = pn;
        }
        out.push(body_call(t, name, fs..fe, pairs, cut, span.clone(), fmt));
        at = next;
    }
    if out.is_empty() && !t[trim_range(t, body)].is_empty() {
        out.push(Piece::Content(span));
    }
    out
}

/// An envelope opened at `s` whose body runs from `from` to the first of `closers` and holds
/// `tags`-style invokes: the calls found, or the step the body search gave (held, unclosed).
fn invoke_envelope(
    inp: &Input<'_>,
    s: usize,
    from: usize,
    closers: &'static [&'static str],
    tags: &Tags,
    format: Format,
) -> Step {
    match body_until(inp, from, closers) {
        Ok((body, end)) => Step::Done {
            end,
            pieces: invokes(inp.text, body, s..end, tags, format),
        },
        Err(st) => st,
    }
}

/// `<minimax:tool_call>…</minimax:tool_call>`.
pub(crate) fn minimax(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    const T: Tags = Tags {
        invoke: "<invoke name=",
        invoke_close: "</invoke>",
        param: "<parameter name=",
        param_close: "</parameter>",
    };
    invoke_envelope(
        inp,
        s,
        mend,
        &["</minimax:tool_call>"],
        &T,
        Format::MinimaxM2Xml,
    )
}

/// `<function name="f"><param name="a">…</param></function>` (MiniCPM 5).
pub(crate) fn minicpm(inp: &Input<'_>, s: usize, _mend: usize) -> Step {
    const T: Tags = Tags {
        invoke: "<function name=",
        invoke_close: "</function>",
        param: "<param name=",
        param_close: "</param>",
    };
    match body_until(inp, s, &["</function>"]) {
        Ok((body, end)) => {
            let body = body.start..end;
            Step::Done {
                end,
                pieces: invokes(inp.text, body, s..end, &T, Format::Minicpm5Xml),
            }
        }
        Err(st) => st,
    }
}

/// `<｜DSML｜function_calls>…</｜DSML｜function_calls>`.
pub(crate) fn dsml(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    const T: Tags = Tags {
        invoke: "<\u{ff5c}DSML\u{ff5c}invoke name=",
        invoke_close: "</\u{ff5c}DSML\u{ff5c}invoke>",
        param: "<\u{ff5c}DSML\u{ff5c}parameter name=",
        param_close: "</\u{ff5c}DSML\u{ff5c}parameter>",
    };
    invoke_envelope(
        inp,
        s,
        mend,
        &["</\u{ff5c}DSML\u{ff5c}function_calls>"],
        &T,
        Format::DeepseekDsml,
    )
}

/// `<｜tool_calls_begin｜>…<｜tool_calls_end｜>` with `<steptml:invoke>` calls (Step 3).
pub(crate) fn step3(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    const T: Tags = Tags {
        invoke: "<steptml:invoke name=",
        invoke_close: "</steptml:invoke>",
        param: "<steptml:parameter name=",
        param_close: "</steptml:parameter>",
    };
    let close: &'static [&'static str] = if inp.text[s..mend].contains("calls") {
        &["<\u{ff5c}tool_calls_end\u{ff5c}>"]
    } else {
        &["<\u{ff5c}tool_call_end\u{ff5c}>"]
    };
    invoke_envelope(inp, s, mend, close, &T, Format::Step3)
}
