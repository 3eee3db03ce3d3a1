//! `deleted_tests` and a test replaced in its own file by a different one while the count
//! rose: a new test built the same way (its frame holds most of the removed test's words)
//! does not carry it when the value it checked (its expected message) is in no test any
//! more and the code the change touched did not drop it either. Lookalike: the message
//! reworded in the code, and its test rewritten with it. Each case is judged uncommitted
//! (against HEAD) and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing};

const PY: &str = "tests/test_fields.py";
const CODE: &str = "fields.py";

const CODE_BEFORE: &str = r#"IP_ERROR = "Not a valid IP address."
IPV6_ERROR = "Not a valid IPv6 address."
"#;

const BEFORE: &str = r#"import pytest

from fields import IP, IPv6, ValidationError


def test_ip_field():
    assert str(IP().deserialize("140.82.118.3")) == "140.82.118.3"


@pytest.mark.parametrize("in_value", ["malformed", "192.168"])
def test_invalid_ip(in_value):
    field = IP()
    with pytest.raises(ValidationError) as excinfo:
        field.deserialize(in_value)
    assert excinfo.value.args[0] == "Not a valid IP address."


@pytest.mark.parametrize("in_value", ["malformed", "ff::aa:1::2"])
def test_invalid_ipv6(in_value):
    field = IPv6()
    with pytest.raises(ValidationError) as excinfo:
        field.deserialize(in_value)
    assert excinfo.value.args[0] == "Not a valid IPv6 address."
"#;

/// `test_invalid_ipv6` replaced where it stood by a test of another field, built the same
/// way (its frame holds most of the removed test's words), and one more test added.
fn after(field: &str, message: &str) -> String {
    format!(
        r#"import pytest

from fields import IP, IPv6, IPInterface, ValidationError


def test_ip_field():
    assert str(IP().deserialize("140.82.118.3")) == "140.82.118.3"


@pytest.mark.parametrize("in_value", ["malformed", "192.168"])
def test_invalid_ip(in_value):
    field = IP()
    with pytest.raises(ValidationError) as excinfo:
        field.deserialize(in_value)
    assert excinfo.value.args[0] == "Not a valid IP address."


@pytest.mark.parametrize("in_value", ["malformed", "192.168.0.1/33"])
def test_invalid_{field}(in_value):
    field = {field}()
    with pytest.raises(ValidationError) as excinfo:
        field.deserialize(in_value)
    assert excinfo.value.args[0] == "{message}"


def test_ipinterface_field():
    assert str(IPInterface().deserialize("140.82.118.3/24")) == "140.82.118.3/24"
"#
    )
}

#[test]
fn a_test_replaced_in_place_by_one_that_checks_another_message_is_deleted() {
    // The IPv6 message is still the code's, and no test checks it any more.
    both_ways(
        &[(PY, BEFORE), (CODE, CODE_BEFORE)],
        &writing(&[
            (PY, &after("IPInterface", "Not a valid IP interface.")),
            (
                CODE,
                &format!("{CODE_BEFORE}INTERFACE_ERROR = \"Not a valid IP interface.\"\n"),
            ),
        ]),
        &assert_one_deleted(
            PY,
            "went from 3 to 4, but `def test_invalid_ipv6(in_value)` was removed",
        ),
    );
}

#[test]
fn a_test_rewritten_with_the_message_the_code_reworded_is_not_deleted() {
    // The code's message changed, and its test was renamed and rewritten with it.
    both_ways(
        &[(PY, BEFORE), (CODE, CODE_BEFORE)],
        &writing(&[
            (PY, &after("IPv6", "Not a valid IPv6 address or network.")),
            (
                CODE,
                &CODE_BEFORE.replace("IPv6 address.", "IPv6 address or network."),
            ),
        ]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_renamed_with_a_new_input_is_not_deleted() {
    // Its input left the tests, but no code holds it: input is free to change with its
    // test, and the message it checks is still checked.
    let renamed = after("IPv6", "Not a valid IPv6 address.")
        .replace("def test_invalid_IPv6(", "def test_rejects_malformed_v6(")
        .replace("\"192.168.0.1/33\"", "\"ff::aa:1::3\"");
    both_ways(
        &[(PY, BEFORE), (CODE, CODE_BEFORE)],
        &writing(&[
            (PY, &renamed),
            (
                CODE,
                &format!("{CODE_BEFORE}INTERFACE_ERROR = \"Not a valid IP interface.\"\n"),
            ),
        ]),
        &assert_no_deleted_tests,
    );
}
