//! What each built-in tool does inside its root: numbered line ranges, not-found messages naming
//! nearby files, grep's `file (line N): text` results, glob, write's effects, and edit's clear failures when the
//! old text is absent or ambiguous.

use serde_json::{Value, json};
use toolmend::dispatch::{Dispatcher, Policy};
use toolmend::tools::{Effect, FailureKind, OutputFormat, ToolCall, ToolResult};

fn root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    let lines: String = (1..=12).map(|i| format!("line {i}\n")).collect();
    std::fs::write(dir.path().join("notes.txt"), lines).unwrap();
    std::fs::write(
        dir.path().join("src/main.rs"),
        "fn main() {\n    run();\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("src/lib.rs"),
        "pub fn run() {}\npub fn run_twice() {}\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("blob.bin"), [0u8, 1, 2, 3]).unwrap();
    dir
}

fn dispatcher(dir: &tempfile::TempDir) -> Dispatcher {
    Dispatcher::new(
        toolmend::builtin::registry(dir.path()).unwrap(),
        Policy::default(),
    )
}

async fn call(d: &mut Dispatcher, name: &str, args: Value) -> ToolResult {
    d.dispatch(ToolCall::new(name, args)).await
}

fn kind(r: &ToolResult) -> Option<FailureKind> {
    r.failure.as_ref().map(|f| f.kind())
}

#[tokio::test]
async fn ls_lists_sorted_entries_labeled_or_as_json() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "ls", json!({})).await;
    assert_eq!(r.output, "blob.bin (4 bytes)\nnotes.txt (87 bytes)\nsrc/");
    assert_eq!(r.data[2], json!({"name": "src", "type": "dir", "size": 0}));
    // git's own folder is left out (a small model called `git` as a tool after seeing it),
    // unless it is the one listed.
    std::fs::create_dir_all(dir.path().join(".git/refs")).unwrap();
    std::fs::create_dir_all(dir.path().join("empty/.git")).unwrap();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "ls", json!({})).await;
    assert!(!r.cached);
    assert_eq!(
        r.output,
        "blob.bin (4 bytes)\nempty/\nnotes.txt (87 bytes)\nsrc/"
    );
    assert_eq!(
        call(&mut d, "ls", json!({"path": ".git"})).await.output,
        "refs/"
    );
    assert_eq!(
        call(&mut d, "ls", json!({"path": "empty"})).await.output,
        "`empty` holds nothing but git's own folder, `.git/`."
    );
    let mut d = Dispatcher::new(
        toolmend::builtin::registry(dir.path()).unwrap(),
        Policy {
            format: OutputFormat::Json,
            ..Policy::default()
        },
    );
    let r = call(&mut d, "ls", json!({"path": "src"})).await;
    let v: Value = serde_json::from_str(&r.output).unwrap();
    assert_eq!(v[0]["name"], "lib.rs");
    assert_eq!(v[1]["name"], "main.rs");
}

#[tokio::test]
async fn read_numbers_lines_and_honours_ranges() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "read", json!({"path": "src/main.rs"})).await;
    assert_eq!(r.output, "1\tfn main() {\n2\t    run();\n3\t}");
    let r = call(
        &mut d,
        "read",
        json!({"path": "notes.txt", "start_line": 9, "end_line": 11}),
    )
    .await;
    assert_eq!(r.output, " 9\tline 9\n10\tline 10\n11\tline 11");
    assert_eq!(r.data["total_lines"], 12);
    let r = call(
        &mut d,
        "read",
        json!({"path": "notes.txt", "start_line": 40}),
    )
    .await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
    assert!(r.output.contains("has only 12 lines"), "{}", r.output);
    let r = call(
        &mut d,
        "read",
        json!({"path": "notes.txt", "start_line": 5, "end_line": 2}),
    )
    .await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
}

#[tokio::test]
async fn read_of_a_missing_file_names_nearby_files() {
    let dir = root();
    let mut d = dispatcher(&dir);
    // One edit away, the file is taken (see reading_tools_take_the_one_entry_a_near_miss_name_meant);
    // two, it is suggested.
    let r = call(&mut d, "read", json!({"path": "src/mian.rs"})).await;
    assert!(
        r.output
            .starts_with("(`src/mian.rs` does not exist; this is `src/main.rs`.)"),
        "{}",
        r.output
    );
    let r = call(&mut d, "read", json!({"path": "src/mian.rx"})).await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
    assert!(
        r.output.contains("`src/mian.rx` does not exist"),
        "{}",
        r.output
    );
    assert!(
        r.output.contains("Did you mean `src/main.rs`?"),
        "{}",
        r.output
    );
    assert!(r.output.contains("lib.rs, main.rs"), "{}", r.output);
    let r = call(&mut d, "read", json!({"path": "docs/guide.md"})).await;
    assert!(
        r.output.contains("`.` contains: blob.bin, notes.txt, src/"),
        "{}",
        r.output
    );
    assert!(
        r.output
            .contains(r#"For example: {"name": "read", "arguments": {"path": "blob.bin"}}"#),
        "{}",
        r.output
    );
}

#[tokio::test]
async fn read_refuses_binary_files_clearly() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "read", json!({"path": "blob.bin"})).await;
    assert!(r.output.contains("binary file"), "{}", r.output);
}

#[tokio::test]
async fn grep_reports_file_line_and_text() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "grep", json!({"pattern": "run\\("})).await;
    assert_eq!(
        r.output,
        "src/lib.rs (line 1): pub fn run() {}\nsrc/main.rs (line 1, which line 2 is inside): fn main() {\nsrc/main.rs (line 2):     run();"
    );
    assert_eq!(
        r.data[1],
        json!({"path": "src/main.rs", "line": 2, "text": "    run();"})
    );
    let r = call(
        &mut d,
        "grep",
        json!({"pattern": "LINE 1[01]", "ignore_case": true, "glob": "*.txt"}),
    )
    .await;
    assert_eq!(
        r.output,
        "notes.txt (line 10): line 10\nnotes.txt (line 11): line 11"
    );
    let r = call(&mut d, "grep", json!({"pattern": "nothing-here"})).await;
    assert!(r.is_ok());
    assert!(r.output.starts_with("no matches"), "{}", r.output);
    let r = call(&mut d, "grep", json!({"pattern": "run("})).await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
    assert!(
        r.output.contains("not a valid regular expression"),
        "{}",
        r.output
    );
}

