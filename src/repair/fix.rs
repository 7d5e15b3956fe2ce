//! The record of what repair changed: one [`Fix`] per change, with its kind and input byte offset.

/// One change made by repair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Fix {
    /// What was changed.
    pub kind: FixKind,
    /// Byte offset in the input where the change applies.
    pub at: usize,
}

/// The kinds of change repair makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FixKind {
    /// Text around the JSON value (prose, a bullet, trailing explanation) was removed.
    StrippedWrapper,
    /// A Markdown code fence (```` ```json ````) around the value was removed.
    StrippedCodeFence,
    /// A `//`, `/* */` or `#` comment was removed.
    StrippedComment,
    /// A non-JSON space (no-break space, zero-width space, BOM, …) became a plain space.
    NormalizedWhitespace,
    /// A single, curly or other special quote became `"`, or a doubled quote around a key or
    /// value (`""key""`, JSON that went through CSV quoting) became one.
    NormalizedQuote,
    /// An unquoted object key was quoted.
    QuotedKey,
    /// An unquoted string value was quoted.
    QuotedString,
    /// A Python or JavaScript literal (`True`, `None`, `undefined`, …) became its JSON form.
    ConvertedLiteral,
    /// `NaN` or `Infinity` (not representable in JSON) became `null`.
    ConvertedNonFinite,
    /// A literal truncated by the end of input (`tr`, `fals`, `nul`) was completed.
    CompletedLiteral,
    /// A raw newline, tab or other control character inside a string was escaped.
    EscapedControlChar,
    /// An invalid escape sequence (`\d`, `\'`) was made valid.
    FixedEscape,
    /// A `"` inside a string that was not its end was escaped.
    EscapedQuote,
    /// A string missing its closing quote was closed.
    ClosedString,
    /// A string missing its opening quote was given one.
    OpenedString,
    /// A dangling, truncated `\u` escape at the end of input was dropped.
    DroppedEscape,
    /// A missing comma between two values was inserted.
    InsertedComma,
    /// A missing colon between a key and its value was inserted.
    InsertedColon,
    /// A missing value (after a colon, or a key cut off by the end of input) became `null`.
    InsertedNull,
    /// A leading or trailing comma was removed.
    RemovedComma,
    /// An ellipsis (`...`) standing for omitted items was removed.
    RemovedEllipsis,
    /// A missing `}` or `]` was inserted.
    InsertedCloser,
    /// A `}` or `]` that closes nothing was removed.
    RemovedCloser,
    /// A `}` or `]` of the wrong kind was replaced by the right one.
    ReplacedCloser,
    /// A number cut off after `.`, `e` or `-` was completed (`2.` → `2.0`).
    CompletedNumber,
    /// A number written outside JSON's grammar was normalised (`.5`, `+1`, `1_000`).
    NormalizedNumber,
    /// A number with leading zeros (`0789`) was kept as a string so no digit is lost.
    QuotedNumber,
    /// Strings joined with `+` were concatenated.
    ConcatenatedStrings,
    /// Constant arithmetic written as a value (`2 * Math.PI`, `60 * 60`) was replaced by its
    /// result.
    EvaluatedExpression,
    /// Several top-level values (NDJSON, concatenated objects) were wrapped in one array.
    WrappedInArray,
    /// A JSONP callback or MongoDB constructor (`ObjectId("…")`) around a value was removed.
    UnwrappedCall,
    /// A regular expression literal became a string.
    ConvertedRegex,
    /// A Python tuple `(…)` became an array (or its single element).
    ConvertedTuple,
    /// Raw whitespace with a newline just before a string's closing quote was dropped.
    TrimmedString,
    /// A stray word or dangling key inside an object (no colon, no value) was dropped.
    DroppedGarbage,
    /// An array element written as `"key": value` was wrapped in an object.
    WrappedInObject,
    /// An object key position holding an array (`{"a": [1], [2]}`) continued the previous array.
    MergedArray,
    /// Values written after an array's rows without their brackets (`[["a", "b"]], "c", "d"`)
    /// were grouped into rows of the same length, as the next row was merged in.
    GroupedRows,
    /// A root value followed by more `"key": value` pairs was reopened to take them in.
    MergedObject,
    /// An empty container next to non-empty ones among concatenated root values was dropped.
    DroppedEmpty,
    /// An empty key cut off by the end of input was dropped.
    DroppedKey,
}
