//! `deleted_tests` and a test removed from a file whose count rose: other tests
//! were added in the same change, so the count hides the loss. A test whose name left the
//! change and whose own words (those no other test of its file held) went into no test the
//! change added or grew is deleted, and the finding names it with the counts. Each
//! lookalike that loses nothing stays quiet: a test renamed and reworked that takes its own
//! words along, a test folded into a neighbour that grew, a formatter rewrapping a
//! declaration, a JUnit 5 port dropping the `test` prefix. Each case is judged uncommitted
//! (against HEAD) and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing};

const PY: &str = "tests/test_fields.py";

const BEFORE: &str = r#"import pytest

from fields import IPv4, IPv6, ValidationError


def test_ipv4_field():
    assert str(IPv4().load("140.82.118.3")) == "140.82.118.3"


def test_invalid_ipv4():
    with pytest.raises(ValidationError) as excinfo:
        IPv4().load("malformed")
    assert excinfo.value.args[0] == "Not a valid IPv4 address."


def test_invalid_ipv6():
    with pytest.raises(ValidationError) as excinfo:
        IPv6().load("malformed")
    assert excinfo.value.args[0] == "Not a valid IPv6 address."
"#;

/// `test_invalid_ipv6` gone, two interface tests added: 3 -> 4 tests, and no IPv6 check of
/// an invalid address is left (its message is in no test any more).
const IPV6_DROPPED: &str = r#"import pytest

from fields import IPv4, IPInterface, ValidationError


def test_ipv4_field():
    assert str(IPv4().load("140.82.118.3")) == "140.82.118.3"


def test_invalid_ipv4():
    with pytest.raises(ValidationError) as excinfo:
        IPv4().load("malformed")
    assert excinfo.value.args[0] == "Not a valid IPv4 address."


def test_ipinterface_field():
    assert str(IPInterface().load("140.82.118.3/24")) == "140.82.118.3/24"


def test_lenient_ipinterface():
    assert IPInterface(strict=False).load("malformed") is None
"#;

#[test]
fn a_test_removed_while_others_are_added_is_deleted() {
    both_ways(
        &[(PY, BEFORE)],
        &writing(&[(PY, IPV6_DROPPED)]),
        &assert_one_deleted(
            PY,
            "tests in `tests/test_fields.py` went from 3 to 4, but `def test_invalid_ipv6()` was removed",
        ),
    );
}

/// The same change, but `test_invalid_ipv6` renamed and reworked where it stood: its own
/// words (`IPv6`, its message) went with it.
const IPV6_REWORKED: &str = r#"import pytest

from fields import IPv4, IPv6, IPInterface, ValidationError


def test_ipv4_field():
    assert str(IPv4().load("140.82.118.3")) == "140.82.118.3"


def test_invalid_ipv4():
    with pytest.raises(ValidationError) as excinfo:
        IPv4().load("malformed")
    assert excinfo.value.args[0] == "Not a valid IPv4 address."


def test_ipv6_rejects_bad_input():
    with pytest.raises(ValidationError) as err:
        IPv6(strict=True).load("ff::aa:1::2")
    assert err.value.args[0] == "Not a valid IPv6 address."


def test_ipinterface_field():
    assert str(IPInterface().load("140.82.118.3/24")) == "140.82.118.3/24"
"#;

#[test]
fn a_test_renamed_and_reworked_with_its_own_words_is_not_deleted() {
    both_ways(
        &[(PY, BEFORE)],
        &writing(&[(PY, IPV6_REWORKED)]),
        &assert_no_deleted_tests,
    );
}

const SPEC: &str = "spec/settings_spec.rb";

const SPEC_BEFORE: &str = r#"describe Settings do
  it 'clones namespace values' do
    expect(copy.namespace[:thing]).to eq :foo
  end

  it 'decouples reverse stackable values' do
    expect(copy.reverse_stackable[:thing]).to eq [:foo]
    subject.reverse_stackable[:thing] = :other
    expect(copy.reverse_stackable[:thing]).to eq [:foo]
  end