/// Found with a C++/CMake daemon (session 41): asked "What is the I2C address of the attic
/// sensor?", the search for `attic` showed `name = "attic"` and not `address = 0x45` below it,
/// and Qwen2.5-Coder-0.5B made up an address; asked "Which version of fmt is fetched?", the
/// search for `fmt` showed `FetchContent_Declare(fmt` and its `GIT_REPOSITORY` line, not
/// `GIT_TAG 10.2.1)` closing the call. A matched name of a data file's entry brings the
/// entry's other keys; a build file's call left open brings its arguments, past a match inside
/// it, in the file's order.
/// Found with a Helm chart (session 42): asked "Which port does the service expose?",
/// Qwen2.5-Coder-0.5B read `templates/service.yaml` and answered `8` from `port: {{
/// .Values.service.port }}`; the value is in the chart's values.yaml.
#[tokio::test]
async fn a_helm_templates_lines_come_with_the_chart_values_they_use() {
    let dir = tempfile::tempdir().unwrap();
    let files: &[(&str, &str)] = &[
        (
            "chart/Chart.yaml",
            "apiVersion: v2\nname: beacon\nversion: 0.4.2\nappVersion: \"1.9.0\"\n",
        ),
        (
            "chart/values.yaml",
            "service:\n  type: ClusterIP\n  port: 8080\nresources:\n  limits:\n    memory: 256Mi\n",
        ),
        (
            "chart/templates/service.yaml",
            "spec:\n  type: {{ .Values.service.type }}\n  ports:\n    - port: {{ .Values.service.port }}\n      targetPort: http\n",
        ),
        (
            "chart/templates/deployment.yaml",
            "image: \"beacon:{{ .Chart.AppVersion }}\"\nresources:\n  {{- toYaml .Values.resources | nindent 2 }}\n",
        ),
        // Not a template: the same words are left as they are.
        ("notes.md", "port: {{ .Values.service.port }}\n"),
    ];
    for (path, text) in files {
        let abs = dir.path().join(path);
        std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
        std::fs::write(abs, text).unwrap();
    }
    let mut d = dispatcher(&dir);
    let r = call(
        &mut d,
        "read",
        json!({"path": "chart/templates/service.yaml"}),
    )
    .await;
    assert!(
        r.output.ends_with(
            "[the chart's values these lines use: .Values.service.type = ClusterIP (chart/values.yaml line 2); .Values.service.port = 8080 (chart/values.yaml line 3)]"
        ),
        "{}",
        r.output
    );
    let r = call(
        &mut d,
        "read",
        json!({"path": "chart/templates/deployment.yaml"}),
    )
    .await;
    assert!(
        r.output.ends_with(
            "[the chart's values these lines use: .Chart.AppVersion = \"1.9.0\" (chart/Chart.yaml line 4); .Values.resources = limits.memory: 256Mi (chart/values.yaml line 4)]"
        ),
        "{}",
        r.output
    );
    let r = call(&mut d, "grep", json!({"pattern": "- port"})).await;
    assert_eq!(
        r.output,
        "chart/templates/service.yaml (line 3, which line 4 is inside): ports:\nchart/templates/service.yaml (line 4):     - port: {{ .Values.service.port }}\nchart/values.yaml (line 3, the value of .Values.service.port): 8080"
    );
    let r = call(&mut d, "read", json!({"path": "notes.md"})).await;
    assert!(!r.output.contains("8080"), "{}", r.output);
}

/// Found with a Neovim plugin in Lua (session 42): asked "How long is a focus session by
/// default?", the search showed the annotation `---@field work_minutes integer length of a
/// focus session`, and Qwen2.5-Coder-0.5B answered `10`; the defaults' table sets it below.
#[tokio::test]
async fn grep_shows_a_settings_file_before_its_variants() {
    // By name `values-prod.yaml` sorts before `values.yaml`; the defaults come first.
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("values-prod.yaml", "memory: 512Mi\n"),
        ("values.yaml", "memory: 256Mi\n"),
        ("values-dev.yaml", "memory: 128Mi\n"),
        ("app-notes.md", "memory: see values\n"),
        ("count_test.go", "// memory\n"),
        ("count.go", "// memory\n"),
        (".env.production", "MEMORY=1G\n"),
        (".env", "MEMORY=256M\n"),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let mut d = dispatcher(&dir);
    let r = call(
        &mut d,
        "grep",
        json!({"pattern": "memory", "ignore_case": true}),
    )
    .await;
    let files: Vec<&str> = r
        .output
        .lines()
        .map(|l| l.split(" (line").next().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            ".env",
            ".env.production",
            "app-notes.md",
            "count.go",
            "count_test.go",
            "values.yaml",
            "values-dev.yaml",
            "values-prod.yaml"
        ]
    );
}

#[tokio::test]
async fn grep_shows_the_value_of_a_documented_field() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.lua"),
        "---@class FocusConfig\n---@field work_minutes integer length of a focus session\nlocal M = {}\nM.defaults = {\n  work_minutes = 25,\n}\nif o.work_minutes == 0 then end\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("timer.js"),
        "/**\n * @property {number} tickMs how often the timer ticks\n */\nconst defaults = {\n  tickMs: 1000,\n};\n",
    )
    .unwrap();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "grep", json!({"pattern": "focus session"})).await;
    assert_eq!(
        r.output,
        "config.lua (line 2): ---@field work_minutes integer length of a focus session\nconfig.lua (line 5, the value of work_minutes documented on line 2):   work_minutes = 25,"
    );
    let r = call(&mut d, "grep", json!({"pattern": "timer ticks"})).await;
    assert_eq!(
        r.output,
        "timer.js (line 2):  * @property {number} tickMs how often the timer ticks\ntimer.js (line 4, below the comment on line 2): const defaults = {\ntimer.js (line 5, in the block below the comment on line 2):   tickMs: 1000,\ntimer.js (line 6, in the block below the comment on line 2): };",
        "shown once"
    );
}

