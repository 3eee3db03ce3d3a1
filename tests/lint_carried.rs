//! Suppressions carried into another file with their code: the same suppression on code
//! edited on the way (a trailing `# type: ignore`, a Kotlin `@Suppress(..)` before its
//! expression) is the removed one moved; an own-line suppression over code that shares no
//! name with the removed one's is new; five `#[allow(unused)]` over items moved into a new
//! module that opens with `#![allow(unused)]` are that one attribute. Lookalikes: the same
//! suppression on unrelated code, an inner attribute over items that did not move. Real
//! repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of};

fn lint_lines(receipt: &serde_json::Value) -> Vec<(String, u64)> {
    lines_of(receipt, "disabled_lint")
}

const FILTERS: &str = concat!(
    "def contextfilter(f):\n",
    "    f.contextfilter = True  # type: ignore\n",
    "    return f\n",
    "\n",
    "\n",
    "def upper(s):\n",
    "    return s.upper()\n",
);

const FILTERS_AFTER: &str = concat!("def upper(s):\n", "    return s.upper()\n",);

#[test]
fn a_trailing_suppression_carried_into_another_file_with_its_statement_edited_is_not_new() {
    let utils = concat!(
        "def pass_context(f):\n",
        "    f.jinja_pass_arg = PassArg.context  # type: ignore\n",
        "    return f\n",
    );
    both_ways(
        &[("src/filters.py", FILTERS)],
        &|r| {
            r.write("src/filters.py", FILTERS_AFTER);
            r.write("src/utils.py", utils);
        },
        &|_, receipt, mode| {
            assert_eq!(lint_lines(receipt), vec![], "{mode}: {receipt}");
        },
    );
}

#[test]
fn the_same_trailing_suppression_on_unrelated_code_in_another_file_is_new() {
    let utils = concat!(
        "def load(path):\n",
        "    data = json.loads(path.read_text())  # type: ignore\n",
        "    return data\n",
    );
    both_ways(
        &[("src/filters.py", FILTERS)],
        &|r| {
            r.write("src/filters.py", FILTERS_AFTER);
            r.write("src/utils.py", utils);
        },
        &|_, receipt, mode| {
            assert_eq!(
                lint_lines(receipt),
                vec![("src/utils.py".to_string(), 2)],
                "{mode}: {receipt}"
            );
        },
    );
}

const KM: &str = concat!(
    "internal class Executable(val name: String, val rest: String) {\n",
    "  fun prefix(): String =\n",
    "    @Suppress(\"CanConvertToMultiDollarString\") \"$name\\$default($rest\"\n",
    "}\n",
);

const KM_AFTER: &str = "internal class Executable(val name: String, val rest: String)\n";

#[test]
fn a_kotlin_suppression_before_its_expression_moved_and_bound_to_a_name_is_not_new() {
    let invokable = concat!(
        "internal class Invokable(val name: String, val rest: String) {\n",
        "  fun defaultsSignature(): String {\n",
        "    @Suppress(\"CanConvertToMultiDollarString\") val prefix = \"$name\\$default($rest\"\n",
        "    return prefix\n",
        "  }\n",
        "}\n",
    );
    let km = "src/main/kotlin/a/KmExecutable.kt";
    let inv = "src/main/kotlin/a/Invokable.kt";
    both_ways(
        &[(km, KM)],
        &|r| {
            r.write(km, KM_AFTER);
            r.write(inv, invokable);
        },
        &|_, receipt, mode| {
            assert_eq!(lint_lines(receipt), vec![], "{mode}: {receipt}");
        },
    );
}

const FACTORY: &str = concat!(
    "class Factory {\n",
    "  fun bind(property: Any) {\n",
    "    @Suppress(\"UNCHECKED_CAST\")\n",
    "    bindingsByName[property.name] = Binding(\n",
    "      property as KProperty1<Any, Any?>,\n",
    "    )\n",
    "  }\n",
    "}\n",
);

const FACTORY_AFTER: &str = concat!(
    "class Factory {\n",
    "  fun bind(property: Any) {\n",
    "    bindingsByName[property.name] = Binding(property)\n",
    "  }\n",
    "}\n",
);

#[test]
fn an_own_line_suppression_over_code_sharing_nothing_with_the_removed_ones_is_new() {
    let types = concat!(
        "class KtConstructor {\n",
        "  @Suppress(\"UNCHECKED_CAST\")\n",
        "  fun <R> call(arguments: List<Any?>): R = executable.newInstance(arguments) as R\n",
        "}\n",
    );
    both_ways(
        &[("src/main/kotlin/a/Factory.kt", FACTORY)],
        &|r| {
            r.write("src/main/kotlin/a/Factory.kt", FACTORY_AFTER);
            r.write("src/main/kotlin/a/KtTypes.kt", types);
        },
        &|_, receipt, mode| {
            assert_eq!(
                lint_lines(receipt),
                vec![("src/main/kotlin/a/KtTypes.kt".to_string(), 2)],
                "{mode}: {receipt}"
            );
        },
    );
}

