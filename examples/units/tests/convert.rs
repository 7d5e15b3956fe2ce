use units::*;

#[test]
fn boiling_point() {
    assert_eq!(celsius_to_fahrenheit(100.0), 212.0);
}

#[test]
fn freezing_point() {
    assert_eq!(fahrenheit_to_celsius(32.0), 0.0);
}
