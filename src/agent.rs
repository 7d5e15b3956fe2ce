//! The tool loop: generate, extract, repair, decode, dispatch, feed results back, repeat.