end
"#;

/// The reverse-stackable test gone, two handler tests added: 2 -> 3.
const SPEC_DROPPED: &str = r#"describe Settings do
  it 'clones namespace values' do
    expect(copy.namespace[:thing]).to eq :foo
  end

  it 'records subclass handlers' do
    subject.add_rescue_handlers({ StandardError => :handler }, subclasses: true)
    expect(subject.rescue_handlers).to eq(StandardError => :handler)
  end

  it 'records exact-match handlers' do
    subject.add_rescue_handlers({ StandardError => :handler }, subclasses: false)
    expect(subject.base_only_rescue_handlers).to eq(StandardError => :handler)
  end
end
"#;

/// The reverse-stackable test's checks folded into its neighbour, which grew; two handler
/// tests added: 2 -> 3.
const SPEC_FOLDED: &str = r#"describe Settings do
  it 'clones namespace values' do
    expect(copy.namespace[:thing]).to eq :foo
    subject.reverse_stackable[:thing] = :other
    expect(copy.reverse_stackable[:thing]).to eq [:foo]
  end

  it 'records subclass handlers' do
    subject.add_rescue_handlers({ StandardError => :handler }, subclasses: true)
    expect(subject.rescue_handlers).to eq(StandardError => :handler)
  end

  it 'records exact-match handlers' do
    subject.add_rescue_handlers({ StandardError => :handler }, subclasses: false)
    expect(subject.base_only_rescue_handlers).to eq(StandardError => :handler)
  end
end
"#;

#[test]
fn a_spec_removed_while_others_are_added_is_deleted_but_one_folded_into_a_neighbour_is_not() {
    both_ways(
        &[(SPEC, SPEC_BEFORE)],
        &writing(&[(SPEC, SPEC_DROPPED)]),
        &assert_one_deleted(
            SPEC,
            "went from 2 to 3, but `it 'decouples reverse stackable values' do` was removed",
        ),
    );
    both_ways(
        &[(SPEC, SPEC_BEFORE)],
        &writing(&[(SPEC, SPEC_FOLDED)]),
        &assert_no_deleted_tests,
    );
}

const JS: &str = "test/browser.test.js";

const TWIN: &str = "test('joins strings as an object', ({ end, is }) => {\n  const instance = pino({ browser: { asObject: true, write (o) { is(o.msg, 'a b') } } })\n  instance.info('a', 'b')\n  end()\n})\n";

#[test]
fn one_of_two_identical_tests_removed_while_others_are_added_is_deleted() {
    let before = format!("const test = require('tap').test\n\n{TWIN}\n{TWIN}");
    let added = "test('serializes once', ({ end, is }) => {\n  const instance = pino({ serializers: { x (d) { return { y: d } } } })\n  instance.info({ x: 1 })\n  end()\n})\n";
    let added2 = "test('transmits once', ({ end, is }) => {\n  const instance = pino({ transmit: { send (l, o) { is(l, 'info') } } })\n  instance.info({ x: 2 })\n  end()\n})\n";
    let after = format!("const test = require('tap').test\n\n{TWIN}\n{added}\n{added2}");
    both_ways(
        &[(JS, &before)],
        &writing(&[(JS, &after)]),
        &assert_one_deleted(
            JS,
            "went from 2 to 3, but `test('joins strings as an object', ({ end, is }) =>` was removed",
        ),
    );
}

