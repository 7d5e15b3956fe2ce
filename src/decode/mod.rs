//! Typed arguments: raw argument text or a `Value`, repaired, coerced where the schema asks for it,
//! validated, and deserialised, with every change recorded and corrective errors for the model.
