//! Programs that grow without end, one per language that can grow, for
//! the memory tests (`memory_limit.rs`, `address_space.rs`).

/// A Turing machine whose one rule writes 0, moves right and stays in
/// state 0: the tape grows a cell a step.
pub const WALK_BTM: &str = "10!\n10!\n10!\n10!\n10!\n";

/// Places a new piece on the square each pair of input numbers names.
pub const PLACE_ICP: &str = "1. a=P*,*?1!1\n";

/// A piece of value 3 put on b1 and moved into the hole a1, again and
/// again: each fall pushes the next input number on White's stack.
pub const PUSH_FV: &str = "\
(P 3): (1,0)
(K):
+--+--+--+
|  |  |KB|
+--+--+--+
|##|  |KW|
+--+--+--+
Turn 1 W: P b1 checks turn 2
Turn 1 B: K b3 checks turn 1
Turn 2 W: P b1 -> a1
Turn 2 B: K b3 checks turn 1
";

/// A random program (found by `address_space.rs`) whose first move line,
/// line 19, searches without end: s3 calls s1, a crooked rider repeated
/// "the same way each time", whose first rounds can go ever more ways; the
/// search's working memory grows until the budget or the system stops it.
pub const SEARCH_FV: &str = r#"(k): {(1,0),(1,1)}
(s0 y): "k"
(s1 x): r!({(2,1),(2,1),(1,2|<>)(0,1|<>)`}*,2)*p`x`
(s2 7): {["s0""s0"]`{"s0"(2,2|^)*,"s0""s1"},r("k"x`,1),m((0,0|^)(1,1|^>))r((2,2)*,1)`}*(0,0|<>)
(s3 6): "s1""s0"`
+--+--+--+--+--+--+
|  |s2W|  |  |  |kB|
+--+--+--+--+--+--+
|  |  |  |  |  |  |
+--+--+--+--+--+--+
|  |s2B|  |  |  |  |
+--+--+--+--+--+--+
|  |  |  |  |  |  |
+--+--+--+--+--+--+
|  |  |  |  |  |  |
+--+--+--+--+--+--+
|  |  |  |  |kW|  |
+--+--+--+--+--+--+
Turn 1 W: s3 e6 -> b1
Turn 1 B: s1 c6 -> b5
Turn 2 W: s1 f4 -> e5
Turn 2 B: s0 e2 -> d6
Turn 3 W: s1 f1 -> f1
Turn 3 B: s3 f6 checks turn 2
Turn 4 W: k c5 -> e5
Turn 4 B: k e2 -> e1
Turn 5 W: k e5 -> e5
Turn 5 B: s3 b2 -> a3
Turn 6 W: k e2 checks turn 1
"#;
