//! The BFCL scorer and parsers against hand-made outputs: each AST rule, the type mapping, the
//! irrelevance case, and the three parsers.

use serde_json::{Map, Value, json};
use toolmend::eval::data::{ExpectedCall, FunctionDoc};
use toolmend::eval::parse::{self, FullPolicy, ParserKind, StrictFormat};
use toolmend::eval::score::{Call, FailureKind, check, py_eq, standardize};

fn doc(v: Value) -> FunctionDoc {
    serde_json::from_value(v).unwrap()
}

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn call(name: &str, args: Value) -> Call {
    Call {
        name: name.into(),
        args: obj(args),
    }
}

fn expect(name: &str, params: Value) -> ExpectedCall {
    ExpectedCall {
        name: name.into(),
        params: obj(params),
    }
}

fn triangle() -> FunctionDoc {
    doc(json!({
        "name": "calculate_triangle_area",
        "description": "Area of a triangle.",
        "parameters": {"type": "dict", "properties": {
            "base": {"type": "integer"},
            "height": {"type": "float"},
            "unit": {"type": "string", "default": "units"}
        }, "required": ["base", "height"]}
    }))
}

fn triangle_truth() -> Vec<ExpectedCall> {
    vec![expect(
        "calculate_triangle_area",
        json!({"base": [10], "height": [5.0], "unit": ["units", ""]}),
    )]
}

fn kind(r: Result<(), toolmend::eval::score::Failure>) -> Option<FailureKind> {
    r.err().map(|f| f.kind)
}

#[test]
fn a_correct_call_passes_and_optional_parameters_may_be_omitted() {
    let f = [triangle()];
    let c = [call(
        "calculate_triangle_area",
        json!({"base": 10, "height": 5.0}),
    )];
    assert_eq!(
        kind(check("simple_python", &f, &c, &triangle_truth())),
        None
    );
    let c = [call(
        "calculate_triangle_area",
        json!({"base": 10, "height": 5.0, "unit": "Units"}),
    )];
    assert_eq!(
        kind(check("simple_python", &f, &c, &triangle_truth())),
        None
    );
}

#[test]
fn the_function_name_must_match() {
    let f = [triangle()];
    let c = [call("triangle_area", json!({"base": 10, "height": 5.0}))];
    assert_eq!(
        kind(check("simple_python", &f, &c, &triangle_truth())),
        Some(FailureKind::WrongFunction)
    );
}

#[test]
fn required_parameters_must_be_present() {
    let f = [triangle()];
    let c = [call("calculate_triangle_area", json!({"base": 10}))];
    assert_eq!(
        kind(check("simple_python", &f, &c, &triangle_truth())),
        Some(FailureKind::MissingParameter)
    );
}

#[test]
fn a_ground_truth_parameter_without_the_optional_marker_must_be_present() {
    let f = [triangle()];
    let truth = vec![expect(
        "calculate_triangle_area",
        json!({"base": [10], "height": [5.0], "unit": ["cm"]}),
    )];
    let c = [call(
        "calculate_triangle_area",
        json!({"base": 10, "height": 5.0}),
    )];
    assert_eq!(
        kind(check("simple_python", &f, &c, &truth)),
        Some(FailureKind::MissingParameter)
    );
}

#[test]
fn unknown_parameters_are_rejected() {
    let f = [triangle()];
    let c = [call(
        "calculate_triangle_area",
        json!({"base": 10, "height": 5.0, "color": "red"}),
    )];
    assert_eq!(
        kind(check("simple_python", &f, &c, &triangle_truth())),
        Some(FailureKind::UnexpectedParameter)
    );
}

#[test]
fn numbers_compare_numerically_and_ints_are_accepted_for_floats() {
    let f = [triangle()];
    let truth = triangle_truth();
    let int_for_float = [call(
        "calculate_triangle_area",
        json!({"base": 10, "height": 5}),
    )];
    assert_eq!(
        kind(check("simple_python", &f, &int_for_float, &truth)),
        None
    );
    let float_for_int = [call(
        "calculate_triangle_area",
        json!({"base": 10.0, "height": 5.0}),
    )];
    assert_eq!(
        kind(check("simple_python", &f, &float_for_int, &truth)),
        Some(FailureKind::WrongType)
    );
    let string_for_int = [call(
        "calculate_triangle_area",
        json!({"base": "10", "height": 5.0}),
    )];
    assert_eq!(
        kind(check("simple_python", &f, &string_for_int, &truth)),
        Some(FailureKind::WrongType)
    );
    let wrong = [call(
        "calculate_triangle_area",
        json!({"base": 11, "height": 5.0}),
    )];
    assert_eq!(
        kind(check("simple_python", &f, &wrong, &truth)),
        Some(FailureKind::WrongValue)
    );
    assert!(py_eq(&json!(5), &json!(5.0)));
    assert!(py_eq(&json!(true), &json!(1)));
    assert!(!py_eq(&json!(5), &json!("5")));
}

