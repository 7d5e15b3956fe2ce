//! `toolmend serve`: an OpenAI-compatible endpoint that rewrites responses into proper `tool_calls`.
