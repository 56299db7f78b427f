//! What an editor may complete at a place in a program (the language
//! server's `textDocument/completion`): labels after a jump, names and
//! symbols where one goes, a notation's atoms. Each language finds its
//! own from the text as it is while being typed, which need not parse
//! ([`FrontEnd::completions`](crate::FrontEnd::completions)).

/// One thing that may be written at the place asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// What is written.
    pub text: String,
    /// What it is, in a few words (a label's line, a piece's notation).
    pub detail: String,
    /// What it does, in Markdown.
    pub documentation: String,
    /// What kind of thing it is.
    pub kind: CompletionKind,
}

/// The kinds of things completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// A line label.
    Label,
    /// A piece name or symbol.
    Piece,
    /// A piece of notation or a keyword.
    Syntax,
}

impl Completion {
    /// A completion of `text`.
    pub fn new(text: impl Into<String>, kind: CompletionKind, detail: impl Into<String>) -> Self {
        Completion {
            text: text.into(),
            detail: detail.into(),
            documentation: String::new(),
            kind,
        }
    }

    /// With documentation.
    pub fn documented(mut self, documentation: impl Into<String>) -> Self {
        self.documentation = documentation.into();
        self
    }
}

/// The texts completed at `offset` of `text` as `language` (tests).
#[cfg(test)]
pub fn completed_for_test(text: &str, language: crate::Language, offset: usize) -> Vec<String> {
    let source = crate::Source::new("t", text);
    let completions = crate::completions(&source, language, offset);
    completions
        .into_iter()
        .map(|completion| completion.text)
        .collect()
}

/// The text of the line `offset` is on, from its start up to `offset`.
pub fn line_before(text: &str, offset: usize) -> &str {
    let offset = offset.min(text.len());
    let mut start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    text.get(start..offset).unwrap_or_default()
}

/// Whether `before` (a line's text before the cursor) ends in a word being
/// typed after `marker`: `marker` then letters, digits or underscores.
pub fn after(before: &str, marker: &str) -> bool {
    let word = before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    word.trim_end().ends_with(marker)
}
