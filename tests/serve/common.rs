//! Helpers shared by the `serve_*` tests: an in-process `toolmend serve` on a free loopback port
//! that stops when dropped, and a plain HTTP client.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;

use toolmend::serve::log::LogFormat;
use toolmend::serve::pipeline::Pipeline;
use toolmend::serve::{Config, Server};

/// A running in-process `toolmend serve`; stops when dropped.
pub struct Serve {
    pub addr: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Serve {
    /// Starts a server in front of `upstream`, after letting `tweak` adjust the configuration.
    pub async fn start(upstream: &str, tweak: impl FnOnce(&mut Config)) -> Self {
        let mut config = Config::new(upstream, Arc::new(Pipeline));
        config.log = LogFormat::Off;
        tweak(&mut config);
        let server = Server::bind(config, "127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = server.local_addr().expect("local addr");
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(server.run(async move {
            let _ = rx.await;
        }));
        Self { addr, _stop: tx }
    }

    /// `http://ADDR/v1` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}/v1{path}", self.addr)
    }
}

/// A client that never goes through a proxy.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
}

/// A chat request body, with `tools` when given.
pub fn chat_body(stream: bool, tools: Option<serde_json::Value>) -> serde_json::Value {
    let mut b = serde_json::json!({
        "model": "fake-model",
        "messages": [{"role": "user", "content": "What is the weather in Paris?"}],
        "stream": stream,
    });
    if let Some(t) = tools {
        b["tools"] = t;
    }
    b
}

/// One `get_weather(city, unit?)` tool, in the request form.
pub fn weather_tools() -> serde_json::Value {
    serde_json::json!([{
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather in a city",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    "days": {"type": "integer"}
                },
                "required": ["city"]
            }
        }
    }])
}

/// The `data:` payloads of an SSE body, in order.
pub fn sse_payloads(body: &str) -> Vec<String> {
    body.split("\n\n")
        .filter_map(|ev| {
            let data: Vec<&str> = ev
                .lines()
                .filter_map(|l| {
                    l.strip_prefix("data:")
                        .map(|d| d.strip_prefix(' ').unwrap_or(d))
                })
                .collect();
            (!data.is_empty()).then(|| data.join("\n"))
        })
        .collect()
}