#[test]
fn strings_are_normalised_like_bfcl() {
    assert_eq!(standardize("New York, NY"), "newyorkny");
    assert_eq!(standardize("it's 3.5 m/s^2 - max_*"), "it\"s35ms2max");
    let f = [doc(
        json!({"name": "weather", "parameters": {"type": "dict",
        "properties": {"city": {"type": "string"}}, "required": ["city"]}}),
    )];
    let truth = vec![expect("weather", json!({"city": ["New York, NY", "NYC"]}))];
    for ok in ["new york ny", "NEW-YORK NY", "nyc", "N.Y.C."] {
        let c = [call("weather", json!({"city": ok}))];
        assert_eq!(kind(check("simple_python", &f, &c, &truth)), None, "{ok}");
    }
    let c = [call("weather", json!({"city": "New York City"}))];
    assert_eq!(
        kind(check("simple_python", &f, &c, &truth)),
        Some(FailureKind::WrongValue)
    );
}

#[test]
fn lists_and_tuples_compare_element_wise_in_order() {
    let f = [doc(
        json!({"name": "f", "parameters": {"type": "dict", "properties": {
        "xs": {"type": "array", "items": {"type": "string"}},
        "pt": {"type": "tuple", "items": {"type": "integer"}}
    }, "required": ["xs", "pt"]}}),
    )];
    let truth = vec![expect(
        "f",
        json!({"xs": [["New York", "Paris"]], "pt": [[1, 2]]}),
    )];
    let ok = [call(
        "f",
        json!({"xs": ["new york", "PARIS"], "pt": [1, 2]}),
    )];
    assert_eq!(kind(check("simple_python", &f, &ok, &truth)), None);
    let reordered = [call(
        "f",
        json!({"xs": ["Paris", "New York"], "pt": [1, 2]}),
    )];
    assert_eq!(
        kind(check("simple_python", &f, &reordered, &truth)),
        Some(FailureKind::WrongValue)
    );
    let short = [call("f", json!({"xs": ["New York"], "pt": [1, 2]}))];
    assert_eq!(
        kind(check("simple_python", &f, &short, &truth)),
        Some(FailureKind::WrongValue)
    );
    let not_a_list = [call("f", json!({"xs": "New York", "pt": [1, 2]}))];
    assert_eq!(
        kind(check("simple_python", &f, &not_a_list, &truth)),
        Some(FailureKind::WrongType)
    );
}

#[test]
fn dicts_compare_key_by_key_with_optional_keys() {
    let f = [doc(
        json!({"name": "find", "parameters": {"type": "dict", "properties": {
        "conditions": {"type": "dict", "properties": {
            "department": {"type": "string"}, "school": {"type": "string"}}}
    }, "required": ["conditions"]}}),
    )];
    let truth = vec![expect(
        "find",
        json!({"conditions": [{"department": ["Science"], "school": ["Bluebird High School", ""]}]}),
    )];
    let ok = [call(
        "find",
        json!({"conditions": {"department": "science"}}),
    )];
    assert_eq!(kind(check("simple_python", &f, &ok, &truth)), None);
    let ok2 = [call(
        "find",
        json!({"conditions": {"department": "Science", "school": "Bluebird high school"}}),
    )];
    assert_eq!(kind(check("simple_python", &f, &ok2, &truth)), None);
    let extra = [call(
        "find",
        json!({"conditions": {"department": "Science", "city": "X"}}),
    )];
    assert_eq!(
        kind(check("simple_python", &f, &extra, &truth)),
        Some(FailureKind::UnexpectedParameter)
    );
    let missing = [call(
        "find",
        json!({"conditions": {"school": "Bluebird High School"}}),
    )];
    assert_eq!(
        kind(check("simple_python", &f, &missing, &truth)),
        Some(FailureKind::MissingParameter)
    );
    let wrong = [call("find", json!({"conditions": {"department": "Arts"}}))];
    assert_eq!(
        kind(check("simple_python", &f, &wrong, &truth)),
        Some(FailureKind::WrongValue)
    );
}

