//! A Java or Kotlin file that declares the entry point `main` is a program: what it prints
//! is its output, not a `debug_artifacts` finding. The same print in a library class
//! stays one. Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, no_debug_artifacts, writing};

const MAIN: &str = "module-tests/src/main/java/app/Main.java";
const LIB: &str = "src/main/java/lib/Client.java";

#[test]
fn a_program_prints_its_output() {
    let old = "package app;\n\npublic final class Main {\n  public static void main(String[] args) {\n    run();\n  }\n}\n";
    let new = "package app;\n\npublic final class Main {\n  public static void main(String[] args) {\n    System.out.println(run());\n  }\n}\n";
    both_ways(
        &[(MAIN, old)],
        &writing(&[(MAIN, new)]),
        &no_debug_artifacts,
    );
}

#[test]
fn a_library_class_printing_is_a_leftover() {
    let old = "package lib;\n\npublic final class Client {\n  // See Main for a program: public static void main(String[] args)\n  String call() {\n    return send();\n  }\n}\n";
    let new = "package lib;\n\npublic final class Client {\n  // See Main for a program: public static void main(String[] args)\n  String call() {\n    System.out.println(\"here\");\n    return send();\n  }\n}\n";
    both_ways(
        &[(LIB, old)],
        &writing(&[(LIB, new)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![(LIB.to_string(), 6)],
                "{mode}: {receipt}"
            );
        },
    );
}
