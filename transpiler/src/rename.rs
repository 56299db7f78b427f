//! Renaming a name everywhere it is written (the language server's
//! `textDocument/rename`): each language that has names finds, from its
//! parsed tree, the name at a place and every place it is written
//! ([`FrontEnd::renaming`](crate::FrontEnd::renaming)); what is shared —
//! the new name's shape, a name already taken, the edits — is here.
//!
//! ```
//! use chess2rs::{renaming, Language, Source};
//!
//! let source = Source::new("t.icp", "1. a=K0,0?2\n2. %a?1\n");
//! let label = renaming(&source, Language::InfChessPro, 1).unwrap();
//! let edits = label.edits("10").unwrap();
//! assert_eq!(edits.len(), 2); // the label and the jump to it
//! assert!(label.edits("2").is_err()); // line 2's label already
//! ```

use std::collections::HashSet;

use crate::source::Span;

/// What a new name must look like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameShape {
    /// A line label: decimal digits (at most 18, so any fits `i64`).
    Label,
    /// Letters, digits and underscores.
    Word,
}

/// A name found at a place in a program, with every place it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renaming {
    /// What the name names, for messages (`label 3`, `piece q`).
    pub what: String,
    /// Where it is written at the place asked about.
    pub at: Span,
    /// Every place it is written (`at` among them), in source order.
    pub sites: Vec<Span>,
    /// The other names of the same kind the program uses (labels as
    /// their value, `7` for `007`): a new name among them would make two
    /// things one.
    pub taken: HashSet<String>,
    /// What a new name must look like.
    pub shape: NameShape,
}

impl Renaming {
    /// The edits that rename it to `new`: every site rewritten; or why
    /// `new` cannot be its name.
    pub fn edits(&self, new: &str) -> Result<Vec<(Span, String)>, String> {
        let shaped = match self.shape {
            NameShape::Label => {
                !new.is_empty() && new.len() <= 18 && new.bytes().all(|b| b.is_ascii_digit())
            }
            NameShape::Word => {
                !new.is_empty() && new.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            }
        };
        if !shaped {
            return Err(match self.shape {
                NameShape::Label => {
                    format!("`{new}` is not a label: labels are numbers, 0 or more")
                }
                NameShape::Word => {
                    format!("`{new}` is not a name: names are letters, digits and underscores")
                }
            });
        }
        let key = match self.shape {
            NameShape::Label => new
                .parse::<i64>()
                .map(|value| value.to_string())
                .unwrap_or_default(),
            NameShape::Word => new.to_string(),
        };
        if self.taken.contains(&key) {
            return Err(format!(
                "`{new}` is taken: renaming {} to it would make two things one",
                self.what
            ));
        }
        Ok((self.sites.iter())
            .map(|site| (site.clone(), new.to_string()))
            .collect())
    }
}

impl Renaming {
    /// `text` (the program it was found in) with the name renamed to
    /// `new`, or why `new` cannot be its name.
    pub fn renamed(&self, text: &str, new: &str) -> Result<String, String> {
        let mut text = text.to_string();
        // From the end, so that earlier spans stay where they are.
        for (span, new) in self.edits(new)?.into_iter().rev() {
            text.replace_range(span, &new);
        }
        Ok(text)
    }
}

/// Whether `span` is the name at `offset`: it holds the character there,
/// or ends just before it (a cursor right after a word means the word).
pub fn at(span: &Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label() -> Renaming {
        Renaming {
            what: "label 3".into(),
            at: 0..1,
            sites: vec![0..1, 9..10],
            taken: HashSet::from(["7".to_string()]),
            shape: NameShape::Label,
        }
    }

    #[test]
    fn every_site_is_rewritten() {
        assert_eq!(
            label().edits("12"),
            Ok(vec![(0..1, "12".into()), (9..10, "12".into())])
        );
    }

    #[test]
    fn a_name_of_the_wrong_shape_or_taken_is_refused() {
        assert!(label().edits("x").unwrap_err().contains("not a label"));
        assert!(label().edits("").is_err());
        assert!(label().edits("0007").unwrap_err().contains("taken"));
        let word = Renaming {
            shape: NameShape::Word,
            ..label()
        };
        assert!(word.edits("a b").unwrap_err().contains("not a name"));
        assert!(word.edits("a_1").is_ok());
    }
}