#[test]
fn a_port_that_renames_every_test_and_rewraps_declarations_deletes_nothing() {
    // JUnit 4 to 5: `testX` becomes `x`, the declaration moves deeper than its body.
    let java = "src/test/java/p/VersionTest.java";
    let before = "package p;\n\nimport org.junit.Test;\n\npublic class VersionTest\n{\n  @Test\n  public void testParseSimple() {\n    assertEquals(\"g/a/1.2\", parse(\"1.2\", \"g\", \"a\").full());\n  }\n}\n";
    let after = "package p;\n\nimport org.junit.jupiter.api.Test;\n\nclass VersionTest\n{\n    @Test\n    void parseSimple() {\n    assertEquals(\"g/a/1.2\", parse(\"1.2\", \"g\", \"a\").full());\n  }\n\n    @Test\n    void parseEmpty() {\n    assertNull(parse(\"\", \"g\", \"a\"));\n  }\n}\n";
    both_ways(
        &[(java, before)],
        &writing(&[(java, after)]),
        &assert_no_deleted_tests,
    );
    // A formatter wraps a Python test's parameters onto lines of their own.
    let py = "tests/test_files.py";
    let before = "def test_file(tmpdir, client_factory):\n    assert read(tmpdir) == b\"x\"\n";
    let after = "def test_file(\n    tmpdir,\n    client_factory,\n):\n    assert read(tmpdir) == b\"x\"\n\n\ndef test_other(tmpdir):\n    assert size(tmpdir) == 1\n";
    both_ways(
        &[(py, before)],
        &writing(&[(py, after)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_split_into_variants_named_after_it_is_not_deleted_but_an_unrelated_one_is() {
    let py = "tests/test_views.py";
    let before = "def test_options_attr():\n    assert view(attr=True).options == [\"GET\"]\n\n\ndef test_index():\n    assert view().get() == 200\n";
    // `test_options_attr` split into two variants named after it.
    let split = "def test_options_attr_disable():\n    assert not allowed(View, \"OPTIONS\")\n\n\ndef test_options_attr_enable():\n    assert allowed(View, \"OPTIONS\")\n\n\ndef test_index():\n    assert view().get() == 200\n";
    both_ways(
        &[(py, before)],
        &writing(&[(py, split)]),
        &assert_no_deleted_tests,
    );
    // Two tests of something else added instead: the options check is gone.
    let other = "def test_index():\n    assert view().get() == 200\n\n\ndef test_head():\n    assert view().head() == 200\n\n\ndef test_post():\n    assert view().post() == 405\n";
    both_ways(
        &[(py, before)],
        &writing(&[(py, other)]),
        &assert_one_deleted(
            py,
            "went from 2 to 3, but `def test_options_attr()` was removed",
        ),
    );
}

#[test]
fn a_test_reworked_under_a_name_of_the_same_words_is_not_deleted() {
    let java = "src/test/java/p/ConnectTest.java";
    let before = "package p;\n\npublic class ConnectTest {\n    @Test\n    public void doesPostFor307() throws IOException {\n        Document doc = connect(redirect(\"307\")).data(\"Hello\", \"there\").post();\n        assertEquals(\"POST\", method(doc));\n    }\n}\n";
    let after = "package p;\n\npublic class ConnectTest {\n    @ParameterizedTest\n    @ValueSource(ints = {307, 308})\n    public void preservesPostFor307And308(int code) throws IOException {\n        Document doc = connect(redirect(Integer.toString(code))).data(\"Hello\", \"there\").post();\n        assertEquals(\"POST\", method(doc));\n    }\n\n    @Test\n    public void redirectsPostToGet() throws IOException {\n        Document doc = connect(redirect(\"302\")).post();\n        assertEquals(\"GET\", method(doc));\n    }\n}\n";
    both_ways(
        &[(java, before)],
        &writing(&[(java, after)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_that_sat_in_a_skipped_group_ran_nothing() {
    let js = "test/status.test.js";
    let before = "describe('res.status', () => {\n  it('sets the code', () => {\n    expect(status(201)).toBe(201)\n  })\n\n  describe.skip('when the code is undefined', () => {\n    it('raises an error for an invalid code', () => {\n      expect(() => status(undefined)).toThrow('Invalid status code')\n    })\n  })\n})\n";
    let after = "describe('res.status', () => {\n  it('sets the code', () => {\n    expect(status(201)).toBe(201)\n  })\n\n  it('raises for a code above 999', () => {\n    expect(() => status(1000)).toThrow(RangeError)\n  })\n\n  it('raises for a code below 100', () => {\n    expect(() => status(99)).toThrow(RangeError)\n  })\n})\n";
    both_ways(
        &[(js, before)],
        &writing(&[(js, after)]),
        &assert_no_deleted_tests,
    );
}

const PREMAIN: &str = "src/test/java/p/PremainTest.java";

fn premain(tests: &str) -> String {
    format!("package p;\n\nimport org.junit.Test;\n\npublic class PremainTest {{\n{tests}}}\n")
}

const PREMAIN_BEFORE: &str = "    @Test
    public void parse_with_two_classes() {
        Set<String> result = Premain.parse(\"a.A,a.B\");
        assertThat(result).containsExactly(\"a.A\", \"a.B\");
    }

    @Test
    public void parse_returns_empty_when_blank() {
        Set<String> result = Premain.parse(\"   \");
        assertThat(result).isEmpty();
    }
";

/// The parser now builds a predicate: each test keeps its name but for the word of the new
/// expectation, and `blank` still feeds `"   "`, its own input. Most of its words changed.
fn premain_after(blank: &str) -> String {
    premain(&format!(
        "    @Test
    public void parse_with_two_classes() {{
        Predicate<String> m = Premain.build(\"a.A,a.B\");
        assertThat(m.test(\"a.A\")).isTrue();
    }}

    @Test
    public void parse_returns_null_when_blank() {{
        assertThat(Premain.build({blank})).isNull();
    }}

    @Test
    public void parse_with_wildcard() {{
        Predicate<String> m = Premain.build(\"a.*\");
        assertThat(m.test(\"a.b.C\")).isTrue();
    }}
"
    ))
}

#[test]
fn a_test_reworded_by_one_name_word_that_kept_its_own_input_is_not_deleted() {
    both_ways(
        &[(PREMAIN, &premain(PREMAIN_BEFORE))],
        &writing(&[(PREMAIN, &premain_after("\"   \""))]),
        &assert_no_deleted_tests,
    );
    // The same names, but the blank input it checked is in no test any more.
    both_ways(
        &[(PREMAIN, &premain(PREMAIN_BEFORE))],
        &writing(&[(PREMAIN, &premain_after("\"\\t\""))]),
        &assert_one_deleted(
            PREMAIN,
            "went from 2 to 3, but `public void parse_returns_empty_when_blank()` was removed",
        ),
    );
}

const DOCS: &str = "spec/validations_spec.rb";

const DOCS_BEFORE: &str = "describe Validations do
  it 'keeps the type' do
    result = validate(type: Integer, documentation: { z: 1 })
    expect(result).to eq(type: Integer)
  end

  it 'removes the documentation' do
    result = validate(desc: 'x', type: Integer, documentation: { z: 1 })
    expect(result).to eq(type: Integer)
  end
end
";

fn docs_after(call: &str) -> String {
    format!(
        "describe Validations do
  it 'keeps the type' do
    result = validate(type: Integer, documentation: {{ z: 1 }})
    expect(result).to eq(type: Integer)
  end

  it 'stores no documented params' do
    result = validate({call})
    expect(result).to eq(type: Integer)
  end

  it 'does not mutate its input' do
    input = {{ summary: 'y' }}
    validate(input)
    expect(input).to eq(summary: 'y')
  end
end
"
    )
}

#[test]
fn a_test_rewritten_under_a_new_name_with_three_quarters_of_its_words_is_not_deleted() {
    // 10 of its 12 words are in the new test (not its `desc: 'x'`).
    both_ways(
        &[(DOCS, DOCS_BEFORE)],
        &writing(&[(
            DOCS,
            &docs_after("type: Integer, documentation: { z: 1 }, summary: 'y'"),
        )]),
        &assert_no_deleted_tests,
    );
    // 7 of 12: more than half, but neither its name nor its own words went along.
    both_ways(
        &[(DOCS, DOCS_BEFORE)],
        &writing(&[(DOCS, &docs_after("type: Integer, summary: 'y'"))]),
        &assert_one_deleted(
            DOCS,
            "went from 2 to 3, but `it 'removes the documentation' do` was removed",
        ),
    );
}

const VIEWS: &str = "tests/test_options.py";

const VIEWS_BEFORE: &str = r#"def test_get(app, client):
    app.add_url_rule("/", "index", index)
    rv = client.open("/", method="GET")
    assert rv.status_code == 200
    assert rv.data == b"hello"


def test_options_kwarg(app, client):
    app.add_url_rule("/", "index", index, provide_automatic_options=False)
    rv = client.open("/", method="GET")
    assert rv.status_code == 200
    assert rv.data == b"hello"
"#;

fn views_after(setting: &str) -> String {
    format!(
        r#"def test_get(app, client):
    app.add_url_rule("/", "index", index)
    rv = client.open("/", method="GET")
    assert rv.status_code == 200
    assert rv.data == b"hello"


def test_method_disable(app, client):
    view = index
    {setting}
    rv = client.options("/")
    assert "OPTIONS" not in app.url_map.methods(view)


def test_head(app, client):
    assert client.head("/").status_code == 200
"#
    )
}

#[test]
fn a_test_whose_own_words_all_went_into_one_new_test_is_not_deleted() {
    // `provide_automatic_options` and `False`, the words no other test held, are in the
    // new test, with a third of the removed test's words.
    both_ways(
        &[(VIEWS, VIEWS_BEFORE)],
        &writing(&[(
            VIEWS,
            &views_after("view.provide_automatic_options = False"),
        )]),
        &assert_no_deleted_tests,
    );
    // The option it turned off is in no test any more.
    both_ways(
        &[(VIEWS, VIEWS_BEFORE)],
        &writing(&[(VIEWS, &views_after("view.enabled = False"))]),
        &assert_one_deleted(
            VIEWS,
            "went from 2 to 3, but `def test_options_kwarg(app, client)` was removed",
        ),
    );
}

#[test]
fn a_file_whose_tests_were_all_rewritten_under_new_names_is_judged_by_its_count() {
    let java = "src/test/java/p/ProcessorTest.java";
    let before = premain(
        "    @Test
    public void testGeneric() {
        Class<?> type = infer(\"generic\");
        assertEquals(String.class, type);
    }

    @Test
    public void testRaw() {
        Class<?> type = infer(\"raw\");
        assertNull(type);
    }
",
    );
    let body = |kept: &str| {
        premain(&format!(
            "{kept}    @Test
    public void ensure_fields_can_be_inferred() {{
        assertTrue(processor.canInfer(field));
    }}

    @Test
    public void ensure_fields_cannot_be_inferred() {{
        assertFalse(processor.canInfer(other));
    }}

    @Test
    public void ensure_nested_fields_can_be_inferred() {{
        assertTrue(processor.canInfer(nested));
    }}
"
        ))
    };
    // `testGeneric` carried its body over under a new name: the file was rewritten whole.
    let renamed = "    @Test
    public void ensure_generic_fields_are_inferred() {
        Class<?> type = infer(\"generic\");
        assertEquals(String.class, type);
    }

";
    both_ways(
        &[(java, &before)],
        &writing(&[(java, &body(renamed))]),
        &assert_no_deleted_tests,
    );
    // No old test left its name or its body, nor its words, anywhere: new tests were
    // written around other code, and the old ones were removed.
    both_ways(
        &[(java, &before)],
        &writing(&[(java, &body(""))]),
        &assert_one_deleted(
            java,
            "but `public void testGeneric()`, `public void testRaw()` were removed",
        ),
    );
    // One test kept its name: the file was not rewritten whole, and `testRaw` is gone.
    let kept = "    @Test
    public void testGeneric() {
        Class<?> type = infer(\"generic\");
        assertEquals(String.class, type);
    }

";
    both_ways(
        &[(java, &before)],
        &writing(&[(java, &body(kept))]),
        &assert_one_deleted(java, "but `public void testRaw()` was removed"),
    );
}
