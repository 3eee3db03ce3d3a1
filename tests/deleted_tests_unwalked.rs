//! `deleted_tests` and a test file moved into a directory its runner never walks: a Go
//! package's test vendored under `vendor/` with the package (the original removed) keeps
//! its `_test.go` name, but `go test ./...` no longer runs it. Lookalikes: the same file
//! moved to another package directory, and a vendored test moved within `vendor/`, are
//! not deleted. Each case is judged uncommitted (against HEAD) and committed
//! (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways};

const GO_MOD: (&str, &str) = ("go.mod", "module github.com/labstack/echo\n\ngo 1.21\n");

const COOKIE: &str = r#"package echo

type Cookie struct {
	name  string
	value string
}

func (c *Cookie) Name() string { return c.name }

func (c *Cookie) Value() string { return c.value }
"#;

const COOKIE_TEST: &str = r#"package echo

import "testing"

func TestCookie(t *testing.T) {
	c := &Cookie{name: "session", value: "abc"}
	if c.Name() != "session" || c.Value() != "abc" {
		t.Fatal("cookie fields")
	}
}
"#;

fn moved(to: &str) -> impl Fn(&gitrepo::Repo) + '_ {
    move |r| {
        let dir = to.rsplit_once('/').map_or("", |(d, _)| d);
        std::fs::create_dir_all(r.join(dir)).unwrap();
        r.git(&["mv", "cookie.go", &format!("{dir}/cookie.go")]);
        r.git(&["mv", "cookie_test.go", to]);
    }
}

#[test]
fn a_test_file_moved_under_vendor_is_no_longer_run() {
    let to = "recipe/vendor/github.com/labstack/echo/cookie_test.go";
    both_ways(
        &[
            GO_MOD,
            ("cookie.go", COOKIE),
            ("cookie_test.go", COOKIE_TEST),
        ],
        &moved(to),
        &assert_one_deleted(
            "cookie_test.go",
            "in a directory its test runner never walks",
        ),
    );
}

#[test]
fn a_test_file_moved_to_another_package_still_runs() {
    both_ways(
        &[
            GO_MOD,
            ("cookie.go", COOKIE),
            ("cookie_test.go", COOKIE_TEST),
        ],
        &moved("engine/cookie_test.go"),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_vendored_test_moved_within_vendor_is_not_deleted() {
    // It never ran; moving it changes nothing that runs.
    let from = "vendor/github.com/old/echo/cookie_test.go";
    let to = "vendor/github.com/labstack/echo/cookie_test.go";
    both_ways(
        &[
            GO_MOD,
            ("vendor/github.com/old/echo/cookie.go", COOKIE),
            (from, COOKIE_TEST),
        ],
        &|r| {
            std::fs::create_dir_all(r.join("vendor/github.com/labstack/echo")).unwrap();
            r.git(&[
                "mv",
                "vendor/github.com/old/echo/cookie.go",
                "vendor/github.com/labstack/echo/cookie.go",
            ]);
            r.git(&["mv", from, to]);
        },
        &assert_no_deleted_tests,
    );
}
