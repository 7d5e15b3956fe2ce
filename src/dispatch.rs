//! The one dispatch path: a `ToolCall`, native or extracted, in; a `ToolResult` out.