#[test]
fn an_own_line_suppression_moved_over_its_edited_code_is_still_not_new() {
    let binder = concat!(
        "class Binder {\n",
        "  fun bind(property: Any) {\n",
        "    @Suppress(\"UNCHECKED_CAST\")\n",
        "    bindingsByName[property.jsonName] = Binding(\n",
        "      property as KProperty1<Any, Any?>,\n",
        "    )\n",
        "  }\n",
        "}\n",
    );
    both_ways(
        &[("src/main/kotlin/a/Factory.kt", FACTORY)],
        &|r| {
            r.write("src/main/kotlin/a/Factory.kt", FACTORY_AFTER);
            r.write("src/main/kotlin/a/Binder.kt", binder);
        },
        &|_, receipt, mode| {
            assert_eq!(lint_lines(receipt), vec![], "{mode}: {receipt}");
        },
    );
}

const LIB: &str = concat!(
    "#[allow(unused)]\n",
    "macro_rules! trace { ($($x:tt)*) => () }\n",
    "\n",
    "#[allow(unused)]\n",
    "macro_rules! debug { ($($x:tt)*) => () }\n",
    "\n",
    "pub fn f() {}\n",
);

#[test]
fn outer_attributes_gathered_into_one_inner_attribute_over_the_module_of_their_items_are_not_new() {
    let macros = concat!(
        "#![allow(unused)]\n",
        "\n",
        "macro_rules! trace { ($($x:tt)*) => () }\n",
        "\n",
        "macro_rules! debug { ($($x:tt)*) => () }\n",
    );
    both_ways(
        &[("src/lib.rs", LIB)],
        &|r| {
            r.write(
                "src/lib.rs",
                "#[macro_use]\nmod log_macros;\n\npub fn f() {}\n",
            );
            r.write("src/log_macros.rs", macros);
        },
        &|_, receipt, mode| {
            assert_eq!(lint_lines(receipt), vec![], "{mode}: {receipt}");
        },
    );
}

#[test]
fn an_inner_attribute_over_a_new_module_whose_items_did_not_move_there_is_new() {
    let other = concat!(
        "#![allow(unused)]\n",
        "\n",
        "pub fn helper() -> u32 {\n",
        "    1\n",
        "}\n",
    );
    both_ways(
        &[("src/lib.rs", LIB)],
        &|r| {
            r.write("src/lib.rs", "mod other;\n\npub fn f() {}\n");
            r.write("src/other.rs", other);
        },
        &|_, receipt, mode| {
            assert_eq!(
                lint_lines(receipt),
                vec![("src/other.rs".to_string(), 1)],
                "{mode}: {receipt}"
            );
        },
    );
}

#[test]
fn the_same_trailing_pragma_on_another_kind_of_statement_sharing_names_is_new() {
    let auth = concat!(
        "def netrc_info(self):\n",
        "    try:\n",
        "        return netrc.netrc(self.path)\n",
        "    except (netrc.NetrcParseError, IOError):  # pragma: no cover\n",
        "        return None\n",
    );
    let test = concat!(
        "def test_netrc_parse_error():  # pragma: no cover\n",
        "    assert load_netrc('bad') is None\n",
    );
    both_ways(
        &[("httpx/_auth.py", auth)],
        &|r| {
            r.write("httpx/_auth.py", "def netrc_info(self):\n    return None\n");
            r.write("tests/test_auth.py", test);
        },
        &|_, receipt, mode| {
            assert_eq!(
                lint_lines(receipt),
                vec![("tests/test_auth.py".to_string(), 1)],
                "{mode}: {receipt}"
            );
        },
    );
}

#[test]
fn a_trailing_suppression_taken_off_a_line_that_stayed_is_not_moved_by_a_like_one_elsewhere() {
    let gzip = concat!(
        "async def send(message):\n",
        "    if message_type == \"start\":\n",
        "        pass\n",
        "    elif message_type == \"body\":  # pragma: no branch\n",
        "        pass\n",
    );
    let gzip_after = gzip.replace("  # pragma: no branch", "");
    let test = concat!(
        "async def send(message):\n",
        "    if message[\"type\"] == \"start\":\n",
        "        pass\n",
        "    elif message_type == \"pathsend\":  # pragma: no branch\n",
        "        pass\n",
    );
    both_ways(
        &[("app/gzip.py", gzip)],
        &|r| {
            r.write("app/gzip.py", &gzip_after);
            r.write("tests/test_responses.py", test);
        },
        &|_, receipt, mode| {
            assert_eq!(
                lint_lines(receipt),
                vec![("tests/test_responses.py".to_string(), 4)],
                "{mode}: {receipt}"
            );
        },
    );
}
