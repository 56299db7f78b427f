//! What an editor shows of a program besides its diagnostics, in every
//! language the same shape: the symbols (labels, loops, pieces, turns,
//! rules), the links from each use of a name to its definition, the tokens
//! to colour, and a plain-words description of each construct for hovers.
//! Each language module makes its [`Outline`] from the same syntax tree
//! and lowering the compiler uses (`lang::FrontEnd::outline`); the language
//! server (`chess2rs lsp`) answers from it.

use crate::source::Span;

/// Everything an editor asks about one program text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    /// The document's symbols, in source order.
    pub symbols: Vec<Symbol>,
    /// Each reference to a definition (a jump to a label, a piece symbol).
    pub links: Vec<Link>,
    /// Tokens to colour, in source order, not overlapping.
    pub tokens: Vec<Token>,
    /// Descriptions of constructs; an inner span's wins over an outer's.
    pub hovers: Vec<Hover>,
}

/// A named thing in a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// What it is called (`label 3`, `Turn 2 W`, a piece symbol).
    pub name: String,
    /// More about it (the line's text, a piece's notation).
    pub detail: String,
    /// What kind of thing it is.
    pub kind: SymbolKind,
    /// All of it (the whole line).
    pub span: Span,
    /// Its name in the text.
    pub name_span: Span,
}

/// The kinds of symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// An InfChessPro line label.
    Label,
    /// A Chess Code loop (its label line).
    Loop,
    /// A Finvara piece type.
    Piece,
    /// A Finvara turn (a move line).
    Turn,
    /// A Chessoteric annotated move or BTM line.
    Instruction,
}

/// A use of a name and the definition it means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// Where the name is used.
    pub reference: Span,
    /// Where it is defined.
    pub definition: Span,
}

/// A token and its colour class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Where.
    pub span: Span,
    /// What.
    pub kind: TokenKind,
}

/// Token classes, each one of LSP's standard semantic token types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A label or a jump target.
    Label,
    /// A word of the language (`Turn`, `checks`, `O-O`).
    Keyword,
    /// A number.
    Number,
    /// Printed text.
    String,
    /// A comment.
    Comment,
    /// A piece type or symbol.
    Type,
    /// A named piece, a cell or a variable.
    Variable,
    /// An operator or annotation (`?`, `!`, `->`, `x`, `+`).
    Operator,
}

impl TokenKind {
    /// Every kind, in the order of LSP's legend.
    pub const ALL: [TokenKind; 8] = [
        TokenKind::Label,
        TokenKind::Keyword,
        TokenKind::Number,
        TokenKind::String,
        TokenKind::Comment,
        TokenKind::Type,
        TokenKind::Variable,
        TokenKind::Operator,
    ];

    /// LSP's name for the kind.
    pub fn lsp_name(self) -> &'static str {
        match self {
            TokenKind::Label => "label",
            TokenKind::Keyword => "keyword",
            TokenKind::Number => "number",
            TokenKind::String => "string",
            TokenKind::Comment => "comment",
            TokenKind::Type => "type",
            TokenKind::Variable => "variable",
            TokenKind::Operator => "operator",
        }
    }
}

/// A description of the construct at a span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    /// The construct.
    pub span: Span,
    /// What it does, in Markdown.
    pub text: String,
}

impl Outline {
    /// Adds a token (empty spans are dropped).
    pub fn token(&mut self, span: Span, kind: TokenKind) {
        if span.start < span.end {
            self.tokens.push(Token { span, kind });
        }
    }

    /// Adds a hover text for `span`.
    pub fn hover(&mut self, span: Span, text: impl Into<String>) {
        self.hovers.push(Hover {
            span,
            text: text.into(),
        });
    }

    /// Adds a link from a use to its definition.
    pub fn link(&mut self, reference: Span, definition: Span) {
        self.links.push(Link {
            reference,
            definition,
        });
    }

