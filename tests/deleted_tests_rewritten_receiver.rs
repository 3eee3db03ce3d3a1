//! `deleted_tests` and a test rewritten in place that "receives" a removed neighbour: the
//! XML test of an endpoint rewritten as a JSON test while the JSON test that was already
//! there is deleted as now duplicated. The rewritten test swapped its XML statements for
//! JSON ones without growing, so what it gained stands for what it lost: nothing of the
//! XML case runs any more, and the file holds one test fewer. Lookalike: the JSON test
//! merged into its neighbour, which keeps its XML statements and grows by the JSON ones,
//! is not deleted. Each case is judged uncommitted (against HEAD) and committed
//! (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing};

const RB: &str = "test/integration/lockable_test.rb";

const HEAD: &str = r#"require 'test_helper'

class LockTest < Devise::IntegrationTest
  test 'user should be able to unlock the account' do
    user = create_user(locked: true)
    visit_user_unlock_with_token(user.unlock_token)
    assert_contain 'Your account has been unlocked successfully.'
  end
"#;

const XML: &str = r#"
  test 'user should be able to request a new unlock token via XML request' do
    user = create_user(locked: true)
    ActionMailer::Base.deliveries.clear

    post user_unlock_path(format: 'xml'), params: { user: {email: user.email} }
    assert_response :success
    assert_equal({}.to_xml, response.body)
    assert_equal 1, ActionMailer::Base.deliveries.size
  end
"#;

const JSON: &str = r#"
  test "when using json to ask a unlock request, should not return the user" do
    user = create_user(locked: true)
    post user_unlock_path(format: "json", user: {email: user.email})
    assert_response :success
    assert_equal({}.to_json, response.body)
  end
"#;

/// The XML test rewritten where it stood as a JSON test, the same length.
const XML_AS_JSON: &str = r#"
  test 'user should be able to request a new unlock token via JSON request and should return empty and valid response' do
    user = create_user(locked: true)
    ActionMailer::Base.deliveries.clear

    post user_unlock_path(format: 'json'), params: { user: {email: user.email} }
    assert_response :success
    assert_equal({}.to_json, response.body)
    assert_equal 1, ActionMailer::Base.deliveries.size
  end
"#;

/// The XML test kept whole, grown by the JSON test's request and check.
const XML_AND_JSON: &str = r#"
  test 'user should be able to request a new unlock token via XML or JSON request' do
    user = create_user(locked: true)
    ActionMailer::Base.deliveries.clear

    post user_unlock_path(format: 'xml'), params: { user: {email: user.email} }
    assert_response :success
    assert_equal({}.to_xml, response.body)
    assert_equal 1, ActionMailer::Base.deliveries.size
    post user_unlock_path(format: "json", user: {email: user.email})
    assert_response :success
    assert_equal({}.to_json, response.body)
  end
"#;

fn file(tests: &[&str]) -> String {
    format!("{HEAD}{}end\n", tests.concat())
}

#[test]
fn a_test_rewritten_in_place_over_its_deleted_twin_loses_a_test() {
    let before = file(&[XML, JSON]);
    let after = file(&[XML_AS_JSON]);
    both_ways(
        &[(RB, &before)],
        &writing(&[(RB, &after)]),
        &assert_one_deleted(RB, "dropped from 3 to 2"),
    );
}

#[test]
fn a_test_merged_into_a_neighbour_that_grew_is_not_deleted() {
    let before = file(&[XML, JSON]);
    let after = file(&[XML_AND_JSON]);
    both_ways(
        &[(RB, &before)],
        &writing(&[(RB, &after)]),
        &assert_no_deleted_tests,
    );
}
