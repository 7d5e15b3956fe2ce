//! The compiled form of a JSON Schema that coercion and the fast-path check walk: one flat node
//! table with `$ref`s resolved to indices, so decoding never looks keywords up by name.

use std::collections::HashMap;

use serde_json::Value;

use super::SchemaError;

/// Index of a node in [`Compiled::nodes`].
pub(crate) type NodeId = usize;

/// JSON type bits (a node's allowed types are a set of these).
pub(crate) const T_NULL: u8 = 1;
pub(crate) const T_BOOL: u8 = 2;
pub(crate) const T_INT: u8 = 4;
pub(crate) const T_NUM: u8 = 8;
pub(crate) const T_STR: u8 = 16;
pub(crate) const T_ARR: u8 = 32;
pub(crate) const T_OBJ: u8 = 64;
pub(crate) const T_ANY: u8 = 127;

/// How deep a schema may nest before compilation gives up (schemas are input too).
const MAX_SCHEMA_DEPTH: usize = 64;
/// How many `$ref` hops may be chained before a node is considered circular.
pub(crate) const MAX_ALIAS_HOPS: usize = 32;

/// A number from a schema keyword or a value, compared exactly as the validator compares it:
/// two integers as integers (`9007199254740993` is above `9007199254740992`, which `f64` cannot
/// tell apart), an integer and a float by value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    /// A negative integer (or any that fits `i64`).
    I(i64),
    /// An integer above `i64::MAX`.
    U(u64),
    /// Any other number.
    F(f64),
}

impl Num {
    /// The number `n` holds.
    pub fn of(n: &serde_json::Number) -> Option<Num> {
        if let Some(i) = n.as_i64() {
            Some(Num::I(i))
        } else if let Some(u) = n.as_u64() {
            Some(Num::U(u))
        } else {
            n.as_f64().map(Num::F)
        }
    }

    /// The number of a JSON value, if it is one.
    pub fn of_value(v: &Value) -> Option<Num> {
        v.as_number().and_then(Num::of)
    }

    /// As `f64` (rounded for integers beyond 2^53), for messages and arithmetic.
    #[allow(clippy::cast_precision_loss)]
    pub fn f64(self) -> f64 {
        match self {
            Num::I(i) => i as f64,
            Num::U(u) => u as f64,
            Num::F(f) => f,
        }
    }

    fn int(self) -> Option<i128> {
        match self {
            Num::I(i) => Some(i128::from(i)),
            Num::U(u) => Some(i128::from(u)),
            Num::F(_) => None,
        }
    }

    /// Exact order (`None` only for NaN, which JSON cannot hold).
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
    pub fn cmp(self, other: Num) -> Option<std::cmp::Ordering> {
        match (self.int(), other.int()) {
            (Some(a), Some(b)) => Some(a.cmp(&b)),
            (Some(a), None) => cmp_int_float(a, other.f64()),
            (None, Some(b)) => cmp_int_float(b, self.f64()).map(std::cmp::Ordering::reverse),
            (None, None) => self.f64().partial_cmp(&other.f64()),
        }
    }

    /// `self < other`.
    pub fn lt(self, other: Num) -> bool {
        self.cmp(other) == Some(std::cmp::Ordering::Less)
    }

    /// `self > other`.
    pub fn gt(self, other: Num) -> bool {
        self.cmp(other) == Some(std::cmp::Ordering::Greater)
    }

    /// True when `self` is a multiple of `m`, as the validator decides it: exactly for an
    /// integer and a whole divisor up to 2^53, else by `f64` remainder. A fractional divisor
    /// makes its node opaque (the validator's exact decimal test is not restated here).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    pub fn is_multiple_of(self, m: Num) -> bool {
        const SAFE: f64 = 9_007_199_254_740_992.0;
        let d = m.f64();
        if d <= 0.0 {
            return true;
        }
        if d.fract() == 0.0 && d <= SAFE {
            match self {
                Num::I(i) => return i % (d as i64) == 0,
                Num::U(u) => return u % (d as u64) == 0,
                Num::F(_) => {}
            }
        }
        let x = self.f64();
        x.fract() == 0.0 && x % d == 0.0
    }
}