#[test]
fn lists_of_dicts_compare_position_by_position() {
    let f = [doc(
        json!({"name": "g", "parameters": {"type": "dict", "properties": {
        "items": {"type": "array", "items": {"type": "dict", "properties": {"n": {"type": "integer"}}}}
    }, "required": ["items"]}}),
    )];
    let truth = vec![expect("g", json!({"items": [[{"n": [1]}, {"n": [2]}]]}))];
    let ok = [call("g", json!({"items": [{"n": 1}, {"n": 2}]}))];
    assert_eq!(kind(check("simple_python", &f, &ok, &truth)), None);
    let swapped = [call("g", json!({"items": [{"n": 2}, {"n": 1}]}))];
    assert!(check("simple_python", &f, &swapped, &truth).is_err());
    let short = [call("g", json!({"items": [{"n": 1}]}))];
    assert!(check("simple_python", &f, &short, &truth).is_err());
}

#[test]
fn any_is_a_string_and_a_value_of_the_ground_truths_type_is_compared_as_is() {
    let f = [doc(
        json!({"name": "h", "parameters": {"type": "dict", "properties": {
        "v": {"type": "any"}, "s": {"type": "string"}
    }, "required": ["v"]}}),
    )];
    let truth = vec![expect("h", json!({"v": ["abc"], "s": [3, ""]}))];
    let ok = [call("h", json!({"v": "ABC"}))];
    assert_eq!(kind(check("simple_python", &f, &ok, &truth)), None);
    let number_for_any = [call("h", json!({"v": 3}))];
    assert_eq!(
        kind(check("simple_python", &f, &number_for_any, &truth)),
        Some(FailureKind::WrongType)
    );
    // `s` is documented as a string but the ground truth holds an int: BFCL accepts the int.
    let variable = [call("h", json!({"v": "abc", "s": 3}))];
    assert_eq!(kind(check("simple_python", &f, &variable, &truth)), None);
}

#[test]
fn simple_categories_need_exactly_one_call() {
    let f = [triangle()];
    let c = call(
        "calculate_triangle_area",
        json!({"base": 10, "height": 5.0}),
    );
    assert_eq!(
        kind(check("simple_python", &f, &[], &triangle_truth())),
        Some(FailureKind::NoCall)
    );
    assert_eq!(
        kind(check(
            "simple_python",
            &f,
            &[c.clone(), c],
            &triangle_truth()
        )),
        Some(FailureKind::WrongCount)
    );
}

fn two_functions() -> Vec<FunctionDoc> {
    vec![
        triangle(),
        doc(
            json!({"name": "math.factorial", "parameters": {"type": "dict", "properties": {
            "number": {"type": "integer"}}, "required": ["number"]}}),
        ),
    ]
}

#[test]
fn multiple_checks_the_expected_function_among_several() {
    let f = two_functions();
    let truth = vec![expect("math.factorial", json!({"number": [5]}))];
    let ok = [call("math.factorial", json!({"number": 5}))];
    assert_eq!(kind(check("multiple", &f, &ok, &truth)), None);
    let other = [call(
        "calculate_triangle_area",
        json!({"base": 5, "height": 1}),
    )];
    assert_eq!(
        kind(check("multiple", &f, &other, &truth)),
        Some(FailureKind::WrongFunction)
    );
}

#[test]
fn parallel_calls_match_in_any_order() {
    let f = two_functions();
    let truth = vec![
        expect("math.factorial", json!({"number": [5]})),
        expect("math.factorial", json!({"number": [7]})),
        expect(
            "calculate_triangle_area",
            json!({"base": [10], "height": [5.0]}),
        ),
    ];
    let calls = [
        call("calculate_triangle_area", json!({"base": 10, "height": 5})),
        call("math.factorial", json!({"number": 7})),
        call("math.factorial", json!({"number": 5})),
    ];
    assert_eq!(kind(check("parallel_multiple", &f, &calls, &truth)), None);
    assert_eq!(
        kind(check("parallel_multiple", &f, &calls[..2], &truth)),
        Some(FailureKind::WrongCount)
    );
    let dup = [calls[1].clone(), calls[1].clone(), calls[0].clone()];
    assert_eq!(
        kind(check("parallel_multiple", &f, &dup, &truth)),
        Some(FailureKind::WrongValue)
    );
}

