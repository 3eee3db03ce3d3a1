//! `deleted_tests` and tests that still run, or never checked anything: an empty Go or
//! Rust test removed, a test demoted to a plain function that a test of its file calls,
//! and a test that kept its name in another file of the change even when a lookalike of
//! it arrived elsewhere. Each lookalike that really loses a test still is one. Each case
//! is judged uncommitted (against HEAD) and committed (`--against HEAD^`). Real
//! repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, both_ways, deleted, Repo};
use serde_json::Value;

fn assert_deleted<'a>(found: &'a [(&'a str, &'a str)]) -> impl Fn(Option<i32>, &Value, &str) + 'a {
    move |code, receipt, mode| {
        let got = deleted(receipt);
        assert_eq!(got.len(), found.len(), "{mode}: {got:?}");
        for ((path, message), (want, says)) in got.iter().zip(found) {
            assert_eq!(path, want, "{mode}");
            assert!(message.contains(says), "{mode}: {message}");
        }
        assert_eq!(code, Some(3), "{mode}");
    }
}

fn writing<'a>(files: &'a [(&'a str, Option<&'a str>)]) -> impl Fn(&Repo) + 'a {
    move |r| {
        for (path, body) in files {
            match body {
                Some(text) => r.write(path, text),
                None => r.remove(path),
            }
        }
    }
}

const ROUTER: &str = "router_test.go";

const KEPT: &str = "package echo\n\nimport \"testing\"\n\nfunc TestRouterStatic(t *testing.T) {\n\tr := NewRouter()\n\tif r.Find(\"/a\") == nil {\n\t\tt.Fatal(\"no route\")\n\t}\n}\n";

