//! `new_todos` reads the `//` and `/* */` comments of JSON files whose tools allow them:
//! TypeScript's `tsconfig*.json`, `jsconfig.json`, `.vscode/*.json`, `*.jsonc`. A TODO
//! copied into another project config is unfinished work there too. Plain JSON holds no
//! comments: a `"// TODO"` string in `package.json` or a data file is data. Real
//! repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};

const ROOT: &str = "{\n  \"compilerOptions\": {\n    \"strict\": true\n  }\n}\n";
const WITH_TODO: &str = "{\n  \"compilerOptions\": {\n    \"strict\": true,\n    // TODO: Enable these when we can:\n    // \"noUncheckedIndexedAccess\": true,\n    /* FIXME drop after the upgrade */ \"skipLibCheck\": true\n  }\n}\n";

#[test]
fn todos_in_comments_of_json_with_comments_are_new() {
    both_ways(
        &[("tsconfig.json", ROOT)],
        &writing(&[
            ("test/tsconfig.json", WITH_TODO),
            (
                ".vscode/settings.json",
                "{\n  // TODO pick a formatter\n}\n",
            ),
            ("a.jsonc", "{ \"x\": 1 } // XXX: wrong\n"),
        ]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_todos"),
                vec![
                    (".vscode/settings.json".to_string(), 2),
                    ("a.jsonc".to_string(), 1),
                    ("test/tsconfig.json".to_string(), 4),
                    ("test/tsconfig.json".to_string(), 6),
                ],
                "{mode}: {receipt}"
            );
        },
    );
}

#[test]
fn todos_in_strings_of_json_with_comments_or_in_plain_json_are_data() {
    both_ways(
        &[("tsconfig.json", ROOT)],
        &writing(&[
            (
                "tsconfig.json",
                "{\n  \"compilerOptions\": {\n    \"strict\": true\n  },\n  \"exclude\": [\"TODO/**\", \"a//TODO\"]\n}\n",
            ),
            ("package.json", "{\n  \"//\": \"TODO: publish\",\n  \"name\": \"x\"\n}\n"),
            ("fixtures/data.json", "{ \"note\": \"// TODO\" }\n"),
        ]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_todos"),
                vec![],
                "{mode}: {receipt}"
            );
        },
    );
}
