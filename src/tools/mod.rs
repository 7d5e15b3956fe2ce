//! The tool contract: `Tool`, `ToolSpec`, `ToolCall`, `ToolResult`, the `Failure` taxonomy and the
//! `Registry` of tools offered to a model.
