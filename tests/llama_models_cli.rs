//! `toolmend models`: lists every known model with its size and presence, honours
//! `TOOLMEND_MODELS`, and names the exact fetch command for a missing model.

use std::process::Command;

fn models(dir: &std::path::Path, json: bool) -> (std::process::ExitStatus, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_toolmend"));
    cmd.arg("models").env("TOOLMEND_MODELS", dir);
    if json {
        cmd.arg("--json");
    }
    let out = cmd.output().expect("toolmend runs");
    (
        out.status,
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
    )
}

#[test]
fn missing_models_come_with_their_fetch_command() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("SmolLM2-135M-Instruct.Q4_1.gguf"), b"partial").unwrap();
    let (status, out) = models(d.path(), true);
    assert!(status.success());
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["dir"], d.path().to_str().unwrap());
    let list = v["models"].as_array().unwrap();
    let names: Vec<_> = list.iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["qwen2.5-coder:0.5b", "smollm2:135m", "gemma3:270m"]);
    assert_eq!(list[0]["default"], true);
    assert_eq!(list[0]["size"], 491_400_064);
    for m in list {
        assert_eq!(m["present"], false);
        assert_eq!(
            m["fetch"],
            format!("scripts/fetch-models {}", m["name"].as_str().unwrap())
        );
    }
    assert_eq!(list[1]["status"], "wrong size (7 bytes)");

    let (status, text) = models(d.path(), false);
    assert!(status.success());
    assert!(
        text.contains("missing — fetch: scripts/fetch-models gemma3:270m"),
        "{text}"
    );
    assert!(text.contains("incomplete (7 of 98362432 bytes)"), "{text}");
}

#[test]
fn present_models_show_their_template() {
    let dir = toolmend::backend::models::dir();
    let smol = toolmend::backend::models::find("smollm2:135m").unwrap();
    if smol.presence() != toolmend::backend::models::Presence::Present {
        eprintln!(
            "note: smollm2:135m not present; skipping (get it with `{}`)",
            smol.fetch_command()
        );
        return;
    }
    let (status, out) = models(&dir, true);
    assert!(status.success());
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let m = &v["models"][1];
    assert_eq!(m["present"], true);
    assert_eq!(m["template"], "own template, toolmend tool prompt");
}
