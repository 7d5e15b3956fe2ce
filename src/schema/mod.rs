//! JSON Schema for tool parameters: derived from Rust types, normalised for tool use, and converted
//! into each provider dialect with a report of what the conversion dropped.
