//! Built-in file tools for the CLI (`ls`, `read`, `grep`, `glob`, `write`, `edit`), confined to a
//! root directory.
