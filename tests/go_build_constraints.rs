//! A Go test file that ran and is given a build constraint needing a custom tag
//! (`//go:build integration`, `// +build ignore`) is skipped whole by a plain
//! `go test ./...`: a new skip, though no skip marker is written. A platform gate, a new
//! file written behind a tag, and a file already behind one are not. Each change is
//! judged uncommitted and committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, guard, lines_of, writing};
use serde_json::Value;

const TEST: &str = "store/store_test.go";
const BODY: &str = "package store\n\nimport \"testing\"\n\nfunc TestPut(t *testing.T) {\n\tif Put(1) != nil {\n\t\tt.Fatal(\"put failed\")\n\t}\n}\n";

fn skipped_at(line: u64) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        assert_eq!(
            lines_of(receipt, "new_skips"),
            vec![(TEST.to_string(), line)],
            "{mode}: {receipt}"
        );
        let message = guard(receipt, "new_skips")["findings"][0]["message"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(message.contains("go test ./..."), "{mode}: {message}");
        assert!(message.contains("1 test(s)"), "{mode}: {message}");
        assert_eq!(code, Some(3), "{mode}");
    }
}

fn nothing(code: Option<i32>, receipt: &Value, mode: &str) {
    assert_eq!(lines_of(receipt, "new_skips"), vec![], "{mode}: {receipt}");
    assert_eq!(code, Some(0), "{mode}");
}

#[test]
fn a_custom_tag_put_on_a_test_file_that_ran_is_a_new_skip() {
    let tagged = format!("//go:build integration\n\n{BODY}");
    both_ways(
        &[(TEST, BODY)],
        &writing(&[(TEST, &tagged)]),
        &skipped_at(1),
    );
    let legacy = format!("// Copyright the authors.\n\n// +build ignore\n\n{BODY}");
    both_ways(
        &[(TEST, BODY)],
        &writing(&[(TEST, &legacy)]),
        &skipped_at(3),
    );
}

#[test]
fn a_platform_gate_a_new_tagged_file_and_a_file_already_tagged_are_not() {
    let gated = format!("//go:build !windows\n\n{BODY}");
    both_ways(&[(TEST, BODY)], &writing(&[(TEST, &gated)]), &nothing);
    let new_file = format!("//go:build integration\n\n{BODY}");
    both_ways(
        &[(TEST, BODY)],
        &writing(&[(
            "store/it_test.go",
            &new_file.replace("TestPut", "TestPutIT"),
        )]),
        &nothing,
    );
    let before = format!("// +build integration\n\n{BODY}");
    let after = format!("//go:build integration\n// +build integration\n\n{BODY}");
    both_ways(&[(TEST, &before)], &writing(&[(TEST, &after)]), &nothing);
}