/// Found with an R package (session 50): asked how many orderings `species_accumulation()`
/// averages over "when running with the production profile", the search showed
/// `accumulation_reps: 199` under `default:` of `inst/config.yml`, and Qwen2.5-Coder-0.5B
/// answered 199; `production:` sets it to 999 ten lines below. A key a search shows in one
/// section of a settings file is shown with its value in the file's other sections.
#[tokio::test]
async fn grep_shows_a_settings_key_in_the_files_other_sections() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.yml"),
        "default:\n  export_dir: \"output\"\n  # Random quadrat orderings averaged by species_accumulation().\n  accumulation_reps: 199\n\nci:\n  accumulation_reps: 25\n\nproduction:\n  export_dir: \"/srv/out\"\n  accumulation_reps: 999\n  nested:\n    accumulation_reps: 7\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("app.toml"),
        "[default]\n# HTTP listener\nport = 8080\nworkers = 2\n\n[production]\nworkers = 16\nport = 80\n",
    )
    .unwrap();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "grep", json!({"pattern": "species_accumulation"})).await;
    assert_eq!(
        r.output,
        "config.yml (line 1, which line 3 is inside): default:\nconfig.yml (line 3):   # Random quadrat orderings averaged by species_accumulation().\nconfig.yml (line 4, below the comment on line 3):   accumulation_reps: 199\nconfig.yml (line 7, the same key in the section on line 6, `ci`):   accumulation_reps: 25\nconfig.yml (line 11, the same key in the section on line 9, `production`):   accumulation_reps: 999"
    );
    let r = call(
        &mut d,
        "grep",
        json!({"pattern": "workers", "path": "app.toml"}),
    )
    .await;
    assert_eq!(
        r.output, "app.toml (line 4): workers = 2\napp.toml (line 7): workers = 16",
        "both matched: nothing to add"
    );
    let r = call(&mut d, "grep", json!({"pattern": "HTTP listener"})).await;
    assert_eq!(
        r.output,
        "app.toml (line 2): # HTTP listener\napp.toml (line 3, below the comment on line 2): port = 8080\napp.toml (line 8, the same key in the section on line 6, `production`): port = 80"
    );
    let r = call(&mut d, "grep", json!({"pattern": "export_dir: \"output"})).await;
    assert_eq!(
        r.output,
        "config.yml (line 1, which line 2 is inside): default:\nconfig.yml (line 2):   export_dir: \"output\"\nconfig.yml (line 10, the same key in the section on line 9, `production`):   export_dir: \"/srv/out\"",
        "set in two sections only"
    );
}

/// Found with a Julia package (session 51): asked "By default, how many samples wide is the
/// rolling window used for spike detection?", the search for `samples` showed the docstring
/// `"Number of samples in the centred rolling window …"` and not `const DEFAULT_WINDOW = 48`
/// on the line below it. Julia's one-line docstring documents the line after it, as a comment
/// does.
#[tokio::test]
async fn grep_shows_the_definition_a_julia_docstring_documents() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("anomaly.jl"),
        "\"Number of samples in the centred rolling window.\"\nconst DEFAULT_WINDOW = 48\n\nmsg = \"no samples\"\nx = 1\n",
    )
    .unwrap();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "grep", json!({"pattern": "samples"})).await;
    assert_eq!(
        r.output,
        "anomaly.jl (line 1): \"Number of samples in the centred rolling window.\"\nanomaly.jl (line 2, below the comment on line 1): const DEFAULT_WINDOW = 48\nanomaly.jl (line 4): msg = \"no samples\""
    );
}

#[tokio::test]
async fn grep_shows_a_named_entrys_keys_and_a_build_calls_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let files: &[(&str, &str)] = &[
        (
            "config/sensord.toml",
            "[mqtt]\nhost = \"broker.local\"\n\n[[sensor]]\nname = \"living_room\"\naddress = 0x44\n\n[[sensor]]\nname = \"attic\"\naddress = 0x45\n",
        ),
        (
            "deploy.yml",
            "services:\n  - name: web\n    image: shop:1.2\n    replicas: 2\n  - name: worker\n    image: shop-worker:1.2\n",
        ),
        (
            "values.yaml",
            "resources:\n  limits:\n    cpu: 500m\n    memory: 256Mi\n  requests:\n    memory: 128Mi\n",
        ),
        (
            "CMakeLists.txt",
            "include(FetchContent)\nFetchContent_Declare(fmt\n  GIT_REPOSITORY https://github.com/fmtlib/fmt.git\n  GIT_TAG 10.2.1)\nFetchContent_MakeAvailable(fmt)\n",
        ),
    ];
    for (path, text) in files {
        let abs = dir.path().join(path);
        std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
        std::fs::write(abs, text).unwrap();
    }
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "grep", json!({"pattern": "attic"})).await;
    assert_eq!(
        r.output,
        "config/sensord.toml (line 9): name = \"attic\"\nconfig/sensord.toml (line 10, in the entry line 9 names): address = 0x45"
    );
    // A list's item ends at the next item.
    let r = call(&mut d, "grep", json!({"pattern": "name: web"})).await;
    assert_eq!(
        r.output,
        "deploy.yml (line 1, which line 2 is inside): services:\ndeploy.yml (line 2):   - name: web\ndeploy.yml (line 3, in the entry line 2 names):     image: shop:1.2\ndeploy.yml (line 4, in the entry line 2 names):     replicas: 2"
    );
    // A key opening a mapping brings its entries, up to the next key as indented (a Helm
    // chart, session 42).
    let r = call(&mut d, "grep", json!({"pattern": "limits"})).await;
    assert_eq!(
        r.output,
        "values.yaml (line 1, which line 2 is inside): resources:\nvalues.yaml (line 2):   limits:\nvalues.yaml (line 3, under the key on line 2):     cpu: 500m\nvalues.yaml (line 4, under the key on line 2):     memory: 256Mi"
    );
    let r = call(&mut d, "grep", json!({"pattern": "fmt"})).await;
    assert_eq!(
        r.output,
        "CMakeLists.txt (line 2): FetchContent_Declare(fmt\nCMakeLists.txt (line 3):   GIT_REPOSITORY https://github.com/fmtlib/fmt.git\nCMakeLists.txt (line 4, in the block line 2 opens):   GIT_TAG 10.2.1)\nCMakeLists.txt (line 5): FetchContent_MakeAvailable(fmt)"
    );
}

