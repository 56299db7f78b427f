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
