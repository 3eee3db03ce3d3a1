//! A Kotlin test class annotated `@Burst` runs each test once per value of each parameter
//! of its primary constructor. An assumption over a constructor property the change added
//! (the class made parameterized, or a class the change adds) keeps a test to the values it
//! is about: nothing that ran stopped running. One over a property the class already had
//! skips a case that ran. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};
use serde_json::Value;

const PATH: &str = "src/test/kotlin/g/EventTest.kt";

const PLAIN: &str = concat!(
    "package g\n",
    "\n",
    "import org.junit.jupiter.api.Test\n",
    "\n",
    "class EventTest {\n",
    "  @Test\n",
    "  fun emits() {\n",
    "    check(true)\n",
    "  }\n",
    "}\n",
);

const BURST: &str = concat!(
    "package g\n",
    "\n",
    "import app.cash.burst.Burst\n",
    "import org.junit.jupiter.api.Assumptions.assumeTrue\n",
    "import org.junit.jupiter.api.Test\n",
    "\n",
    "@Burst\n",
    "class EventTest(\n",
    "  private val installedOn: InstalledOn = InstalledOn.Client,\n",
    ") {\n",
    "  @Test\n",
    "  fun emits() {\n",
    "    check(true)\n",
    "  }\n",
    "\n",
    "  @Test\n",
    "  fun emitsOnCall() {\n",
    "    assumeTrue(installedOn == InstalledOn.Call)\n",
    "    check(true)\n",
    "  }\n",
    "}\n",
);

fn skips(receipt: &Value) -> Vec<(String, u64)> {
    lines_of(receipt, "new_skips")
}

#[test]
fn an_assumption_over_a_burst_parameter_the_change_added_is_no_skip() {
    both_ways(
        &[(PATH, PLAIN)],
        &writing(&[(PATH, BURST)]),
        &|code, receipt, mode| {
            assert_eq!(skips(receipt), vec![], "{mode}: {receipt}");
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

#[test]
fn an_assumption_over_a_burst_parameter_the_class_had_is_a_skip() {
    let before = BURST.replace("    assumeTrue(installedOn == InstalledOn.Call)\n", "");
    both_ways(
        &[(PATH, &before)],
        &writing(&[(PATH, BURST)]),
        &|code, receipt, mode| {
            assert_eq!(
                skips(receipt),
                vec![(PATH.to_string(), 18)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_constructor_property_of_a_class_not_run_by_burst_is_no_parameter() {
    let plain_ctor = BURST.replace("@Burst\n", "");
    both_ways(
        &[(PATH, PLAIN)],
        &writing(&[(PATH, &plain_ctor)]),
        &|code, receipt, mode| {
            assert_eq!(
                skips(receipt),
                vec![(PATH.to_string(), 17)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}
