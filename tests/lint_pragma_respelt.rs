//! A C# suppression attribute (`[UnconditionalSuppressMessage("Trimming", "IL2057")]`)
//! replaced at the same place by `#pragma warning disable IL2057` silences the same check
//! on the same code: a rewrite, not a new suppression (docs/guards.md, `disabled_lint`).
//! A pragma of another check, or one written elsewhere, is new.
//! Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

const CS: &str = "src/Settings/Conversions.cs";
const OLD: &str = "class Conversions\n{\n    static readonly Dictionary<Type, Func<string, object>> All = new()\n    {\n        { typeof(Type),\n            // Suppress this trimming warning; the users are annotated\n            [UnconditionalSuppressMessage(\"Trimming\", \"IL2057\")]\n            (s) => Type.GetType(s, throwOnError: true)!\n        },\n    };\n}\n";

#[test]
fn an_attribute_respelt_as_a_pragma_of_its_check_is_a_rewrite() {
    let new = "class Conversions\n{\n    static readonly Dictionary<Type, Func<string, object>> All = new()\n    {\n        { typeof(Type),\n            // Suppress this trimming warning; the users are annotated\n#pragma warning disable IL2057\n            s => Type.GetType(s, throwOnError: true)!\n#pragma warning restore IL2057\n        },\n    };\n}\n";
    both_ways(&[(CS, OLD)], &writing(&[(CS, new)]), &lint_lines(vec![]));
}

#[test]
fn a_pragma_of_another_check_or_in_another_place_is_new() {
    let other = "class Conversions\n{\n    static readonly Dictionary<Type, Func<string, object>> All = new()\n    {\n        { typeof(Type),\n            // Suppress this trimming warning; the users are annotated\n#pragma warning disable IL2057, IL2026\n            s => Type.GetType(s, throwOnError: true)!\n#pragma warning restore IL2057, IL2026\n        },\n    };\n}\n";
    both_ways(
        &[(CS, OLD)],
        &writing(&[(CS, other)]),
        &lint_lines(vec![(CS, 7)]),
    );
    let elsewhere = "class Conversions\n{\n#pragma warning disable IL2057\n    static Type Load(string s) => Type.GetType(s, throwOnError: true)!;\n#pragma warning restore IL2057\n\n    static readonly Dictionary<Type, Func<string, object>> All = new()\n    {\n        { typeof(Type),\n            // Suppress this trimming warning; the users are annotated\n            s => Load(s)\n        },\n    };\n}\n";
    both_ways(
        &[(CS, OLD)],
        &writing(&[(CS, elsewhere)]),
        &lint_lines(vec![(CS, 3)]),
    );
}