    /// Puts the tokens in source order, dropping any that overlap an
    /// earlier one (LSP's tokens may not overlap).
    pub fn finish(mut self) -> Outline {
        self.tokens
            .sort_by_key(|token| (token.span.start, token.span.end));
        let mut end = 0;
        self.tokens.retain(|token| {
            let keep = token.span.start >= end;
            if keep {
                end = token.span.end;
            }
            keep
        });
        self
    }

    /// The description of the innermost construct at `offset`.
    pub fn hover_at(&self, offset: usize) -> Option<&Hover> {
        innermost(&self.hovers, |hover| &hover.span, offset)
    }

    /// The definition of the name at `offset`: the one a use there
    /// means, or the definition itself.
    pub fn definition_at(&self, offset: usize) -> Option<Span> {
        if let Some(link) = innermost(&self.links, |link| &link.reference, offset) {
            return Some(link.definition.clone());
        }
        let definitions: Vec<&Span> = self
            .links
            .iter()
            .map(|link| &link.definition)
            .chain(self.symbols.iter().map(|symbol| &symbol.name_span))
            .collect();
        innermost(&definitions, |span| span, offset).map(|span| (*span).clone())
    }

    /// Every use of the definition of the name at `offset` (and the
    /// definition itself first, if `declaration`).
    pub fn references_at(&self, offset: usize, declaration: bool) -> Vec<Span> {
        let Some(definition) = self.definition_at(offset) else {
            return Vec::new();
        };
        let uses = self
            .links
            .iter()
            .filter(|link| link.definition == definition)
            .map(|link| link.reference.clone());
        declaration
            .then(|| definition.clone())
            .into_iter()
            .chain(uses)
            .collect()
    }
}

/// The item of the shortest span around `offset`: a span that holds the
/// character at `offset`, else one that ends there (a cursor just after a
/// word still means it).
fn innermost<T>(items: &[T], span: impl Fn(&T) -> &Span, offset: usize) -> Option<&T> {
    let shortest = |inside: &dyn Fn(&Span) -> bool| {
        items
            .iter()
            .filter(|item| inside(span(item)))
            .min_by_key(|item| span(item).len())
    };
    shortest(&|s: &Span| s.start <= offset && offset < s.end)
        .or_else(|| shortest(&|s: &Span| s.start < offset && offset == s.end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Outline {
        let mut outline = Outline::default();
        outline.symbols.push(Symbol {
            name: "label 1".into(),
            detail: String::new(),
            kind: SymbolKind::Label,
            span: 0..10,
            name_span: 0..1,
        });
        outline.link(20..21, 0..1);
        outline.link(30..31, 0..1);
        outline.hover(0..10, "line");
        outline.hover(3..5, "part");
        outline.token(5..8, TokenKind::Number);
        outline.token(0..1, TokenKind::Label);
        outline.token(6..7, TokenKind::Operator);
        outline.token(9..9, TokenKind::Operator);
        outline.finish()
    }

    #[test]
    fn the_innermost_hover_wins() {
        let outline = sample();
        assert_eq!(outline.hover_at(4).unwrap().text, "part");
        assert_eq!(outline.hover_at(8).unwrap().text, "line");
        assert!(outline.hover_at(11).is_none());
    }

    #[test]
    fn definitions_and_references_go_both_ways() {
        let outline = sample();
        assert_eq!(outline.definition_at(20), Some(0..1));
        assert_eq!(outline.definition_at(0), Some(0..1));
        assert_eq!(outline.definition_at(25), None);
        assert_eq!(outline.references_at(31, true), vec![0..1, 20..21, 30..31]);
        assert_eq!(outline.references_at(0, false), vec![20..21, 30..31]);
    }

    #[test]
    fn tokens_are_sorted_without_overlaps_or_empties() {
        let spans: Vec<Span> = sample().tokens.iter().map(|t| t.span.clone()).collect();
        assert_eq!(spans, vec![0..1, 5..8]);
    }
}
