//! Each provider dialect converts a schema with `$ref`, `anyOf` with null, `format`, `minimum` and
//! an enum, and reports what it dropped or changed.

use schemars::JsonSchema;
use serde_json::{Value, json};
use toolmend::schema::{Action, Dialect, convert, schema_for};

#[allow(dead_code)]
#[derive(JsonSchema)]
struct Place {
    city: String,
}

#[allow(dead_code)]
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Weather lookup.
#[allow(dead_code)]
#[derive(JsonSchema)]
struct Args {
    /// Where.
    place: Place,
    unit: Option<Unit>,
    /// ISO date.
    #[schemars(extend("format" = "date"))]
    date: Option<String>,
    #[schemars(range(min = 1, max = 14))]
    days: u32,
}

fn schema() -> Value {
    schema_for::<Args>()
}

#[test]
fn derived_schema_has_every_feature_under_test() {
    let s = schema();
    println!("{}", serde_json::to_string_pretty(&s).unwrap());
    assert!(s["properties"]["place"]["$ref"].is_string());
    assert!(s["properties"]["unit"]["anyOf"].is_array());
    assert_eq!(s["properties"]["date"]["format"], "date");
    assert_eq!(s["properties"]["days"]["minimum"], 1);
    assert!(s["$defs"]["Unit"]["enum"].is_array());
    assert!(s.get("$schema").is_none());
}

fn has(c: &toolmend::schema::Converted, kw: &str, action: Action) -> bool {
    c.dropped
        .iter()
        .any(|d| d.keyword == kw && d.action == action)
}

#[test]
fn openai_keeps_everything() {
    let c = convert(&schema(), Dialect::OpenAi);
    assert_eq!(c.schema["properties"]["place"]["$ref"], "#/$defs/Place");
    assert!(c.schema["$defs"]["Unit"]["enum"].is_array());
    assert_eq!(c.schema["properties"]["days"]["minimum"], 1);
    assert_eq!(c.schema["properties"]["date"]["format"], "date");
    assert!(c.dropped.is_empty(), "{:?}", c.dropped);
}

#[test]
fn anthropic_keeps_everything_with_an_object_root() {
    let c = convert(&schema(), Dialect::Anthropic);
    assert_eq!(c.schema["type"], "object");
    assert!(c.schema["properties"]["unit"]["anyOf"].is_array());
    assert!(c.dropped.is_empty(), "{:?}", c.dropped);
}

#[test]
fn openai_strict_requires_all_and_closes_objects() {
    let c = convert(&schema(), Dialect::OpenAiStrict);
    let s = &c.schema;
    println!("{}", serde_json::to_string_pretty(s).unwrap());
    assert_eq!(s["required"], json!(["place", "unit", "date", "days"]));
    assert_eq!(s["additionalProperties"], false);
    assert_eq!(s["$defs"]["Place"]["additionalProperties"], false);
    // anyOf with null stays; the date format is supported; minimum is supported.
    assert!(s["properties"]["unit"]["anyOf"].is_array());
    assert_eq!(s["properties"]["date"]["format"], "date");
    assert_eq!(s["properties"]["days"]["minimum"], 1);
    assert!(has(&c, "additionalProperties", Action::Added));
    assert!(!c.dropped.is_empty());
}

#[test]
fn gemini_inlines_refs_and_uses_nullable() {
    let c = convert(&schema(), Dialect::Gemini);
    let s = &c.schema;
    println!("{}", serde_json::to_string_pretty(s).unwrap());
    assert_eq!(s["properties"]["place"]["type"], "object");
    assert_eq!(
        s["properties"]["place"]["properties"]["city"]["type"],
        "string"
    );
    assert_eq!(
        s["properties"]["unit"]["enum"],
        json!(["celsius", "fahrenheit"])
    );
    assert_eq!(s["properties"]["unit"]["nullable"], true);
    assert_eq!(s["properties"]["date"]["type"], "string");
    assert_eq!(s["properties"]["date"]["nullable"], true);
    assert_eq!(s["properties"]["days"]["minimum"], 1);
    assert!(s.get("$defs").is_none());
    assert!(!s.to_string().contains("$ref"));
    assert!(has(&c, "$ref", Action::Inlined));
    // Gemini only knows date-time among string formats.
    assert!(has(&c, "format", Action::MovedToDescription));
    assert!(
        s["properties"]["date"]["description"]
            .as_str()
            .unwrap()
            .contains("date")
    );
}

