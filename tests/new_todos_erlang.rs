//! Erlang files are read (docs/guards.md, "Languages"): `%` comments, and EDoc's `@todo`
//! tag opening one (`%% @todo ..`) is a TODO as a `TODO` word is. A `$%` character
//! literal, a `%` in a string or a quoted atom opens no comment, and `@todo` named in
//! prose is no tag. Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};

const ERL: &str = "src/plug_multipart.erl";
const HRL: &str = "include/plug.hrl";

#[test]
fn edoc_todo_tags_and_todo_comments_in_erlang_are_new_todos() {
    let erl = "-module(plug_multipart).\n-export([parse/1]).\n\n%% @todo Turns out this is unnecessary per RFC7578 4.7.\nparse(Bin) ->\n    %% TODO: handle the preamble\n    Bin.\n";
    both_ways(
        &[("README.md", "docs\n")],
        &writing(&[(ERL, erl), (HRL, "-define(LIMIT, 8). % FIXME measure it\n")]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_todos"),
                vec![
                    (HRL.to_string(), 1),
                    (ERL.to_string(), 4),
                    (ERL.to_string(), 6)
                ],
                "{mode}: {receipt}"
            );
        },
    );
}

#[test]
fn char_literals_strings_atoms_and_prose_in_erlang_are_not_todos() {
    let erl = "-module(plug_multipart).\n-export([parse/1]).\n\nparse(<<$%, Rest/binary>>) -> {'TODO %', Rest};\nparse(Bin) ->\n    Fmt = \"% TODO ~p\",\n    C = $\\\\, D = $\", io_lib:format(Fmt, [C, D, \"TODO\"]),\n    %% see the @todo list in the docs; @todos are EDoc's\n    Bin.\n";
    both_ways(
        &[("README.md", "docs\n")],
        &writing(&[(ERL, erl)]),
        &|_, receipt, mode| {
            assert_eq!(lines_of(receipt, "new_todos"), vec![], "{mode}: {receipt}");
        },
    );
}