#[tokio::test]
async fn glob_finds_files_by_pattern() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "glob", json!({"pattern": "**/*.rs"})).await;
    assert_eq!(r.output, "src/lib.rs\nsrc/main.rs");
    let r = call(&mut d, "glob", json!({"pattern": "*.rs", "path": "src"})).await;
    assert_eq!(r.data, json!(["src/lib.rs", "src/main.rs"]));
    let r = call(&mut d, "glob", json!({"pattern": "[", "path": "."})).await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
    // Small models copy the example they are shown (they searched a folder of notes for the
    // description's `**/*.rs`): glob's example, copied, lists every file.
    let registry = toolmend::builtin::registry(dir.path()).unwrap();
    let example = registry
        .snapshot()
        .get("glob")
        .unwrap()
        .spec
        .example
        .clone();
    let r = call(&mut d, "glob", example.unwrap()).await;
    assert_eq!(r.output, "blob.bin\nnotes.txt\nsrc/lib.rs\nsrc/main.rs");
}

#[tokio::test]
async fn write_creates_parents_and_reports_its_effect() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(
        &mut d,
        "write",
        json!({"path": "out/deep/a.txt", "content": "abc"}),
    )
    .await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(r.output, "created `out/deep/a.txt` (3 bytes)");
    let written = dir.path().canonicalize().unwrap().join("out/deep/a.txt");
    assert_eq!(
        r.effects,
        [Effect::FileWritten {
            path: written.clone(),
            bytes: 3
        }]
    );
    assert_eq!(std::fs::read_to_string(&written).unwrap(), "abc");
    let r = call(&mut d, "write", json!({"path": "src", "content": "x"})).await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
}

#[tokio::test]
async fn a_write_invalidates_an_earlier_read_of_the_same_file() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let first = call(&mut d, "read", json!({"path": "src/main.rs"})).await;
    assert!(
        call(&mut d, "read", json!({"path": "src/main.rs"}))
            .await
            .cached
    );
    call(
        &mut d,
        "write",
        json!({"path": "src/main.rs", "content": "fn main() {}\n"}),
    )
    .await;
    let after = call(&mut d, "read", json!({"path": "src/main.rs"})).await;
    assert!(!after.cached);
    assert_ne!(after.output, first.output);
    assert_eq!(after.output, "1\tfn main() {}");
}

#[tokio::test]
async fn edit_replaces_exact_text_once() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(
        &mut d,
        "edit",
        json!({"path": "src/main.rs", "old_text": "run();", "new_text": "go();"}),
    )
    .await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(r.output, "replaced 1 occurrence in `src/main.rs` at line 2");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/main.rs")).unwrap(),
        "fn main() {\n    go();\n}\n"
    );
    assert_eq!(r.effects.len(), 1);
}

#[tokio::test]
async fn edit_keeps_a_crlf_files_line_ends() {
    // Regression: `read` shows lines without their `\r`, so a multi-line old_text copied from it
    // never matched a CRLF file.
    let dir = root();
    std::fs::write(dir.path().join("win.rs"), "fn a() {\r\n    1\r\n}\r\n").unwrap();
    let mut d = dispatcher(&dir);
    let r = call(
        &mut d,
        "edit",
        json!({"path": "win.rs", "old_text": "fn a() {\n    1\n}", "new_text": "fn a() {\n    2\n    3\n}"}),
    )
    .await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("win.rs")).unwrap(),
        "fn a() {\r\n    2\r\n    3\r\n}\r\n"
    );
}

#[tokio::test]
async fn edit_fails_clearly_when_the_old_text_is_absent() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let before = std::fs::read_to_string(dir.path().join("src/main.rs")).unwrap();
    let r = call(
        &mut d,
        "edit",
        json!({"path": "src/main.rs", "old_text": "walk();", "new_text": "x"}),
    )
    .await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
    assert!(
        r.output.contains("old_text was not found in `src/main.rs`"),
        "{}",
        r.output
    );
    assert!(
        r.output
            .contains(r#"{"name": "read", "arguments": {"path": "src/main.rs"}}"#),
        "{}",
        r.output
    );
    let r = call(
        &mut d,
        "edit",
        json!({"path": "src/main.rs", "old_text": "  run();  ", "new_text": "x"}),
    )
    .await;
    assert!(
        r.output
            .contains("different leading or trailing whitespace"),
        "{}",
        r.output
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/main.rs")).unwrap(),
        before
    );
}

/// Found with `toolmend eval tasks` (mark_done): told, after a no-op `edit`, "to add a line
/// after it, send new_text as old_text, a line break and the new line" (aed1825, meant for
/// add_line), Qwen2.5-Coder-0.5B sent that sentence as its next new_text. The message says what
/// is wrong and gives no wording to copy into a file.
#[tokio::test]
async fn a_no_op_edit_gets_no_advice_to_copy() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(
        &mut d,
        "edit",
        json!({"path": "src/main.rs", "old_text": "run();", "new_text": "run();"}),
    )
    .await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
    assert_eq!(
        r.output,
        "invalid arguments for `edit`, field `new_text`: new_text is the same as old_text, so nothing would change"
    );
}

