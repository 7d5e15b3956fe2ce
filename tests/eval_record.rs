//! Recording through a backend: each question is rendered with its functions as tools, the raw
//! output lands verbatim in one flushed JSON line, and a re-run skips recorded ids.

use serde_json::json;
use toolmend::backend::scripted::ScriptedBackend;
use toolmend::backend::{GenerateOptions, Message, Role};
use toolmend::eval::data::{FunctionDoc, Question};
use toolmend::eval::parse::StrictFormat;
use toolmend::eval::record::{self, Recorder, RunSettings};

fn question(id: &str) -> Question {
    Question {
        id: id.into(),
        category: "simple_python".into(),
        messages: vec![Message::new(
            Role::User,
            "Area of a triangle with base 10, height 5?",
        )],
        functions: vec![
            serde_json::from_value::<FunctionDoc>(json!({
                "name": "calculate_triangle_area",
                "description": "Area.",
                "parameters": {"type": "dict", "properties": {
                    "base": {"type": "integer"}, "height": {"type": "float"}
                }, "required": ["base", "height"]}
            }))
            .unwrap(),
        ],
    }
}

#[test]
fn records_raw_outputs_line_by_line_and_resumes() {
    let outputs = [
        "```json\n{\"name\": \"calculate_triangle_area\", \"arguments\": {\"base\": 10, \"height\": 5}}\n```",
        "The area is 25.",
    ];
    let mut backend = ScriptedBackend::new(outputs).with_name("scripted");
    let log = backend.log();
    let settings = RunSettings {
        model: "scripted".into(),
        model_file: Some("x-q4_k_m.gguf".into()),
        strict_format: StrictFormat::ToolCallTags,
        options: GenerateOptions::default(),
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(record::file_name("scripted"));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut rec = Recorder::open(&path).unwrap();
    for id in ["simple_python_0", "simple_python_1"] {
        let line = rt
            .block_on(record::generate_one(&mut backend, &question(id), &settings))
            .unwrap();
        rec.append(&line).unwrap();
    }
    drop(rec);

    // The functions reached the backend as tools with JSON Schema parameters.
    let requests = log.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].tools[0].parameters["type"], "object");
    assert_eq!(
        requests[0].tools[0].parameters["properties"]["height"]["type"],
        "number"
    );
    assert_eq!(requests[0].options.temperature, 0.0);

    let lines = record::read_file(&path).unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].id, "simple_python_0");
    assert_eq!(lines[0].output, outputs[0]);
    assert_eq!(lines[1].output, outputs[1]);
    assert_eq!(lines[0].strict_format, Some(StrictFormat::ToolCallTags));
    assert!(lines[0].recorded_at.is_some());
    // Contract fields, by name.
    let raw: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    for key in ["id", "category", "model", "output"] {
        assert!(raw.get(key).is_some(), "{key}");
    }

    let rec = Recorder::open(&path).unwrap();
    assert!(rec.has("simple_python_0") && rec.has("simple_python_1"));
    assert!(!rec.has("simple_python_2"));
}
