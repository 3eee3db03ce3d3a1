//! A pytest fixture whose body skips, asked for by a test (a parameter of that name) or by
//! a `usefixtures` mark, skips that test as a call to a skip helper would: a new request is
//! a new skip. A fixture that does not skip, and a test that asked for it already, are not.
//! Judged uncommitted and committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, messages, writing};
use serde_json::Value;

const CONFTEST: &str = "tests/conftest.py";
const FIXTURES: &str = "import pytest\n\n\n@pytest.fixture\ndef client():\n    return object()\n";
const SKIPPING: &str = "import pytest\n\n\n@pytest.fixture\ndef client():\n    return object()\n\n\n@pytest.fixture\ndef no_trio_support(request):\n    if request.keywords.get(\"trio\"):\n        pytest.skip(\"Trio not supported (yet!)\")\n";
const TESTS: &str = "tests/test_db.py";
const BODY: &str = "import pytest\n\n\ndef test_query(client):\n    assert client is not None\n";

fn skipped_at(lines: Vec<(&'static str, u64)>) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        let want: Vec<(String, u64)> = lines.iter().map(|(p, l)| (p.to_string(), *l)).collect();
        assert_eq!(lines_of(receipt, "new_skips"), want, "{mode}: {receipt}");
        assert!(
            messages(receipt, "new_skips")
                .iter()
                .any(|m| m.contains("helper that skips")),
            "{mode}: {receipt}"
        );
        assert_eq!(code, Some(3), "{mode}");
    }
}

#[test]
fn a_test_or_a_module_asking_for_a_skipping_fixture_is_skipped() {
    let asked = BODY.replace(
        "def test_query(client):",
        "def test_query(client, no_trio_support):",
    );
    both_ways(
        &[(CONFTEST, FIXTURES), (TESTS, BODY)],
        &writing(&[(CONFTEST, SKIPPING), (TESTS, &asked)]),
        // The fixture's own `pytest.skip` (line 12) and the request (line 4).
        &skipped_at(vec![(CONFTEST, 12), (TESTS, 4)]),
    );
    let marked = BODY.replace(
        "import pytest\n\n",
        "import pytest\n\npytestmark = pytest.mark.usefixtures(\"no_trio_support\")\n\n",
    );
    both_ways(
        &[(CONFTEST, FIXTURES), (TESTS, BODY)],
        &writing(&[(CONFTEST, SKIPPING), (TESTS, &marked)]),
        &skipped_at(vec![(CONFTEST, 12), (TESTS, 3)]),
    );
}

#[test]
fn a_fixture_that_does_not_skip_or_one_already_asked_for_is_not() {
    // `client` runs the test; asking for it skips nothing. The same change has one test
    // ask for the skipping fixture: only that request is reported.
    let other = "tests/test_other.py";
    let new_tests = "def test_other(client):\n    assert client\n\n\ndef test_trio_only(no_trio_support):\n    assert True\n";
    both_ways(
        &[(CONFTEST, SKIPPING), (TESTS, BODY)],
        &writing(&[
            (CONFTEST, &SKIPPING.replace("return object()", "return [1]")),
            (other, new_tests),
        ]),
        &skipped_at(vec![(other, 5)]),
    );
    // The skipping fixture and its request were there; the change edits the test's body
    // and rewords the skip, and adds one more request.
    let asked = BODY.replace(
        "def test_query(client):",
        "def test_query(client, no_trio_support):",
    );
    let edited = format!(
        "{}\n\n@pytest.mark.usefixtures(\"no_trio_support\")\ndef test_count(client):\n    assert client\n",
        asked.replace("is not None", "is not False")
    );
    let skipping_edited = SKIPPING.replace("(yet!)", "(yet)");
    both_ways(
        &[(CONFTEST, SKIPPING), (TESTS, &asked)],
        &writing(&[(CONFTEST, &skipping_edited), (TESTS, &edited)]),
        &skipped_at(vec![(TESTS, 8)]),
    );
}