#[tokio::test]
async fn edit_fails_clearly_when_the_old_text_is_ambiguous() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let before = std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap();
    let r = call(
        &mut d,
        "edit",
        json!({"path": "src/lib.rs", "old_text": "pub fn", "new_text": "fn"}),
    )
    .await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
    assert!(
        r.output
            .contains("appears 2 times in `src/lib.rs` (lines 1, 2)"),
        "{}",
        r.output
    );
    assert!(r.output.contains(r#""replace_all": true"#), "{}", r.output);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap(),
        before
    );
    let r = call(
        &mut d,
        "edit",
        json!({"path": "src/lib.rs", "old_text": "pub fn", "new_text": "fn", "replace_all": true}),
    )
    .await;
    assert_eq!(r.output, "replaced 2 occurrences in `src/lib.rs`");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap(),
        "fn run() {}\nfn run_twice() {}\n"
    );
}

#[tokio::test]
async fn edit_of_a_missing_file_names_nearby_files() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(
        &mut d,
        "edit",
        json!({"path": "src/lib.r", "old_text": "a", "new_text": "b"}),
    )
    .await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs));
    assert!(
        r.output.contains("Did you mean `src/lib.rs`?"),
        "{}",
        r.output
    );
}

#[tokio::test]
async fn builtin_specs_have_schemas_examples_and_honest_annotations() {
    let dir = root();
    let snap = toolmend::builtin::registry(dir.path()).unwrap().snapshot();
    for e in snap.entries() {
        let s = &e.spec;
        assert_eq!(s.parameters["type"], "object", "{}", s.name);
        let example = s.example.clone().expect("every builtin has an example");
        // The example itself is a valid call.
        assert!(
            e.decoder
                .decode(
                    s,
                    &toolmend::tools::Arguments::Value(example),
                    &Default::default()
                )
                .is_ok(),
            "{}",
            s.name
        );
        let ro = matches!(s.name.as_str(), "ls" | "read" | "grep" | "glob");
        assert_eq!(s.annotations.read_only, ro, "{}", s.name);
    }
}

