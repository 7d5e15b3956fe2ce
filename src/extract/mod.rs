//! Tool-call extraction: finds the calls a model wrote in its text, in any envelope family, and
//! returns them with the surrounding content and reasoning kept apart.
