"""Calls `toolmend serve` with the real `openai` Python client, as any agent would.

Usage: client.py BASE_URL REQUESTS.jsonl
Each input line: {"name": ..., "content": <user message>, "tools": [...] | null, "stream": bool}.
Prints one JSON line per request: {"name", "stream", "content", "reasoning", "tool_calls":
[{"id", "type", "name", "arguments"}], "finish_reason", "headers"} or {"name", "stream", "error"}.
"""
import json
import sys

import openai


def run(client, req):
    kwargs = dict(
        model="fake-model",
        messages=[{"role": "user", "content": req["content"]}],
    )
    if req.get("tools"):
        kwargs["tools"] = req["tools"]
    if not req["stream"]:
        raw = client.chat.completions.with_raw_response.create(**kwargs)
        resp = raw.parse()
        choice = resp.choices[0]
        m = choice.message
        extra = getattr(m, "model_extra", None) or {}
        return {
            "content": m.content,
            "reasoning": extra.get("reasoning_content"),
            "tool_calls": [
                {"id": c.id, "type": c.type, "name": c.function.name, "arguments": c.function.arguments}
                for c in (m.tool_calls or [])
            ],
            "finish_reason": choice.finish_reason,
            "headers": {k: v for k, v in raw.headers.items() if k.startswith("x-toolmend")},
        }
    content, reasoning, calls, finish = None, None, {}, None
    for chunk in client.chat.completions.create(stream=True, **kwargs):
        if not chunk.choices:
            continue
        choice = chunk.choices[0]
        d = choice.delta
        if d.content:
            content = (content or "") + d.content
        extra = getattr(d, "model_extra", None) or {}
        if extra.get("reasoning_content"):
            reasoning = (reasoning or "") + extra["reasoning_content"]
        for tc in d.tool_calls or []:
            c = calls.setdefault(tc.index, {"id": None, "type": None, "name": "", "arguments": ""})
            if tc.id:
                c["id"] = tc.id
            if tc.type:
                c["type"] = tc.type
            if tc.function and tc.function.name:
                c["name"] += tc.function.name
            if tc.function and tc.function.arguments:
                c["arguments"] += tc.function.arguments
        if choice.finish_reason:
            finish = choice.finish_reason
    return {
        "content": content,
        "reasoning": reasoning,
        "tool_calls": [calls[i] for i in sorted(calls)],
        "finish_reason": finish,
        "headers": {},
    }


def main():
    base_url, path = sys.argv[1], sys.argv[2]
    client = openai.OpenAI(base_url=base_url, api_key="unused", max_retries=0, timeout=60)
    with open(path) as f:
        for line in f:
            req = json.loads(line)
            out = {"name": req["name"], "stream": req["stream"]}
            try:
                out.update(run(client, req))
            except openai.APIError as e:
                out["error"] = f"{type(e).__name__}: {e}"
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
