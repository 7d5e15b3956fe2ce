//! A local HTTP server for the Ollama tests: speaks Ollama's documented `/api/chat` NDJSON
//! stream on 127.0.0.1, one connection per scripted reply, and records the request bodies.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// What the fake server sends back.
pub struct Reply {
    pub status: &'static str,
    /// Body pieces, written (and flushed) one after another.
    pub pieces: Vec<String>,
    /// Whether to announce a content-length longer than what is sent (the connection then drops).
    pub cut: bool,
}

pub fn line(content: &str, done: bool) -> String {
    let mut v = serde_json::json!({
        "model": "qwen2.5-coder:0.5b",
        "created_at": "2026-01-01T00:00:00Z",
        "message": {"role": "assistant", "content": content},
        "done": done,
    });
    if done {
        let extra = serde_json::json!({
            "done_reason": "stop",
            "total_duration": 5_000_000u64, "load_duration": 1_000_000u64,
            "prompt_eval_count": 26, "prompt_eval_duration": 2_000_000u64,
            "eval_count": 7, "eval_duration": 3_500_000u64,
        });
        for (k, val) in extra.as_object().unwrap() {
            v[k] = val.clone();
        }
    }
    format!("{v}\n")
}

pub fn call_line(name: &str, arguments: serde_json::Value) -> String {
    let v = serde_json::json!({
        "model": "m", "created_at": "2026-01-01T00:00:00Z",
        "message": {"role": "assistant", "content": "",
                    "tool_calls": [{"function": {"name": name, "arguments": arguments}}]},
        "done": false,
    });
    format!("{v}\n")
}

/// Starts a one-shot server; returns its URL and the request body it received (once read).
pub async fn serve(reply: Reply) -> (String, Arc<Mutex<Vec<serde_json::Value>>>) {
    serve_all(vec![reply]).await
}

/// Starts a server answering one connection per reply, in order; returns its URL and the request
/// bodies it received.
pub async fn serve_all(replies: Vec<Reply>) -> (String, Arc<Mutex<Vec<serde_json::Value>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen2 = seen.clone();
    tokio::spawn(async move {
        for reply in replies {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut req = Vec::new();
            let mut buf = [0u8; 4096];
            // Read headers, then the body by content-length.
            let (head_end, len) = loop {
                let n = socket.read(&mut buf).await.unwrap();
                req.extend_from_slice(&buf[..n]);
                if let Some(p) = req.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&req[..p]).to_ascii_lowercase();
                    let len = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .map_or(0, |v| v.trim().parse::<usize>().unwrap());
                    break (p + 4, len);
                }
                assert!(n > 0, "client closed before sending headers");
            };
            while req.len() < head_end + len {
                let n = socket.read(&mut buf).await.unwrap();
                if n == 0 {
                    break;
                }
                req.extend_from_slice(&buf[..n]);
            }
            if let Ok(v) = serde_json::from_slice(&req[head_end..]) {
                seen2.lock().unwrap().push(v);
            }
            let total: usize = reply.pieces.iter().map(String::len).sum();
            let announced = if reply.cut { total + 1000 } else { total };
            let head = format!(
                "HTTP/1.1 {}\r\ncontent-type: application/x-ndjson\r\ncontent-length: {announced}\r\nconnection: close\r\n\r\n",
                reply.status
            );
            socket.write_all(head.as_bytes()).await.unwrap();
            for p in &reply.pieces {
                if socket.write_all(p.as_bytes()).await.is_err() {
                    break;
                }
                let _ = socket.flush().await;
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
            }
            let _ = socket.shutdown().await;
        }
    });
    (url, seen)
}
