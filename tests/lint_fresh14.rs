//! C#'s `[UnconditionalSuppressMessage(..)]` silences an analyser warning as
//! `[SuppressMessage(..)]` does and also reaches the trimmer (IL warnings), so one added is a
//! suppression, also over a `#pragma warning disable` of the same id that stays: a pragma
//! does not reach the trimmer. An attribute that only names the type, or a comment about
//! it, is none. Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};

const CS: &str = "src/Conversions.cs";
const OLD: &str = "class Conversions\n{\n    static readonly Dictionary<Type, Func<string, object>> All = new()\n    {\n        { typeof(Type),\n#pragma warning disable IL2057\n            s => Type.GetType(s, throwOnError: true)!\n#pragma warning restore IL2057\n        },\n    };\n}\n";

#[test]
fn an_unconditional_suppress_message_added_over_a_kept_pragma_is_new() {
    let new = "class Conversions\n{\n    static readonly Dictionary<Type, Func<string, object>> All = new()\n    {\n        { typeof(Type),\n            [UnconditionalSuppressMessage(\"Trimming\", \"IL2057\",\n                Justification = \"users are annotated\")]\n#pragma warning disable IL2057\n            (s) => Type.GetType(s, throwOnError: true)!\n#pragma warning restore IL2057\n        },\n    };\n}\n";
    both_ways(&[(CS, OLD)], &writing(&[(CS, new)]), &|_, receipt, mode| {
        assert_eq!(
            lines_of(receipt, "disabled_lint"),
            vec![(CS.to_string(), 6)],
            "{mode}: {receipt}"
        );
    });
}

#[test]
fn a_type_named_like_the_attribute_or_a_comment_about_it_is_not_a_suppression() {
    let new = "class Conversions\n{\n    // see [UnconditionalSuppressMessage] in the docs\n    static readonly Type Kind = typeof(UnconditionalSuppressMessageAttribute);\n    static readonly Dictionary<Type, Func<string, object>> All = new()\n    {\n        { typeof(Type),\n#pragma warning disable IL2057\n            s => Type.GetType(s, throwOnError: true)!\n#pragma warning restore IL2057\n        },\n    };\n}\n";
    both_ways(&[(CS, OLD)], &writing(&[(CS, new)]), &|_, receipt, mode| {
        assert_eq!(
            lines_of(receipt, "disabled_lint"),
            vec![],
            "{mode}: {receipt}"
        );
    });
}
