//! `new_todos` treats the words of unfinished work (`TODO`, `FIXME`, `XXX`, `HACK`) as one
//! marker: a TODO reworded where it stood as a FIXME that still says the same thing is not
//! new work, while a FIXME about something else is. Each case is judged uncommitted
//! (against HEAD) and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;
mod support;

use gitrepo::{guards_only as check, lines_of, Repo};
use serde_json::Value;

fn todos(receipt: &Value) -> Vec<(String, u64)> {
    lines_of(receipt, "new_todos")
}

const UTILS: &str = "module Utils
  # The maximum number of parts a request can contain.
  # TODO: remove MULTIPART_LIMIT, it is not documented and was introduced by error.
  LIMIT = (ENV['MULTIPART_PART_LIMIT'] || ENV['MULTIPART_LIMIT'] || 128).to_i
end
";

/// Write `after` over the TODO line of `UTILS`, then judge it both ways.
fn reword(after: &str, verify: &dyn Fn(Option<i32>, &Value, &str)) {
    let r = Repo::with(&[("lib/utils.rb", UTILS), (".gitignore", ".loopgate/\n")]);
    let todo =
        "  # TODO: remove MULTIPART_LIMIT, it is not documented and was introduced by error.\n";
    assert!(UTILS.contains(todo));
    r.write("lib/utils.rb", &UTILS.replace(todo, after));
    let (code, receipt) = check(&r, &[]);
    verify(code, &receipt, "uncommitted, against HEAD");
    r.commit("the change");
    let (code, receipt) = check(&r, &["--against", "HEAD^"]);
    verify(code, &receipt, "committed, --against HEAD^");
}

#[test]
fn a_todo_reworded_as_a_fixme_where_it_stood_is_not_new() {
    reword(
        "  # FIXME: MULTIPART_LIMIT was introduced by mistake and it will be removed in 1.7.0\n",
        &|code, receipt, mode| {
            assert_eq!(todos(receipt), [], "{mode}: {receipt}");
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

#[test]
fn a_todo_replaced_by_a_fixme_about_something_else_is_new() {
    reword(
        "  # FIXME: the parser leaks file handles on a malformed part\n",
        &|code, receipt, mode| {
            assert_eq!(
                todos(receipt),
                [("lib/utils.rb".to_string(), 3)],
                "{mode}: {receipt}"
            );
            // `new_todos` warns by default: reported, not blocking.
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}
