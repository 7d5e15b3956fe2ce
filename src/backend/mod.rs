//! Model backends: messages and tool specs in, a stream of events out (embedded llama.cpp, Ollama,
//! and a scripted backend that replays recorded outputs).
