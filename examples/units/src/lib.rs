//! Unit conversions.

/// Degrees Celsius to degrees Fahrenheit.
pub fn celsius_to_fahrenheit(c: f64) -> f64 {
    c * 9.0 / 5.0 + 32.0
}

/// Degrees Fahrenheit to degrees Celsius.
pub fn fahrenheit_to_celsius(f: f64) -> f64 {
    (f - 32.0) * 5.0 / 9.0
}

/// Inches to centimetres.
pub fn inches_to_cm(inches: f64) -> f64 {
    inches * 2.54
}

pub const MILES_TO_KM: f64 = 1.609;