#[test]
fn ollama_keeps_type_enum_and_describes_the_rest() {
    let c = convert(&schema(), Dialect::Ollama);
    let s = &c.schema;
    println!("{}", serde_json::to_string_pretty(s).unwrap());
    assert_eq!(
        s["properties"]["place"]["properties"]["city"]["type"],
        "string"
    );
    assert_eq!(
        s["properties"]["unit"]["enum"],
        json!(["celsius", "fahrenheit"])
    );
    assert_eq!(s["properties"]["date"]["type"], json!(["string", "null"]));
    assert!(s["properties"]["days"].get("minimum").is_none());
    let d = s["properties"]["days"]["description"].as_str().unwrap();
    assert!(d.contains("minimum: 1"), "{d}");
    assert!(has(&c, "minimum", Action::MovedToDescription));
    assert!(has(&c, "$ref", Action::Inlined));
}

#[test]
fn recursive_refs_are_cut_when_inlining() {
    let s = json!({"$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
                   "type": "object", "properties": {"head": {"$ref": "#/$defs/Node"}}});
    for d in [Dialect::Gemini, Dialect::Ollama] {
        let c = convert(&s, d);
        assert!(has(&c, "$ref", Action::Removed), "{d:?}");
        assert!(!c.schema.to_string().contains("$ref"));
    }
}

#[test]
fn a_combinator_that_is_not_an_array_is_reported_and_later_paths_stay_right() {
    // Regression: `"anyOf": "…"` (malformed) was dropped silently and left `/anyOf` on the path
    // of every keyword after it.
    let s = json!({"type": "object", "properties": {"when": {"type": "string", "anyOf": "date or time", "format": "date"}}});
    for d in [
        Dialect::OpenAi,
        Dialect::OpenAiStrict,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Ollama,
    ] {
        let c = convert(&s, d);
        let any_of = c.dropped.iter().find(|x| x.keyword == "anyOf");
        assert!(
            any_of.is_some_and(|x| x.path == "/properties/when" && x.action == Action::Removed),
            "{d:?}: {:?}",
            c.dropped
        );
        assert!(
            c.dropped.iter().all(|x| !x.path.contains("anyOf")),
            "{d:?}: {:?}",
            c.dropped
        );
        assert!(
            c.schema["properties"]["when"].get("anyOf").is_none(),
            "{d:?}"
        );
    }
}

#[test]
fn all_of_merges_every_part_and_the_node_s_own_keywords() {
    // Regression: Gemini, Ollama and OpenAI strict merged `allOf` by replacing `properties` and
    // `required` wholesale, so earlier parts' (and the node's own) properties were lost — and
    // strict mode then forbade them with `additionalProperties: false`.
    let s = json!({"$defs": {"Base": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}},
                   "type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
                   "allOf": [{"$ref": "#/$defs/Base"},
                             {"properties": {"b": {"type": "integer"}, "a": {"maxLength": 9}}, "required": ["b"]},
                             {"properties": {"c": {"type": "string", "pattern": "^x"}}},
                             {"properties": {"c": {"pattern": "^y"}}}]});
    for d in [Dialect::Gemini, Dialect::Ollama, Dialect::OpenAiStrict] {
        let c = convert(&s, d);
        let props = c.schema["properties"].as_object().unwrap();
        let names: Vec<&str> = props.keys().map(String::as_str).collect();
        assert_eq!(names, ["a", "id", "b", "c"], "{d:?}: {}", c.schema);
        assert!(c.schema.get("allOf").is_none(), "{d:?}");
        let required: Vec<&str> = c.schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for r in ["a", "id", "b"] {
            assert!(required.contains(&r), "{d:?}: {required:?}");
        }
        assert_eq!(c.schema["properties"]["a"]["type"], "string", "{d:?}");
        // The second `pattern` could not be merged with the first: reported, not silently lost.
        assert!(
            c.dropped.iter().any(|x| x.keyword == "pattern"
                && x.path == "/properties/c"
                && x.action == Action::Removed),
            "{d:?}: {:?}",
            c.dropped
        );
    }
    // OpenAI and Anthropic keep `allOf` as it is.
    assert!(convert(&s, Dialect::OpenAi).schema["allOf"].is_array());
}

#[test]
fn a_ref_with_constraining_siblings_keeps_the_target_s_keywords_when_inlined() {
    // Regression: inlining `{"$ref": …, "properties": {…}}` (2019-09+ applies both) wrote the
    // siblings over the target, so the target's own properties were lost without a word.
    let s = json!({
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/Base", "properties": {"extra": {"type": "string"}}, "required": ["extra"]}},
        "$defs": {"Base": {"type": "object", "properties": {"base": {"type": "integer"}}, "required": ["base"]}}
    });
    for d in [Dialect::Gemini, Dialect::Ollama, Dialect::OpenAiStrict] {
        let c = convert(&s, d);
        let p = &c.schema["properties"]["p"];
        assert!(p["properties"]["base"].is_object(), "{d:?}: {p}");
        assert!(p["properties"]["extra"].is_object(), "{d:?}: {p}");
        let req: Vec<&str> = p["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            req.contains(&"base") && req.contains(&"extra"),
            "{d:?}: {p}"
        );
    }
}