#[test]
fn irrelevance_passes_exactly_when_no_call_is_made() {
    let f = [triangle()];
    assert_eq!(kind(check("irrelevance", &f, &[], &[])), None);
    let c = [call(
        "calculate_triangle_area",
        json!({"base": 1, "height": 1}),
    )];
    assert_eq!(
        kind(check("irrelevance", &f, &c, &[])),
        Some(FailureKind::CallInIrrelevance)
    );
}

#[test]
fn the_type_mapping_reaches_the_tool_definitions() {
    let t = triangle().to_tool();
    assert_eq!(t.parameters["type"], "object");
    assert_eq!(t.parameters["properties"]["height"]["type"], "number");
    assert_eq!(t.parameters["properties"]["base"]["type"], "integer");
    assert_eq!(t.parameters["required"], json!(["base", "height"]));
}

// --- parsers ---

const FENCED: &str = "```json\n{\"name\": \"calculate_triangle_area\", \"arguments\": {\"base\": 10, \"height\": 5}}\n```";

fn names(p: &parse::Parsed) -> Vec<&str> {
    p.calls.iter().map(|c| c.name.as_str()).collect()
}

#[test]
fn strict_takes_only_the_templates_envelope() {
    let tagged = "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_call>\n<tool_call>\n{\"name\": \"g\", \"arguments\": {}}\n</tool_call>";
    let p = parse::strict(tagged, StrictFormat::ToolCallTags);
    assert_eq!(names(&p), ["f", "g"]);
    assert!(
        parse::strict(FENCED, StrictFormat::ToolCallTags)
            .calls
            .is_empty()
    );
    // Broken JSON in the envelope is not repaired.
    let broken = "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}\n</tool_call>";
    let p = parse::strict(broken, StrictFormat::ToolCallTags);
    assert!(p.calls.is_empty());
    assert_eq!(p.unparsed, 1);
    // Without tool support in the template the whole output must be the JSON call.
    let bare = "{\"name\": \"f\", \"arguments\": {\"a\": 1}}";
    assert_eq!(names(&parse::strict(bare, StrictFormat::BareJson)), ["f"]);
    let arr = "[{\"name\": \"f\", \"arguments\": {}}, {\"name\": \"g\", \"arguments\": {}}]";
    assert_eq!(
        names(&parse::strict(arr, StrictFormat::BareJson)),
        ["f", "g"]
    );
    assert!(
        parse::strict(FENCED, StrictFormat::BareJson)
            .calls
            .is_empty()
    );
    assert!(
        parse::strict(&format!("Sure! {bare}"), StrictFormat::BareJson)
            .calls
            .is_empty()
    );
}

#[test]
fn naive_finds_fences_and_bare_json_and_counts_the_foreign_envelope() {
    let p = parse::naive(FENCED, StrictFormat::ToolCallTags);
    assert_eq!(names(&p), ["calculate_triangle_area"]);
    assert_eq!(p.rescue.foreign_envelope, 1);
    let p = parse::naive(
        "I will call it: {\"name\": \"f\", \"arguments\": {\"a\": 1}} now.",
        StrictFormat::ToolCallTags,
    );
    assert_eq!(names(&p), ["f"]);
}

#[test]
fn full_resolves_suffixes_separators_and_typos_of_offered_names() {
    let f = vec![
        doc(
            json!({"name": "restaurant.find_group", "parameters": {"type": "dict", "properties": {"n": {"type": "integer"}}, "required": []}}),
        ),
        doc(
            json!({"name": "math_roots.quadratic", "parameters": {"type": "dict", "properties": {"a": {"type": "integer"}}, "required": []}}),
        ),
        doc(
            json!({"name": "calculate_bmi", "parameters": {"type": "dict", "properties": {"w": {"type": "float"}}, "required": []}}),
        ),
    ];
    let out = |name: &str| format!("```json\n{{\"name\": \"{name}\", \"arguments\": {{}}}}\n```");
    let resolve = |name: &str| {
        let p = parse::full(
            &out(name),
            StrictFormat::ToolCallTags,
            &f,
            FullPolicy::default(),
        );
        p.calls[0].name.clone()
    };
    assert_eq!(resolve("find_group"), "restaurant.find_group");
    assert_eq!(resolve("math.roots.quadratic"), "math_roots.quadratic");
    assert_eq!(resolve("calculate_bmj"), "calculate_bmi");
    // Nothing close: left alone (scored as a wrong function, never guessed).
    assert_eq!(resolve("get_weather"), "get_weather");
}

