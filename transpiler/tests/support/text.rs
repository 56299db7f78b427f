//! The text of a child's output, and what the tests assert of it.

/// `bytes` as text (invalid UTF-8 replaced).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that `text` contains `part`, showing `text` if it does not.
pub fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "`{part}` is not in:\n{text}");
}