/// A name that is no tool gets an example call of a read-only tool, never of `write` or `edit`
/// even when their names are the closest: a model that copied `write {"path": "notes.txt", …}`
/// replaced the user's notes.
#[tokio::test]
async fn an_unknown_name_is_shown_a_read_only_example_never_a_writing_one() {
    let dir = root();
    let mut d = dispatcher(&dir);
    for name in [
        "notes",
        "delete_file",
        "TODO items",
        "writ",
        "edt",
        "rewrite",
    ] {
        let r = call(&mut d, name, json!({"path": "notes.txt"})).await;
        assert_eq!(kind(&r), Some(FailureKind::UnknownTool), "{name}");
        let example = r.output.split("for example:").nth(1).unwrap_or_default();
        assert!(
            ["ls", "read", "grep", "glob"]
                .iter()
                .any(|t| example.contains(&format!(r#""name":"{t}""#))),
            "{name}: {}",
            r.output
        );
        assert!(
            !example.contains(r#""name":"write""#) && !example.contains(r#""name":"edit""#),
            "{name}: {}",
            r.output
        );
    }
    // The name of a file that exists is the read of it (`notes.txt`): nothing is written.
    let r = call(&mut d, "notes.txt", json!({"path": "notes.txt"})).await;
    assert_eq!(kind(&r), None, "{}", r.output);
    assert!(r.output.contains("result of `read`"), "{}", r.output);
    assert!(
        std::fs::read_to_string(dir.path().join("notes.txt"))
            .unwrap()
            .starts_with("line 1")
    );
}

/// The examples of the tools that change files name no file a real folder is likely to have.
#[test]
fn write_and_edit_examples_name_no_plausible_real_file() {
    let dir = root();
    let registry = toolmend::builtin::registry(dir.path()).unwrap();
    let snap = registry.snapshot();
    for name in ["write", "edit"] {
        let example = snap.get(name).unwrap().spec.example.clone().unwrap();
        let path = example["path"].as_str().unwrap();
        assert!(path.contains("example"), "{name}: {path}");
        assert!(
            !std::path::Path::new("examples/workspace")
                .join(path)
                .exists(),
            "{name}: {path}"
        );
    }
}

/// The schemas the model is shown carry no bound that is only a machine integer's width:
/// Qwen2.5-Coder-0.5B copied `read`'s `"maximum": 18446744073709551615` into `end_line`. The
/// tool still checks its arguments against its own schema, bounds and all.
#[test]
fn prompt_schemas_carry_no_integer_width_bounds() {
    let dir = root();
    let registry = toolmend::builtin::registry(dir.path()).unwrap();
    let defs = registry.snapshot().defs();
    for d in &defs {
        let text = d.parameters.to_string();
        for width in [
            u64::MAX.to_string(),
            i64::MAX.to_string(),
            u32::MAX.to_string(),
        ] {
            assert!(!text.contains(&width), "{}: {text}", d.name);
        }
    }
    let read = defs.iter().find(|d| d.name == "read").unwrap();
    assert_eq!(read.parameters["properties"]["end_line"]["minimum"], 0);
    let snap = registry.snapshot();
    let spec = &snap.get("read").unwrap().spec;
    assert_eq!(
        spec.parameters["properties"]["end_line"]["maximum"],
        u64::MAX,
        "the tool's own schema keeps the bound it validates with"
    );
}

/// A file larger than grep once read whole (4 MiB, where it said "no matches" without looking)
/// is searched all the same, line by line: read's "too large" hint sends the model there.
#[tokio::test]
async fn grep_searches_files_of_any_size_line_by_line() {
    let dir = root();
    let mut big = String::new();
    let mut i = 0;
    while big.len() < 5 * 1024 * 1024 {
        big.push_str(&format!("line {i} some log text here\n"));
        i += 1;
    }
    big.push_str("the needle at the end\n");
    std::fs::write(dir.path().join("big.log"), &big).unwrap();
    let mut d = dispatcher(&dir);
    let r = call(
        &mut d,
        "grep",
        json!({"pattern": "needle", "path": "big.log"}),
    )
    .await;
    assert!(r.is_ok(), "{}", r.output);
    assert_eq!(
        r.output,
        format!("big.log (line {}): the needle at the end", i + 1)
    );
    let r = call(&mut d, "grep", json!({"pattern": "^line 7 some"})).await;
    assert!(
        r.output
            .contains("big.log (line 8): line 7 some log text here"),
        "{}",
        r.output
    );
    // One line longer than grep keeps of a line: searched in its first MiB, and the result says so.
    let long = format!("start {}\n", "x".repeat(3 << 20));
    std::fs::write(dir.path().join("long.txt"), long).unwrap();
    let r = call(
        &mut d,
        "grep",
        json!({"pattern": "^start", "path": "long.txt"}),
    )
    .await;
    assert!(
        r.output.starts_with("long.txt (line 1): start xxx"),
        "{}",
        r.output
    );
    assert!(
        r.output
            .contains("searched in their first 1 MiB only, in: long.txt"),
        "{}",
        r.output
    );
}

/// One byte is "1 byte"; a path that does not exist is answered with a suggestion and an
/// example of the kind the tool takes (a directory for ls, a file for read).
#[tokio::test]
async fn sizes_and_suggestions_are_of_the_right_kind() {
    let dir = root();
    std::fs::write(dir.path().join("one.txt"), "x").unwrap();
    std::fs::create_dir_all(dir.path().join("notes")).unwrap();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "ls", json!({"path": "."})).await;
    assert!(r.output.contains("one.txt (1 byte)\n"), "{}", r.output);
    let r = call(&mut d, "write", json!({"path": "w.txt", "content": "y"})).await;
    assert!(r.output.contains("(1 byte)"), "{}", r.output);

    let r = call(&mut d, "read", json!({"path": "note"})).await;
    assert!(!r.output.contains("Did you mean `notes/`"), "{}", r.output);
    assert!(
        r.output.contains(r#"For example: {"name": "read""#),
        "{}",
        r.output
    );
    assert!(
        !r.output.contains(r#"{"path": "notes"}"#) && !r.output.contains(r#"{"path": "src"}"#),
        "{}",
        r.output
    );
    let r = call(&mut d, "ls", json!({"path": "nots"})).await;
    assert!(r.output.contains("Did you mean `notes/`"), "{}", r.output);
    assert!(
        r.output
            .contains(r#"{"name": "ls", "arguments": {"path": "notes"}}"#),
        "{}",
        r.output
    );
    let r = call(&mut d, "ls", json!({"path": "one.tx"})).await;
    assert!(!r.output.contains("Did you mean `one.txt`"), "{}", r.output);
}

/// Found with Qwen2.5-Coder-0.5B: asked about `README.md` and `Cargo.toml`, it read `.README.md`
/// and `.cargo.toml`, and sent the same call again after "Did you mean `README.md`?" until the run
/// ended. The tools that only read take the one entry the name plainly meant, and say so.
#[tokio::test]
async fn reading_tools_take_the_one_entry_a_near_miss_name_meant() {
    let dir = root();
    std::fs::write(dir.path().join("README.md"), "# Title\n").unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\n").unwrap();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "read", json!({"path": ".README.md"})).await;
    assert_eq!(
        r.output,
        "(`.README.md` does not exist; this is `README.md`.)\n1\t# Title"
    );
    let r = call(&mut d, "read", json!({"path": "./.cargo.toml"})).await;
    assert_eq!(
        r.output,
        "(`.cargo.toml` does not exist; this is `Cargo.toml`.)\n1\t[package]"
    );
    // A folder that does not exist: the one file of that name below the root (eval tasks:
    // `meeting.md` for `notes/meeting.md`) — not when two files have it.
    let r = call(&mut d, "read", json!({"path": "SRC/Main.RS"})).await;
    assert!(
        r.output
            .starts_with("(`SRC/Main.RS` does not exist; this is `src/main.rs`.)\n1\tfn main()"),
        "{}",
        r.output
    );
    std::fs::create_dir(dir.path().join("old")).unwrap();
    std::fs::write(dir.path().join("old/main.rs"), "fn old() {}\n").unwrap();
    let r = call(&mut d, "read", json!({"path": "Source/main.rs"})).await;
    assert!(kind(&r).is_some(), "two files are named so: {}", r.output);
    let r = call(&mut d, "read", json!({"path": "src/MAIN.rs"})).await;
    assert!(
        r.output
            .starts_with("(`src/MAIN.rs` does not exist; this is `src/main.rs`.)\n1\tfn main()"),
        "{}",
        r.output
    );
    let r = call(&mut d, "ls", json!({"path": "Src"})).await;
    assert!(
        r.output
            .starts_with("(`Src` does not exist; this is `src`.)\nlib.rs"),
        "{}",
        r.output
    );
    let r = call(&mut d, "grep", json!({"pattern": "run", "path": "SRC"})).await;
    assert!(
        r.output
            .starts_with("(`SRC` does not exist; this is `src`.)\n"),
        "{}",
        r.output
    );
    assert!(r.output.contains("lib.rs (line 1):"), "{}", r.output);
    // A path with a quote inside and text after it (a Maven project, session 37: `."."`,
    // sent to glob three times until the run ended): the path before the quote.
    let r = call(
        &mut d,
        "glob",
        json!({"pattern": "README.md", "path": ".\".\""}),
    )
    .await;
    assert!(
        r.output
            .starts_with("(`.\".\"` does not exist; this is `.`.)\nREADME.md"),
        "{}",
        r.output
    );
    let r = call(&mut d, "read", json!({"path": "src/main.rs\" (the file)"})).await;
    assert!(
        r.output.contains("this is `src/main.rs`.)\n1\tfn main()"),
        "{}",
        r.output
    );
    let r = call(&mut d, "glob", json!({"pattern": "*.rs", "path": ".src"})).await;
    assert!(
        r.output
            .starts_with("(`.src` does not exist; this is `src`.)\n"),
        "{}",
        r.output
    );

    // One letter off in the folder named (session 27: `tests/tests_shop.py` sent three
    // times); not for a short name, nor where two entries are one edit away.
    std::fs::create_dir(dir.path().join("tests")).unwrap();
    std::fs::write(
        dir.path().join("tests/test_shop.py"),
        "def test_total(): pass\n",
    )
    .unwrap();
    let r = call(&mut d, "ls", json!({"path": "tests/tests_shop.py"})).await;
    assert_eq!(
        r.output,
        "(`tests/tests_shop.py` does not exist; this is `tests/test_shop.py`.)\ntests/test_shop.py (23 bytes)"
    );
    let r = call(&mut d, "read", json!({"path": "tests/test_sohp.py"})).await;
    assert!(
        r.output.starts_with("(`tests/test_sohp.py` does not exist; this is `tests/test_shop.py`.)\n1\tdef test_total"),
        "{}",
        r.output
    );
    std::fs::write(dir.path().join("tests/test_shoe.py"), "\n").unwrap();
    let r = call(&mut d, "read", json!({"path": "tests/test_shot.py"})).await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs), "{}", r.output);
    let r = call(&mut d, "read", json!({"path": "src/lib.r"})).await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs), "{}", r.output);

    // Two entries that both fit: nothing is guessed.
    std::fs::write(dir.path().join("readme.MD"), "other\n").unwrap();
    let r = call(&mut d, "read", json!({"path": ".Readme.md"})).await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs), "{}", r.output);
    assert!(r.output.contains("does not exist"), "{}", r.output);
    // A name that exists is never redirected.
    let r = call(&mut d, "read", json!({"path": "readme.MD"})).await;
    assert_eq!(r.output, "1\tother");
}