#[test]
fn full_renames_by_arguments_only_behind_the_policy() {
    let f = vec![
        doc(
            json!({"name": "calculate_bmi", "parameters": {"type": "dict", "properties": {"weight": {"type": "float"}, "height": {"type": "float"}}, "required": ["weight", "height"]}}),
        ),
        doc(
            json!({"name": "get_weather", "parameters": {"type": "dict", "properties": {"city": {"type": "string"}}, "required": ["city"]}}),
        ),
    ];
    let out = "{\"name\": \"bmi_calculator\", \"arguments\": {\"weight\": 70, \"height\": 1.8}}";
    let p = parse::full(out, StrictFormat::ToolCallTags, &f, FullPolicy::default());
    assert_eq!(names(&p), ["bmi_calculator"]);
    let policy = FullPolicy {
        rename_by_arguments: true,
    };
    let p = parse::full(out, StrictFormat::ToolCallTags, &f, policy);
    assert_eq!(names(&p), ["calculate_bmi"]);
    assert_eq!(p.rescue.renamed_by_arguments, 1);
}

#[test]
fn full_fills_a_missing_required_parameter_from_its_schema_default_and_coerces() {
    let f = vec![doc(
        json!({"name": "area", "parameters": {"type": "dict", "properties": {
        "base": {"type": "integer"},
        "unit": {"type": "string", "default": "units"},
        "round": {"type": "boolean", "default": false}
    }, "required": ["base", "unit"]}}),
    )];
    let out = "{\"name\": \"area\", \"arguments\": {\"base\": \"10\"}}";
    let p = parse::full(out, StrictFormat::ToolCallTags, &f, FullPolicy::default());
    assert_eq!(
        Value::Object(p.calls[0].args.clone()),
        json!({"base": 10, "unit": "units"})
    );
    assert_eq!(p.rescue.defaulted, 1);
    assert_eq!(p.rescue.coerced, 1);
}

#[test]
fn no_parser_invents_a_call_from_prose() {
    let f = [triangle()];
    let prose = "To compute the area of a triangle, multiply the base by the height and divide by two: 10 * 5 / 2 = 25.";
    assert!(!parse::is_call_shaped(prose, &f));
    for kind in ParserKind::ALL {
        for format in [StrictFormat::ToolCallTags, StrictFormat::BareJson] {
            let p = parse::parse(
                kind,
                prose,
                format,
                &f,
                FullPolicy {
                    rename_by_arguments: true,
                },
            );
            assert!(p.calls.is_empty(), "{kind:?} {format:?}");
        }
    }
    assert!(parse::is_call_shaped(FENCED, &f));
    assert!(parse::is_call_shaped(
        "calculate_triangle_area(base=10, height=5)",
        &f
    ));
}

#[test]
fn extract_does_not_repair_and_full_does() {
    let f = [triangle()];
    let broken = "```json\n{\"name\": \"calculate_triangle_area\", \"arguments\": {\"base\": 10, \"height\": 5,}}\n```";
    let e = parse::parse(
        ParserKind::Extract,
        broken,
        StrictFormat::ToolCallTags,
        &f,
        FullPolicy::default(),
    );
    assert!(e.calls.is_empty());
    assert_eq!(e.unparsed, 1);
    let p = parse::parse(
        ParserKind::Full,
        broken,
        StrictFormat::ToolCallTags,
        &f,
        FullPolicy::default(),
    );
    assert_eq!(names(&p), ["calculate_triangle_area"]);
    assert_eq!(p.rescue.repaired, 1);
    // The decoder fills the optional `unit` from its default; full takes it out again.
    assert_eq!(
        Value::Object(p.calls[0].args.clone()),
        json!({"base": 10, "height": 5})
    );
    assert_eq!(
        kind(check("simple_python", &f, &p.calls, &triangle_truth())),
        None
    );
}
