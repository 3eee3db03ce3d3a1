//! `printStackTrace()` in a Java or Kotlin catch of `Throwable` is a library's last-resort
//! report of an error it must swallow (a user's callback threw), written on purpose; the
//! same call in a catch of one checked exception is the stub an IDE leaves, a
//! `debug_artifacts` finding. Real repositories, the real binary, judged uncommitted and
//! committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};

const CALL: &str = "src/main/java/lib/Call.java";
const OLD: &str =
    "package lib;\n\nclass Call {\n  void run(Callback callback) {\n    callback.done();\n  }\n}\n";

fn reported(new: &str, expected: &[(&str, u64)]) {
    let expected: Vec<(String, u64)> = expected.iter().map(|(p, n)| (p.to_string(), *n)).collect();
    both_ways(
        &[(CALL, OLD)],
        &writing(&[(CALL, new)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                expected,
                "{mode}: {receipt}"
            );
        },
    );
}

#[test]
fn a_trace_printed_where_every_error_of_a_callback_is_swallowed_is_deliberate() {
    let new = "package lib;\n\nclass Call {\n  void run(Callback callback) {\n    try {\n      callback.done();\n    } catch (Throwable t) {\n      t.printStackTrace();\n    }\n  }\n}\n";
    reported(new, &[]);
    let qualified = new.replace("catch (Throwable t)", "catch (final java.lang.Throwable t)");
    reported(&qualified, &[]);
}

#[test]
fn a_trace_printed_in_a_catch_of_one_exception_is_a_leftover() {
    let new = "package lib;\n\nclass Call {\n  void run(Callback callback) {\n    try {\n      callback.done();\n    } catch (IOException e) {\n      e.printStackTrace();\n    }\n  }\n}\n";
    reported(new, &[(CALL, 8)]);
    // A `Throwable` named elsewhere on the line, or a catch closed before the call, is not
    // the enclosing catch.
    let after = "package lib;\n\nclass Call {\n  void run(Callback callback) {\n    try {\n      callback.done();\n    } catch (Throwable t) {\n      failed = t;\n    }\n    failed.printStackTrace();\n  }\n}\n";
    reported(after, &[(CALL, 10)]);
    let named = "package lib;\n\nclass Call {\n  void run(Callback callback) {\n    try {\n      callback.done();\n    } catch (IOException e) { // not a Throwable catch\n      e.printStackTrace();\n    }\n  }\n}\n";
    reported(named, &[(CALL, 8)]);
}