#[tokio::test]
async fn tools_that_change_things_never_take_a_near_miss_name() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(
        &mut d,
        "write",
        json!({"path": "Notes.txt", "content": "new\n"}),
    )
    .await;
    assert!(r.failure.is_none(), "{}", r.output);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Notes.txt")).unwrap(),
        "new\n"
    );
    assert!(
        std::fs::read_to_string(dir.path().join("notes.txt"))
            .unwrap()
            .starts_with("line 1\n")
    );
    let r = call(
        &mut d,
        "edit",
        json!({"path": "NOTES.TXT", "old_text": "line 1", "new_text": "first"}),
    )
    .await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs), "{}", r.output);
    assert!(
        std::fs::read_to_string(dir.path().join("notes.txt"))
            .unwrap()
            .starts_with("line 1\n")
    );
}

/// Found with Qwen2.5-Coder-0.5B: asked what files a folder holds, it sent `read` of `.` (with
/// `ls` of `.` beside it), then `write` of `.`, and never answered. A read of a directory shows
/// what it holds, as `ls` does, and says it is a directory.
#[tokio::test]
async fn read_of_a_directory_shows_what_it_holds() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "read", json!({"path": "."})).await;
    assert!(r.failure.is_none(), "{}", r.output);
    assert_eq!(
        r.output,
        "(`.` is a directory, not a file; this is what it holds.)\nblob.bin (4 bytes)\nnotes.txt (87 bytes)\nsrc/"
    );
    let r = call(&mut d, "read", json!({"path": "src", "start_line": 5})).await;
    assert!(
        r.output
            .starts_with("(`src` is a directory, not a file; this is what it holds.)\nlib.rs"),
        "{}",
        r.output
    );
}

/// Found with Qwen2.5-Coder-0.5B: `write` without `content` got decode's message plus `write`'s
/// example call, and the model sent the example, which would create `toolmend-example.txt`. A
/// tool that changes things gets the message alone (which field to add, keep the others).
#[tokio::test]
async fn a_tool_that_changes_things_shows_no_example_beside_a_missing_field() {
    let dir = root();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "write", json!({"path": "."})).await;
    assert_eq!(kind(&r), Some(FailureKind::InvalidArgs), "{}", r.output);
    assert!(r.output.contains("field `content`"), "{}", r.output);
    assert!(r.output.contains("Keep every other field"), "{}", r.output);
    assert!(
        !r.output.contains("A valid call") && !r.output.contains("toolmend-example"),
        "{}",
        r.output
    );
    // A read-only tool keeps its example.
    let r = call(&mut d, "read", json!({"start_line": 1})).await;
    assert!(r.output.contains("A valid call looks like"), "{}", r.output);
}