/// The order of the integer `a` and the float `f`, exactly.
#[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
fn cmp_int_float(a: i128, f: f64) -> Option<std::cmp::Ordering> {
    let af = a as f64;
    if af != f {
        // Rounding to f64 is monotone: a difference in f64 is the difference in value.
        return af.partial_cmp(&f);
    }
    // Equal in f64: `f` is whole and within i128, so it converts exactly.
    Some(a.cmp(&(f as i128)))
}

/// What an object node says about keys it does not list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Additional {
    /// `additionalProperties` absent: extra keys are legal JSON Schema but unknown to the tool.
    Unspecified,
    /// `additionalProperties: true`: extra keys are explicitly welcome.
    Allowed,
    /// `additionalProperties: false`.
    Denied,
    /// `additionalProperties: {schema}`.
    Schema(NodeId),
}

/// One schema, compiled.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// Allowed JSON types ([`T_ANY`] when the schema does not say).
    pub types: u8,
    /// True for the schema `false` (nothing is valid).
    pub never: bool,
    /// `properties`, in declaration order.
    pub props: Vec<(String, NodeId)>,
    /// `required`.
    pub required: Vec<String>,
    /// `additionalProperties` (and whether `patternProperties` exists, which we treat as allowed).
    pub additional: Additional,
    /// `items` (a single schema for every element after the `prefix_items` positions).
    pub items: Option<NodeId>,
    /// `prefixItems`: one schema per leading position.
    pub prefix_items: Vec<NodeId>,
    /// `enum`.
    pub enum_values: Option<Vec<Value>>,
    /// `const`.
    pub const_value: Option<Value>,
    /// `anyOf` and `oneOf` branches.
    pub any_of: Vec<NodeId>,
    /// True when `any_of` came from `oneOf` (exactly one branch must fit).
    pub one_of: bool,
    /// `allOf` parts (and the `$ref` of a node that also has its own keywords).
    pub all_of: Vec<NodeId>,
    /// `default`.
    pub default: Option<Value>,
    /// `minimum`.
    pub minimum: Option<Num>,
    /// `maximum`.
    pub maximum: Option<Num>,
    /// `exclusiveMinimum` (the 2019+ numeric form).
    pub exclusive_minimum: Option<Num>,
    /// `exclusiveMaximum` (the 2019+ numeric form).
    pub exclusive_maximum: Option<Num>,
    /// `multipleOf`.
    pub multiple_of: Option<Num>,
    /// `minLength` in characters.
    pub min_length: Option<u64>,
    /// `maxLength` in characters.
    pub max_length: Option<u64>,
    /// `pattern`.
    pub pattern: Option<regex::Regex>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems: true`.
    pub unique_items: bool,
    /// `format`.
    pub format: Option<String>,
    /// `description` (used in corrective messages).
    pub description: Option<String>,
    /// A `$ref` with no sibling keywords: this node *is* its target.
    pub alias: Option<NodeId>,
    /// True when some property has a `default` (a missing one is then filled in).
    pub has_defaults: bool,
    /// Every key some schema applying to the same object declares: this node's `properties`
    /// and `required`, then those of its `allOf` parts and `anyOf`/`oneOf` branches (a
    /// flattened tagged enum's `kind` is as known as the struct's own fields).
    pub known_keys: Vec<String>,
    /// True when a key outside [`Node::known_keys`] is unknown to the tool: some schema applying
    /// to the object lists its keys or denies extra ones, and none welcomes them.
    pub keys_closed: bool,
    /// Keywords this module does not check itself (`not`, `if`, `patternProperties`, …): the fast
    /// path must ask the full validator.
    pub opaque: bool,
}

impl Default for Node {
    fn default() -> Self {
        Self {
            types: T_ANY,
            never: false,
            props: Vec::new(),
            required: Vec::new(),
            additional: Additional::Unspecified,
            items: None,
            prefix_items: Vec::new(),
            enum_values: None,
            const_value: None,
            any_of: Vec::new(),
            one_of: false,
            all_of: Vec::new(),
            default: None,
            minimum: None,
            maximum: None,
            exclusive_minimum: None,
            exclusive_maximum: None,
            multiple_of: None,
            min_length: None,
            max_length: None,
            pattern: None,
            min_items: None,
            max_items: None,
            unique_items: false,
            format: None,
            description: None,
            alias: None,
            has_defaults: false,
            known_keys: Vec::new(),
            keys_closed: false,
            opaque: false,
        }
    }
}

impl Node {
    /// The schema of the array element at position `i`: its `prefixItems` entry, else `items`.
    pub fn item_at(&self, i: usize) -> Option<NodeId> {
        self.prefix_items.get(i).copied().or(self.items)
    }

    /// The property named `key`.
    pub fn prop(&self, key: &str) -> Option<NodeId> {
        self.props.iter().find(|(k, _)| k == key).map(|&(_, id)| id)
    }

    /// True when the node checks anything itself, beside its `anyOf`/`oneOf` branches (a
    /// type, a bound, a key, …): then a branch alone does not say whether a value fits.
    pub fn has_own_checks(&self) -> bool {
        self.types != T_ANY
            || self.never
            || !self.props.is_empty()
            || !self.required.is_empty()
            || self.additional != Additional::Unspecified
            || self.items.is_some()
            || !self.prefix_items.is_empty()
            || self.enum_values.is_some()
            || self.const_value.is_some()
            || !self.all_of.is_empty()
            || self.minimum.is_some()
            || self.maximum.is_some()
            || self.exclusive_minimum.is_some()
            || self.exclusive_maximum.is_some()
            || self.multiple_of.is_some()
            || self.min_length.is_some()
            || self.max_length.is_some()
            || self.pattern.is_some()
            || self.min_items.is_some()
            || self.max_items.is_some()
            || self.unique_items
            || self.format.is_some()
            || self.opaque
    }

    /// True when this node declares the object's shape (so keys outside it are unknown).
    pub fn closed_keys(&self) -> bool {
        matches!(self.additional, Additional::Denied)
            || (matches!(self.additional, Additional::Unspecified) && !self.props.is_empty())
    }
}

/// A whole schema, compiled.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    /// The node table; `$ref`s point into it.
    pub nodes: Vec<Node>,
    /// True if any node is opaque.
    pub opaque: bool,
}

/// The root node is always index 0.
pub(crate) const ROOT: NodeId = 0;

impl Compiled {
    /// Compiles `schema`.
    pub fn new(schema: &Value) -> Result<Self, SchemaError> {
        let mut c = Compiler {
            root: schema,
            nodes: Vec::new(),
            refs: HashMap::new(),
        };
        c.compile(schema, 0)?;
        if let Some(at) = unguarded_cycle(&c.nodes) {
            return Err(SchemaError::Invalid {
                message: format!(
                    "schema node {at} refers to itself through $ref/anyOf/oneOf/allOf without \
                     going into a property or an item, so no value can ever be checked against it"
                ),
            });
        }
        let opaque = c.nodes.iter().any(|n| n.opaque);
        let mut out = Self {
            nodes: c.nodes,
            opaque,
        };
        for i in 0..out.nodes.len() {
            let d = out.nodes[i]
                .props
                .iter()
                .any(|&(_, p)| out.get(p).default.is_some());
            out.nodes[i].has_defaults = d;
            let (mut keys, mut closed, mut open) = (Vec::new(), false, false);
            out.object_scope(i, 0, &mut keys, &mut closed, &mut open);
            out.nodes[i].known_keys = keys;
            out.nodes[i].keys_closed = closed && !open;
        }
        Ok(out)
    }

    /// Collects what the schemas applying to the same object as node `id` say of its keys
    /// (see [`Node::known_keys`]): the keys they declare, whether one closes the set, whether
    /// one leaves it open. Same-object cycles are refused at compilation; `depth` bounds it anyway.
    fn object_scope(
        &self,
        id: NodeId,
        depth: usize,
        keys: &mut Vec<String>,
        closed: &mut bool,
        open: &mut bool,
    ) {
        if depth > MAX_SCHEMA_DEPTH {
            return;
        }
        let n = self.get(id);
        let declared = n.props.iter().map(|(k, _)| k).chain(&n.required);
        for k in declared {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
        *open |= matches!(n.additional, Additional::Allowed | Additional::Schema(_));
        *closed |= n.closed_keys();
        for &p in n.all_of.iter().chain(&n.any_of) {
            self.object_scope(p, depth + 1, keys, closed, open);
        }
    }

    /// The node `id` stands for, following `$ref` aliases (bounded, so a self-reference ends).
    pub fn get(&self, mut id: NodeId) -> &Node {
        for _ in 0..MAX_ALIAS_HOPS {
            match self.nodes[id].alias {
                Some(next) => id = next,
                None => break,
            }
        }
        &self.nodes[id]
    }

    /// The id `id` resolves to.
    pub fn resolve(&self, mut id: NodeId) -> NodeId {
        for _ in 0..MAX_ALIAS_HOPS {
            match self.nodes[id].alias {
                Some(next) => id = next,
                None => break,
            }
        }
        id
    }
}

/// A node reachable from itself through `$ref`, `anyOf`/`oneOf` and `allOf` alone (edges that
/// do not descend into the value): checking a value against it would never end.
fn unguarded_cycle(nodes: &[Node]) -> Option<NodeId> {
    // 0 = unvisited, 1 = on the current path, 2 = done. Iterative DFS: schemas are input too.
    let mut state = vec![0u8; nodes.len()];
    for start in 0..nodes.len() {
        if state[start] != 0 {
            continue;
        }
        let mut stack: Vec<(NodeId, usize)> = vec![(start, 0)];
        state[start] = 1;
        while let Some(&mut (id, ref mut next)) = stack.last_mut() {
            let n = &nodes[id];
            let edges = n.alias.iter().chain(n.any_of.iter()).chain(n.all_of.iter());
            if let Some(&to) = edges.clone().nth(*next) {
                *next += 1;
                match state[to] {
                    1 => return Some(to),
                    0 => {
                        state[to] = 1;
                        stack.push((to, 0));
                    }
                    _ => {}
                }
            } else {
                state[id] = 2;
                stack.pop();
            }
        }
    }
    None
}

struct Compiler<'s> {
    root: &'s Value,
    nodes: Vec<Node>,
    refs: HashMap<String, NodeId>,
}

impl<'s> Compiler<'s> {
    fn compile(&mut self, schema: &'s Value, depth: usize) -> Result<NodeId, SchemaError> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(SchemaError::TooDeep {
                limit: MAX_SCHEMA_DEPTH,
            });
        }
        let id = self.nodes.len();
        self.nodes.push(Node::default());
        let obj = match schema {
            Value::Bool(true) => return Ok(id),
            Value::Bool(false) => {
                self.nodes[id].never = true;
                self.nodes[id].types = 0;
                return Ok(id);
            }
            Value::Object(o) => o,
            other => {
                return Err(SchemaError::Invalid {
                    message: format!(
                        "a schema must be an object or a boolean, found {}",
                        kind_name(other)
                    ),
                });
            }
        };
        let mut node = Node::default();
        if let Some(r) = obj.get("$ref") {
            let r = r.as_str().ok_or_else(|| SchemaError::Invalid {
                message: "`$ref` must be a string".into(),
            })?;
            let target = self.compile_ref(r, depth)?;
            if obj.keys().all(|k| is_annotation(k) || k == "$ref") {
                node.alias = Some(target);
                // Annotations next to a $ref (default, description) still matter to messages.
                node.default = obj.get("default").cloned();
                node.description = obj
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                if node.default.is_none() && node.description.is_none() {
                    self.nodes[id] = node;
                    return Ok(id);
                }
                // Keep the annotations by making this an allOf of the target instead of an alias.
                node.alias = None;
            }
            node.all_of.push(target);
        }
        match obj.get("type") {
            None => {}
            Some(Value::String(s)) => node.types = type_bits(s)?,
            Some(Value::Array(a)) => {
                node.types = 0;
                for t in a {
                    let s = t.as_str().ok_or_else(|| SchemaError::Invalid {
                        message: "`type` entries must be strings".into(),
                    })?;
                    node.types |= type_bits(s)?;
                }
            }
            Some(_) => {
                return Err(SchemaError::Invalid {
                    message: "`type` must be a string or an array of strings".into(),
                });
            }
        }
        // OpenAPI-style `nullable: true`.
        if obj.get("nullable") == Some(&Value::Bool(true)) && node.types != T_ANY {
            node.types |= T_NULL;
        }
        if let Some(Value::Object(props)) = obj.get("properties") {
            for (k, sub) in props {
                let sid = self.compile(sub, depth + 1)?;
                node.props.push((k.clone(), sid));
            }
        }
        if let Some(Value::Array(req)) = obj.get("required") {
            node.required = req
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
        }
        match obj.get("additionalProperties") {
            None => {}
            Some(Value::Bool(true)) => node.additional = Additional::Allowed,
            Some(Value::Bool(false)) => node.additional = Additional::Denied,
            Some(sub) => node.additional = Additional::Schema(self.compile(sub, depth + 1)?),
        }
        if obj.contains_key("patternProperties") {
            node.additional = Additional::Allowed;
            node.opaque = true;
        }
        match obj.get("items") {
            None | Some(Value::Bool(true)) => {}
            Some(Value::Array(_)) => node.opaque = true,
            Some(sub) => node.items = Some(self.compile(sub, depth + 1)?),
        }
        if let Some(Value::Array(prefix)) = obj.get("prefixItems") {
            for sub in prefix {
                let pid = self.compile(sub, depth + 1)?;
                node.prefix_items.push(pid);
            }
        }
        if let Some(Value::Array(e)) = obj.get("enum") {
            node.enum_values = Some(e.clone());
        }
        node.const_value = obj.get("const").cloned();
        // An untyped enum or const still says which types it accepts (coercion needs to know).
        if !obj.contains_key("type") {
            let vals = node
                .enum_values
                .iter()
                .flatten()
                .chain(node.const_value.iter());
            let mut bits = vals.fold(0, |acc, v| acc | type_of(v));
            if bits & T_NUM != 0 {
                // `1.0` in an enum is also the integer 1.
                bits |= T_INT;
            }
            if bits != 0 {
                node.types = bits;
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = obj.get(key) {
                for b in branches {
                    let bid = self.compile(b, depth + 1)?;
                    node.any_of.push(bid);
                }
                if key == "oneOf" {
                    if obj.contains_key("anyOf") {
                        // Both at once: let the validator judge it.
                        node.opaque = true;
                    }
                    node.one_of = true;
                }
            }
        }
        if let Some(Value::Array(parts)) = obj.get("allOf") {
            for p in parts {
                let pid = self.compile(p, depth + 1)?;
                node.all_of.push(pid);
            }
        }
        node.default = obj.get("default").cloned();
        node.description = obj
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let num = |k: &str| obj.get(k).and_then(Num::of_value);
        node.minimum = num("minimum");
        node.maximum = num("maximum");
        node.exclusive_minimum = num("exclusiveMinimum");
        node.exclusive_maximum = num("exclusiveMaximum");
        node.multiple_of = num("multipleOf");
        if node.multiple_of.is_some_and(|m| m.f64().fract() != 0.0) {
            // A fractional divisor: the validator's exact decimal test decides (0.3 is a
            // multiple of 0.1 there, not in f64).
            node.opaque = true;
        }
        node.min_length = obj.get("minLength").and_then(Value::as_u64);
        node.max_length = obj.get("maxLength").and_then(Value::as_u64);
        node.min_items = obj.get("minItems").and_then(Value::as_u64);
        node.max_items = obj.get("maxItems").and_then(Value::as_u64);
        node.unique_items = obj.get("uniqueItems") == Some(&Value::Bool(true));
        if let Some(p) = obj.get("pattern").and_then(Value::as_str) {
            match ecma_classes(p).and_then(|p| regex::Regex::new(&p).ok()) {
                Some(re) => node.pattern = Some(re),
                // ECMA-262 features the regex crate lacks (lookaround): the validator handles them.
                None => node.opaque = true,
            }
        }
        // Draft 4's boolean form: `exclusiveMinimum: true` makes `minimum` exclusive.
        if obj.get("exclusiveMinimum") == Some(&Value::Bool(true)) {
            node.exclusive_minimum = node.minimum.take();
        }
        if obj.get("exclusiveMaximum") == Some(&Value::Bool(true)) {
            node.exclusive_maximum = node.maximum.take();
        }
        node.format = obj.get("format").and_then(Value::as_str).map(str::to_owned);
        match node.format.as_deref() {
            None => {}
            // schemars' numeric hints: not formats the validator checks, but the bounds serde
            // will enforce (so coercion and messages know them).
            Some(f) if int_format_range(f).is_some() => {
                if let Some((lo, hi)) = int_format_range(f) {
                    node.minimum = Some(node.minimum.filter(|m| m.gt(lo)).unwrap_or(lo));
                    node.maximum = Some(node.maximum.filter(|m| m.lt(hi)).unwrap_or(hi));
                }
            }
            Some("double" | "float") => {}
            Some(_) => node.opaque = true,
        }
        if obj.keys().any(|k| is_opaque_keyword(k)) {
            node.opaque = true;
        }
        self.nodes[id] = node;
        Ok(id)
    }

    fn compile_ref(&mut self, r: &str, depth: usize) -> Result<NodeId, SchemaError> {
        if let Some(&id) = self.refs.get(r) {
            return Ok(id);
        }
        let Some(pointer) = r.strip_prefix('#') else {
            return Err(SchemaError::UnresolvedRef {
                reference: r.to_owned(),
            });
        };
        let target = if pointer.is_empty() {
            Some(self.root)
        } else {
            self.root.pointer(pointer)
        };
        let Some(target) = target else {
            return Err(SchemaError::UnresolvedRef {
                reference: r.to_owned(),
            });
        };
        if pointer.is_empty() {
            // The root is node 0 and is being compiled right now.
            self.refs.insert(r.to_owned(), 0);
            return Ok(0);
        }
        // Reserve the id before compiling so a recursive reference finds it.
        let id = self.nodes.len();
        self.refs.insert(r.to_owned(), id);
        let compiled = self.compile(target, depth + 1)?;
        debug_assert_eq!(compiled, id);
        Ok(id)
    }
}

/// The range of a schemars integer `format` hint.
fn int_format_range(f: &str) -> Option<(Num, Num)> {
    Some(match f {
        "int8" => (Num::I(i8::MIN.into()), Num::I(i8::MAX.into())),
        "int16" => (Num::I(i16::MIN.into()), Num::I(i16::MAX.into())),
        "int32" => (Num::I(i32::MIN.into()), Num::I(i32::MAX.into())),
        "int64" | "int" => (Num::I(i64::MIN), Num::I(i64::MAX)),
        "uint8" => (Num::I(0), Num::I(u8::MAX.into())),
        "uint16" => (Num::I(0), Num::I(u16::MAX.into())),
        "uint32" => (Num::I(0), Num::I(u32::MAX.into())),
        "uint64" | "uint" => (Num::I(0), Num::U(u64::MAX)),
        _ => return None,
    })
}

fn type_bits(s: &str) -> Result<u8, SchemaError> {
    Ok(match s {
        "null" => T_NULL,
        "boolean" => T_BOOL,
        "integer" => T_INT,
        "number" => T_NUM | T_INT,
        "string" => T_STR,
        "array" => T_ARR,
        "object" => T_OBJ,
        other => {
            return Err(SchemaError::Invalid {
                message: format!("unknown type `{other}`"),
            });
        }
    })
}

/// Keywords that describe a value without constraining it (shared with `schema`'s merge).
pub(crate) fn is_annotation(k: &str) -> bool {
    matches!(
        k,
        "description"
            | "title"
            | "default"
            | "examples"
            | "example"
            | "$anchor"
            | "$comment"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
            | "$schema"
            | "$id"
            | "$defs"
            | "definitions"
    )
}

/// ECMA-262's white space and line terminators (`\s`), as the body of a regex-crate class
/// (the regex crate's Unicode `\s` also has U+0085 and lacks U+FEFF).
const ECMA_SPACE: &str = "\\t\\n\\x0B\\x0C\\r \\xA0\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";

/// `pattern` for the regex crate with ECMA-262's meaning of `\d`, `\w`, `\b` (ASCII; the regex
/// crate's are Unicode-aware: `\d` would match `١`), `\s` (ECMA's white space) and `.` (any
/// character but a line terminator: `\n`, `\r`, U+2028, U+2029; the regex crate's `.` matches
/// all but `\n`). `None` for a class it cannot say that way (`\D`/`\W`/`\S` inside `[…]`); the
/// validator then judges the pattern.
fn ecma_classes(p: &str) -> Option<String> {
    let mut out = String::with_capacity(p.len() + 16);
    let mut in_class = false;
    let mut chars = p.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => {
                let Some(e) = chars.next() else {
                    out.push('\\');
                    break;
                };
                match (e, in_class) {
                    ('d', false) => out.push_str("[0-9]"),
                    ('D', false) => out.push_str("[^0-9]"),
                    ('w', false) => out.push_str("[0-9A-Za-z_]"),
                    ('W', false) => out.push_str("[^0-9A-Za-z_]"),
                    ('d', true) => out.push_str("0-9"),
                    ('w', true) => out.push_str("0-9A-Za-z_"),
                    ('s', false) => {
                        out.push('[');
                        out.push_str(ECMA_SPACE);
                        out.push(']');
                    }
                    ('S', false) => {
                        out.push_str("[^");
                        out.push_str(ECMA_SPACE);
                        out.push(']');
                    }
                    ('s', true) => out.push_str(ECMA_SPACE),
                    ('D' | 'W' | 'S', true) => return None,
                    ('b', false) => out.push_str("(?-u:\\b)"),
                    ('B', false) => out.push_str("(?-u:\\B)"),
                    _ => {
                        out.push('\\');
                        out.push(e);
                    }
                }
            }
            '[' if !in_class => {
                // `[]…]` and `[^]…]`: what a leading `]` means differs between dialects.
                let rest = chars.as_str();
                if rest.starts_with(']') || rest.starts_with("^]") {
                    return None;
                }
                in_class = true;
                out.push('[');
            }
            '.' if !in_class => out.push_str("[^\\n\\r\\x{2028}\\x{2029}]"),
            // Inside a class, ECMA's `[` is a literal (the regex crate's would nest a class).
            '[' => out.push_str("\\["),
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            _ => out.push(ch),
        }
    }
    Some(out)
}

fn is_opaque_keyword(k: &str) -> bool {
    matches!(
        k,
        "not"
            | "if"
            | "then"
            | "else"
            | "dependentRequired"
            | "dependentSchemas"
            | "dependencies"
            | "propertyNames"
            | "minProperties"
            | "maxProperties"
            | "contains"
            | "minContains"
            | "maxContains"
            | "prefixItems"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "$dynamicRef"
            | "$recursiveRef"
            | "contentEncoding"
            | "contentMediaType"
    )
}

/// A short name for a value's JSON type, for messages.
pub(crate) fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The type bit of a value (integers and integral floats count as integers).
pub(crate) fn type_of(v: &Value) -> u8 {
    match v {
        Value::Null => T_NULL,
        Value::Bool(_) => T_BOOL,
        Value::Number(n) => {
            if n.is_i64() || n.is_u64() {
                T_INT
            } else {
                T_NUM
            }
        }
        Value::String(_) => T_STR,
        Value::Array(_) => T_ARR,
        Value::Object(_) => T_OBJ,
    }
}