#[test]
fn an_empty_go_test_removed_checked_nothing() {
    let before = format!("{KEPT}\nfunc TestName(t *testing.T) {{\n\n}}\n");
    both_ways(
        &[(ROUTER, &before)],
        &writing(&[(ROUTER, Some(KEPT))]),
        &assert_no_deleted_tests,
    );
    let one_line = format!("{KEPT}\nfunc TestName(t *testing.T) {{}}\n");
    both_ways(
        &[(ROUTER, &one_line)],
        &writing(&[(ROUTER, Some(KEPT))]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_go_test_of_one_statement_removed_is_deleted() {
    let before = format!("{KEPT}\nfunc TestNew(t *testing.T) {{\n\t_ = NewRouter()\n}}\n");
    both_ways(
        &[(ROUTER, &before)],
        &writing(&[(ROUTER, Some(KEPT))]),
        &assert_deleted(&[(ROUTER, "tests in `router_test.go` dropped from 2 to 1")]),
    );
}

const RELOAD: &str = "tests/reload.rs";

const TWO: &str = "use std::sync::atomic::{AtomicUsize, Ordering};\n\n#[test]\nfn reload_handle() {\n    let calls = AtomicUsize::new(0);\n    reload(&calls);\n    assert_eq!(calls.load(Ordering::SeqCst), 1);\n}\n\n#[test]\nfn reload_filter() {\n    let calls = AtomicUsize::new(0);\n    filter(&calls);\n    assert_eq!(calls.load(Ordering::SeqCst), 2);\n}\n";

/// `#[test]` moved off both onto a new test that runs them one after the other.
fn serial(caller: &str) -> String {
    TWO.replace("#[test]\n", "").replace(
        "\nfn reload_handle() {",
        &format!("\n{caller}\n\nfn reload_handle() {{"),
    )
}

#[test]
fn tests_demoted_to_functions_a_new_test_calls_still_run() {
    let after = serial(
        "#[test]\nfn run_all_reload_tests() {\n    reload_handle();\n    reload_filter();\n}",
    );
    both_ways(
        &[(RELOAD, TWO)],
        &writing(&[(RELOAD, Some(&after))]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_demoted_test_nothing_calls_or_only_a_helper_calls_is_deleted() {
    // The new test runs one of the two; the other is dead code now.
    let after = serial("#[test]\nfn run_reload_tests() {\n    reload_handle();\n}");
    both_ways(
        &[(RELOAD, TWO)],
        &writing(&[(RELOAD, Some(&after))]),
        &assert_deleted(&[(
            RELOAD,
            "dropped from 2 to 1 (1 still run by a test of the file",
        )]),
    );
    // Called, but by a plain function no test runs.
    let after = serial(
        "#[test]\nfn run_reload_tests() {\n    reload_handle();\n}\n\nfn unused() {\n    reload_filter();\n}",
    );
    both_ways(
        &[(RELOAD, TWO)],
        &writing(&[(RELOAD, Some(&after))]),
        &assert_deleted(&[(RELOAD, "dropped from 2 to 1")]),
    );
}

/// A test of a static file route; `{who}` is where it is mounted.
fn file_fs(name: &str, who: &str) -> String {
    format!("func {name}(t *testing.T) {{\n\te := New()\n\t{who}\n\trec := serve(e, \"/walle\")\n\tassert.Equal(t, 200, rec.Code)\n\tassert.NotEmpty(t, rec.Body)\n}}\n")
}

fn go(tests: &[String]) -> String {
    format!("package echo\n\nimport \"testing\"\n\n{}", tests.join("\n"))
}

fn plain(name: &str, check: &str) -> String {
    format!("func {name}(t *testing.T) {{\n\tassert.True(t, {check})\n}}\n")
}

#[test]
fn a_test_that_kept_its_name_elsewhere_is_not_taken_by_a_lookalike() {
    // Both `*_fs_test.go` files deleted: `b`'s test moved by name into `b_test.go`, `a`'s
    // went nowhere, though it reads much like `b`'s. The deletion is `a`'s: a lookalike
    // of `b`'s test does not take its place.
    let a_fs = file_fs(
        "TestA_FileFS",
        "e.FileFS(\"/walle\", \"walle.png\", fixtures)",
    );
    let b_fs = file_fs(
        "TestB_FileFS",
        "g := e.Group(\"/walle\")\n\tg.FileFS(\"\", \"walle.png\", fixtures)",
    );
    let b_before = go(&[plain("TestB_One", "one()")]);
    let b_after = go(&[plain("TestB_One", "one()"), b_fs.clone()]);
    let (a_fs_file, b_fs_file) = (go(&[a_fs]), go(&[b_fs]));
    both_ways(
        &[
            ("a_fs_test.go", &a_fs_file),
            ("b_fs_test.go", &b_fs_file),
            ("b_test.go", &b_before),
        ],
        &writing(&[
            ("a_fs_test.go", None),
            ("b_fs_test.go", None),
            ("b_test.go", Some(&b_after)),
        ]),
        &assert_deleted(&[("a_fs_test.go", "`a_fs_test.go` was deleted with 1 test:")]),
    );
}

#[test]
fn a_test_moved_by_name_into_a_file_whose_count_fell_is_not_deleted() {
    // `a_fs_test.go` deleted, its test now in `a_test.go`, which lost two of its own: the
    // loss is reported there, not as a deleted `a_fs_test.go`.
    let a_fs = file_fs(
        "TestA_FileFS",
        "e.FileFS(\"/walle\", \"walle.png\", fixtures)",
    );
    let a_before = go(&[
        plain("TestA_One", "one()"),
        plain("TestA_Two", "two()"),
        plain("TestA_Three", "three()"),
    ]);
    let a_after = go(&[plain("TestA_One", "one()"), a_fs.clone()]);
    let a_fs_file = go(&[a_fs]);
    both_ways(
        &[("a_fs_test.go", &a_fs_file), ("a_test.go", &a_before)],
        &writing(&[("a_fs_test.go", None), ("a_test.go", Some(&a_after))]),
        &assert_deleted(&[(
            "a_test.go",
            "dropped from 3 to 2 (1 more arrived by name from other files",
        )]),
    );
}

#[test]
fn a_move_into_a_file_whose_count_fell_leaves_that_files_own_loss_reported() {
    // `a_test.go` took `a_fs_test.go`'s test and lost two of its own; one of those moved
    // on by name to `c_test.go`. The other is gone: the fall of one hides two losses.
    let a_fs = plain("TestA_FileFS", "fs()");
    let a_before = go(&[
        plain("TestA_One", "one()"),
        plain("TestA_Two", "two()"),
        plain("TestA_Three", "three()"),
    ]);
    let a_after = go(&[plain("TestA_One", "one()"), a_fs.clone()]);
    let c_before = go(&[plain("TestC_One", "one()")]);
    let c_after = go(&[plain("TestC_One", "one()"), plain("TestA_Two", "two()")]);
    let a_fs_file = go(&[a_fs]);
    both_ways(
        &[
            ("a_fs_test.go", &a_fs_file),
            ("a_test.go", &a_before),
            ("c_test.go", &c_before),
        ],
        &writing(&[
            ("a_fs_test.go", None),
            ("a_test.go", Some(&a_after)),
            ("c_test.go", Some(&c_after)),
        ]),
        &assert_deleted(&[(
            "a_test.go",
            "dropped from 3 to 2 (1 more arrived by name from other files, hiding as many removed here, 1 moved to `c_test.go`)",
        )]),
    );
}

#[test]
fn a_removed_test_whose_first_statement_another_test_shares_is_deleted() {
    // `@Test` on the removed test's own line: the line after it is a statement, which the
    // kept test also holds, and in which `new Reader(` looks like a call of a function.
    let path = "src/test/java/ReaderTest.java";
    let first = "    @Test\n    public void first() {\n        Reader r = new Reader(\"a\");\n        assertTrue(r.ok());\n    }\n";
    let second = "    @Test public void second() {\n        Reader r = new Reader(\"a\");\n        assertFalse(r.empty());\n    }\n";
    let before = format!("class ReaderTest {{\n{first}\n{second}}}\n");
    let after = format!("class ReaderTest {{\n{first}}}\n");
    both_ways(
        &[(path, &before)],
        &writing(&[(path, Some(&after))]),
        &assert_deleted(&[(
            path,
            "tests in `src/test/java/ReaderTest.java` dropped from 2 to 1: restore",
        )]),
    );
}