/// Found with `toolmend eval tasks` (mark_done, Qwen2.5-Coder-0.5B): after `read` showed
/// `2\tTODO: call the plumber…`, the model sent old_text `2.TODO: call the plumber…` and was told
/// only to read the file, which it had just done. The message now says the line numbers are not
/// part of the file and gives the call without them; a misremembered line gets the closest one.
#[tokio::test]
async fn edit_names_copied_line_numbers_and_the_closest_line() {
    let dir = root();
    std::fs::write(
        dir.path().join("todo.txt"),
        "TODO: renew the passport\nTODO: call the plumber\nDONE: pay the bill\n",
    )
    .unwrap();
    let mut d = dispatcher(&dir);
    for numbered in [
        "2.TODO: call the plumber",
        "2\tTODO: call the plumber",
        "  2) TODO: call the plumber",
    ] {
        let r = call(
            &mut d,
            "edit",
            json!({"path": "todo.txt", "old_text": numbered, "new_text": "DONE: call the plumber"}),
        )
        .await;
        assert_eq!(kind(&r), Some(FailureKind::InvalidArgs), "{}", r.output);
        assert!(
            r.output.contains("line numbers copied from read's output")
                && r.output.contains("at line 2")
                && r.output.ends_with(
                    r#"Send exactly: {"name":"edit","arguments":{"path":"todo.txt","old_text":"TODO: call the plumber","new_text":"DONE: call the plumber"}}"#
                ),
            "{}",
            r.output
        );
    }
    // Numbered lines in new_text too (copied the same way) lose their numbers as well.
    let r = call(
        &mut d,
        "edit",
        json!({"path": "todo.txt", "old_text": "1\tTODO: renew the passport\n2\tTODO: call the plumber", "new_text": "1\tDONE: renew the passport\n2\tTODO: call the plumber"}),
    )
    .await;
    assert!(
        r.output.contains(r#""old_text":"TODO: renew the passport\nTODO: call the plumber","new_text":"DONE: renew the passport\nTODO: call the plumber""#),
        "{}",
        r.output
    );
    // A misremembered line: the closest one is named.
    let r = call(
        &mut d,
        "edit",
        json!({"path": "todo.txt", "old_text": "TODO: call a plumber", "new_text": "x"}),
    )
    .await;
    assert!(
        r.output
            .contains(r#"The closest line is line 2: "TODO: call the plumber""#),
        "{}",
        r.output
    );
    // Nothing close: no guess.
    let r = call(
        &mut d,
        "edit",
        json!({"path": "todo.txt", "old_text": "completely different words", "new_text": "x"}),
    )
    .await;
    assert!(!r.output.contains("closest"), "{}", r.output);
    assert!(
        std::fs::read_to_string(dir.path().join("todo.txt"))
            .unwrap()
            .contains("TODO: call the plumber\n"),
        "nothing was changed"
    );
}

/// Found with the shopdata set (session 34, order_count): asked "How many orders are in
/// orders.csv?", shown the file's five numbered lines, Qwen2.5-Coder-0.5B answered `1`. A read
/// of a whole table file with a header line says how many rows are below it; a part of one, or
/// a table whose first line is a row, gets no count.
#[tokio::test]
async fn read_of_a_whole_table_counts_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let orders = "id,customer_id,placed_at,total_cents\n1,1,2026-01-03,1250\n2,2,2026-01-04,830\n\n3,1,2026-02-11,4400\n";
    std::fs::write(dir.path().join("orders.csv"), orders).unwrap();
    std::fs::write(dir.path().join("one.tsv"), "name\tcountry\nAda\tUK\n").unwrap();
    std::fs::write(dir.path().join("raw.csv"), "1,2\n3,4\n").unwrap();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "read", json!({"path": "orders.csv"})).await;
    assert!(
        r.output
            .ends_with("5\t3,1,2026-02-11,4400\n[3 rows below the header line]"),
        "{}",
        r.output
    );
    assert_eq!(r.data["rows"], 3);
    let r = call(&mut d, "read", json!({"path": "one.tsv"})).await;
    assert!(
        r.output.ends_with("\n[1 row below the header line]"),
        "{}",
        r.output
    );
    let r = call(&mut d, "read", json!({"path": "raw.csv"})).await;
    assert_eq!(r.output, "1\t1,2\n2\t3,4");
    assert!(r.data.get("rows").is_none());
    let r = call(
        &mut d,
        "read",
        json!({"path": "orders.csv", "start_line": 1, "end_line": 2}),
    )
    .await;
    assert!(!r.output.contains("rows below"), "{}", r.output);
}

/// Found with `toolmend eval tasks` (examples/spire, pg_driver_version, session 53): the
/// search for `crystal-pg` in shard.yml showed ameba's `github:` and `version: ~> 1.6.1`
/// from `development_dependencies` as "the same key in the section", and Qwen2.5-Coder-0.5B
/// answered `1.6.1` for crystal-pg's version. Another section's key is the same setting only
/// under the same keys: `dependencies.pg.github` is not `development_dependencies.ameba.github`,
/// while `development.database.pool` is `production.database.pool`.
#[tokio::test]
async fn grep_shows_another_sections_key_only_under_the_same_keys() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("shard.yml"),
        "name: spire\n\ndependencies:\n  pg:\n    github: will/crystal-pg\n    version: ~> 0.28.0\n\ndevelopment_dependencies:\n  ameba:\n    github: crystal-ameba/ameba\n    version: ~> 1.6.1\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("database.yml"),
        "development:\n  database:\n    # connections kept open\n    pool: 2\n  cache:\n    pool: 9\n\nproduction:\n  cache:\n    pool: 40\n  database:\n    pool: 24\n",
    )
    .unwrap();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "grep", json!({"pattern": "crystal-pg"})).await;
    assert!(!r.output.contains("ameba"), "{}", r.output);
    assert!(r.output.contains("version: ~> 0.28.0"), "{}", r.output);
    let r = call(&mut d, "grep", json!({"pattern": "connections kept open"})).await;
    assert!(
        r.output.ends_with(
            "database.yml (line 12, the same key in the section on line 8, `production`):     pool: 24"
        ) && !r.output.contains("pool: 40"),
        "{}",
        r.output
    );
}

/// Found with `toolmend eval tasks` (examples/thimble, default_http_port, session 54): asked
/// "With no configuration whatsoever, which port does the API listen on?", the search for the
/// default's name showed only `{ Http = { Port = Defaults.HttpPort }`, and Qwen2.5-Coder-0.5B
/// answered `74`, that line's number; `let HttpPort = 5311` is in `module Defaults =` above
/// it. A value read from a module's constant is shown with the line setting it — in the file's
/// module of that name, or in a file of that name beside it (OCaml's `Defaults.boat_speed_kn`
/// in `defaults.ml`).
#[tokio::test]
async fn grep_shows_the_value_of_a_modules_constant() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::create_dir_all(dir.path().join("lib")).unwrap();
    std::fs::write(
        dir.path().join("src/Settings.fs"),
        "module Thimble.Settings\n\nmodule Limits =\n    let HttpPort = 9\n\nmodule Defaults =\n    let HttpPort = 5311\n\nlet defaults =\n    { Http = { Port = Defaults.HttpPort } }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("lib/config.ml"),
        "let default =\n  { boat_speed_kn = Defaults.boat_speed_kn;\n    unknown = Defaults.nowhere }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("lib/defaults.ml"),
        "(* Knots. *)\nlet boat_speed_kn = 5.5\n",
    )
    .unwrap();
    let mut d = dispatcher(&dir);
    let r = call(&mut d, "grep", json!({"pattern": "Port = Defaults"})).await;
    assert!(
        r.output.ends_with(
            "src/Settings.fs (line 7, the value of Defaults.HttpPort):     let HttpPort = 5311"
        ),
        "{}",
        r.output
    );
    let r = call(
        &mut d,
        "grep",
        json!({"pattern": "Defaults", "path": "lib"}),
    )
    .await;
    assert!(
        r.output.contains(
            "lib/defaults.ml (line 2, the value of Defaults.boat_speed_kn): let boat_speed_kn = 5.5"
        ) && !r.output.contains("nowhere ="),
        "{}",
        r.output
    );
}
