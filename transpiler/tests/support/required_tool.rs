//! Tests that need a program the machine may lack (a browser, an editor):
//! where CI installs it, it must be there; elsewhere its tests are skipped,
//! saying so.

/// `found`, the program a test needs (`tool`), passed on when it is
/// there; otherwise the test fails if the environment variable `required`
/// is set (as `.ci/run` sets it), and else is to be skipped (`None`) with
/// a note naming Debian's `package`.
pub fn required<T>(found: Option<T>, tool: &str, package: &str, required: &str) -> Option<T> {
    if found.is_none() {
        assert!(
            std::env::var_os(required).is_none(),
            "{tool} is required here ({required}) but not installed"
        );
        eprintln!("skipped: {tool} is not installed (`apt-get install {package}`)");
    }
    found
}
