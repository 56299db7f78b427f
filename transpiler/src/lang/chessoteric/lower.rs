//! Assembled rule parts and tape symbols → the Turing machine.

use std::collections::hash_map::{Entry, HashMap};

use super::check::{Assembled, Value};
use super::ir::{states, Machine, Rule};
use crate::source::Source;

/// Groups parts into rules (a later rule for the same state and symbol
/// replaces the earlier one; leftover parts are dropped).
pub fn lower(assembled: &Assembled, source: &Source) -> Machine {
    let mut rules: Vec<Rule> = Vec::new();
    // Where the rule for each (state, read) is in `rules`.
    let mut index: HashMap<(i64, i64), usize> = HashMap::new();
    for parts in assembled.parts.chunks_exact(5) {
        let rule = Rule {
            state: parts[0].value,
            read: parts[1].value,
            next: parts[2].value,
            write: parts[3].value,
            left: parts[4].value % 2 != 0,
            origin: format!(
                "from {} to {}",
                instruction(source, &parts[0]),
                instruction(source, &parts[4])
            ),
        };
        if rule.state == states::INPUT || rule.state == states::OUTPUT {
            continue;
        }
        match index.entry((rule.state, rule.read)) {
            Entry::Occupied(existing) => rules[*existing.get()] = rule,
            Entry::Vacant(slot) => {
                slot.insert(rules.len());
                rules.push(rule);
            }
        }
    }
    Machine {
        rules,
        tape: assembled.symbols.iter().map(|s| s.value).collect(),
        source_name: source.name().to_string(),
    }
}

/// The instruction that started a part, as written, with its line:
/// `` `Qg8!` (line 3)`` or `` `10!` (line 7)``.
fn instruction(source: &Source, part: &Value) -> String {
    let text = source.text().get(part.span.clone()).unwrap_or("?");
    format!("`{}` (line {})", text, source.line_number(part.span.start))
}
