//! Which language a file is written in (by its extension) and how that language writes
//! comments and string literals. Guards only look at files of a language they know: a
//! `.skip` in a Markdown file means nothing.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// JavaScript and TypeScript, including JSX/TSX and the module variants.
    Js,
    Python,
    Go,
    Rust,
    Java,
    Kotlin,
    Ruby,
    Elixir,
    CSharp,
    Php,
    Swift,
    /// C, C++, Objective-C.
    C,
    Shell,
    /// YAML and TOML: configuration, where only unfinished-work notes in `#` comments are
    /// line markers (a `# noqa` there is data); suppressions written in configuration are
    /// read by its parsers (`config_lint`).
    Data,
    /// CSS: `/* */` comments only (`//` is no comment in plain CSS).
    Css,
    /// SCSS and Less: CSS with `//` line comments as well.
    Scss,
    /// Erlang: `%` comments (EDoc's `%% @todo` among them), `$c` character literals.
    Erlang,
    /// JSON that holds comments (`tsconfig.json`, `.vscode/settings.json`, `*.jsonc`):
    /// configuration like [`Lang::Data`], its notes in `//` and `/* */` comments.
    Jsonc,
}

/// A string literal form: what opens it, what closes it, whether a backslash escapes the
/// next character, and whether it may run past the end of a line.
#[derive(Debug, Clone, Copy)]
pub struct Quote {
    pub open: &'static str,
    pub close: &'static str,
    pub escapes: bool,
    pub multiline: bool,
}

const fn q(open: &'static str, close: &'static str, escapes: bool, multiline: bool) -> Quote {
    Quote {
        open,
        close,
        escapes,
        multiline,
    }
}

/// How a language writes heredocs, whose body lines are string data up to a line holding
/// the terminator word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heredocs {
    /// `<<~EOS`, `<<-EOS`, `<<EOS` (bare form only with an upper-case or quoted word, so
    /// `class << self` and `a << b` stay code); `'EOS'`, `"EOS"` quoted.
    Ruby,
    /// `<<EOF`, `<<-EOF`, `<< 'EOF'`, `<<"EOF"`, `<<\EOF` (not `<<<`).
    Shell,
    /// `<<<EOT`, `<<<"EOT"`, `<<<'EOT'` (nowdoc); the closing word may be indented and
    /// followed by code (`EOT;`).
    Php,
}

/// Comment and string syntax of one language.
#[derive(Debug, Clone, Copy)]
pub struct Syntax {
    pub line_comments: &'static [&'static str],
    /// Open, close, and whether block comments nest (Rust, Swift, Kotlin).
    pub block_comment: Option<(&'static str, &'static str, bool)>,
    /// Longest openers first, so `"""` wins over `"`.
    pub quotes: &'static [Quote],
    /// PHP: `#[` opens an attribute, not a comment.
    pub hash_bracket_is_code: bool,
    /// Shell: `#` starts a comment only at the start of a word (`$#` is not one).
    pub hash_needs_word_start: bool,
    /// Rust: `r#"..."#` raw strings and `'x'` char literals next to `'a` lifetimes.
    pub rust_literals: bool,
    /// Extra characters allowed in identifiers (`$` in JS and PHP).
    pub ident_extra: &'static [char],
    pub heredocs: Option<Heredocs>,
    /// JS and Ruby: `/.../` regex literals, whose quotes and `#` are not strings or comments.
    pub regex_literals: bool,
    /// Ruby: `%r{...}`, `%w[...]`, `%(...)` literals, whose quotes are not strings.
    pub percent_literals: bool,
    /// Erlang: `$x` is the character `x` (`$%`, `$"`, `$\n`), not a comment or a quote.
    pub dollar_chars: bool,
}

const SLASHES: &[&str] = &["//"];
const HASH: &[&str] = &["#"];
const C_BLOCK: Option<(&str, &str, bool)> = Some(("/*", "*/", false));
const NESTED_BLOCK: Option<(&str, &str, bool)> = Some(("/*", "*/", true));

const BASE: Syntax = Syntax {
    line_comments: SLASHES,
    block_comment: C_BLOCK,
    quotes: &[q("\"", "\"", true, false), q("'", "'", true, false)],
    hash_bracket_is_code: false,
    hash_needs_word_start: false,
    rust_literals: false,
    ident_extra: &[],
    heredocs: None,
    regex_literals: false,
    percent_literals: false,
    dollar_chars: false,
};

/// Stylesheet strings: quoted ones stay on their line (a newline must be escaped), and an
/// unquoted `url(..)` is one too, so the `//` of `url(//cdn.example/a.png)` opens no
/// comment.
const CSS_QUOTES: &[Quote] = &[
    q("\"", "\"", true, false),
    q("'", "'", true, false),
    q("url(", ")", true, false),
];

impl Lang {
    /// The language of a repository path, from its extension; `None` for anything else
    /// (documentation, data, unknown code), which no marker guard inspects.
    pub fn from_path(path: &str) -> Option<Lang> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if is_jsonc(path, name) {
            return Some(Lang::Jsonc);
        }
        let (_, ext) = name.rsplit_once('.')?;
        let lang = match ext.to_ascii_lowercase().as_str() {
            "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => Lang::Js,
            "py" | "pyi" => Lang::Python,
            "go" => Lang::Go,
            "rs" => Lang::Rust,
            "java" => Lang::Java,
            "kt" | "kts" => Lang::Kotlin,
            "rb" | "rake" => Lang::Ruby,
            "ex" | "exs" => Lang::Elixir,
            "cs" => Lang::CSharp,
            "php" => Lang::Php,
            "swift" => Lang::Swift,
            "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "m" | "mm" => Lang::C,
            "sh" | "bash" | "zsh" => Lang::Shell,
            "css" => Lang::Css,
            "scss" | "less" => Lang::Scss,
            "erl" | "hrl" => Lang::Erlang,
            "yml" | "yaml" | "toml" => Lang::Data,
            _ => return None,
        };
        Some(lang)
    }

    pub fn syntax(self) -> Syntax {
        match self {
            Lang::Js => {
                const {
                    Syntax {
                        quotes: &[
                            q("\"", "\"", true, false),
                            q("'", "'", true, false),
                            q("`", "`", true, true),
                        ],
                        ident_extra: &['$'],
                        regex_literals: true,
                        ..BASE
                    }
                }
            }
            Lang::Python => {
                const {
                    Syntax {
                        line_comments: HASH,
                        block_comment: None,
                        quotes: &[
                            q("\"\"\"", "\"\"\"", true, true),
                            q("'''", "'''", true, true),
                            q("\"", "\"", true, false),
                            q("'", "'", true, false),
                        ],
                        ..BASE
                    }
                }
            }
            Lang::Go => {
                const {
                    Syntax {
                        quotes: &[
                            q("\"", "\"", true, false),
                            q("'", "'", true, false),
                            q("`", "`", false, true),
                        ],
                        ..BASE
                    }
                }
            }
            Lang::Rust => {
                const {
                    Syntax {
                        block_comment: NESTED_BLOCK,
                        // `'` is handled by `rust_literals` (char literal or lifetime).
                        quotes: &[q("\"", "\"", true, true)],
                        rust_literals: true,
                        ..BASE
                    }
                }
            }
            Lang::Java => {
                const {
                    Syntax {
                        quotes: &[
                            q("\"\"\"", "\"\"\"", true, true),
                            q("\"", "\"", true, false),
                            q("'", "'", true, false),
                        ],
                        ..BASE
                    }
                }
            }
            Lang::Kotlin => {
                const {
                    Syntax {
                        block_comment: NESTED_BLOCK,
                        quotes: &[
                            q("\"\"\"", "\"\"\"", false, true),
                            q("\"", "\"", true, false),
                            q("'", "'", true, false),
                        ],
                        ..BASE
                    }
                }
            }
            Lang::Ruby => {
                const {
                    Syntax {
                        line_comments: HASH,
                        block_comment: None,
                        quotes: &[
                            q("\"", "\"", true, true),
                            q("'", "'", true, true),
                            q("`", "`", true, true),
                        ],
                        heredocs: Some(Heredocs::Ruby),
                        regex_literals: true,
                        percent_literals: true,
                        ..BASE
                    }
                }
            }
            Lang::Elixir => {
                const {
                    Syntax {
                        line_comments: HASH,
                        block_comment: None,
                        quotes: &[
                            q("\"\"\"", "\"\"\"", true, true),
                            q("'''", "'''", true, true),
                            q("\"", "\"", true, true),
                            q("'", "'", true, true),
                        ],
                        ..BASE
                    }
                }
            }
            Lang::CSharp => {
                const {
                    Syntax {
                        quotes: &[
                            q("\"\"\"", "\"\"\"", false, true),
                            q("@\"", "\"", false, true),
                            q("\"", "\"", true, false),
                            q("'", "'", true, false),
                        ],
                        ..BASE
                    }
                }
            }
            Lang::Php => {
                const {
                    Syntax {
                        line_comments: &["//", "#"],
                        quotes: &[q("\"", "\"", true, true), q("'", "'", true, true)],
                        hash_bracket_is_code: true,
                        ident_extra: &['$'],
                        heredocs: Some(Heredocs::Php),
                        ..BASE
                    }
                }
            }
            Lang::Swift => {
                const {
                    Syntax {
                        block_comment: NESTED_BLOCK,
                        quotes: &[
                            q("\"\"\"", "\"\"\"", true, true),
                            q("\"", "\"", true, false),
                        ],
                        ..BASE
                    }
                }
            }
            Lang::C => BASE,
            Lang::Shell => {
                const {
                    Syntax {
                        line_comments: HASH,
                        block_comment: None,
                        quotes: &[q("\"", "\"", true, true), q("'", "'", false, true)],
                        hash_needs_word_start: true,
                        heredocs: Some(Heredocs::Shell),
                        ..BASE
                    }
                }
            }
            // `#` opens a comment after a space (YAML; TOML allows it anywhere, rarely
            // used). Quotes stay on their line but TOML's triple ones: an apostrophe in a
            // plain YAML value must not swallow the lines after it.
            Lang::Data => {
                const {
                    Syntax {
                        line_comments: HASH,
                        block_comment: None,
                        quotes: &[
                            q("\"\"\"", "\"\"\"", true, true),
                            q("'''", "'''", false, true),
                            q("\"", "\"", true, false),
                            q("'", "'", false, false),
                        ],
                        hash_needs_word_start: true,
                        ..BASE
                    }
                }
            }
            Lang::Css => {
                const {
                    Syntax {
                        line_comments: &[],
                        quotes: CSS_QUOTES,
                        ..BASE
                    }
                }
            }
            Lang::Scss => {
                const {
                    Syntax {
                        quotes: CSS_QUOTES,
                        ..BASE
                    }
                }
            }
            // Strings may hold newlines; `'..'` is a quoted atom; `\"\"\"` the triple-quoted
            // strings of OTP 27.
            Lang::Erlang => {
                const {
                    Syntax {
                        line_comments: &["%"],
                        block_comment: None,
                        quotes: &[
                            q("\"\"\"", "\"\"\"", false, true),
                            q("\"", "\"", true, true),
                            q("'", "'", true, false),
                        ],
                        dollar_chars: true,
                        ..BASE
                    }
                }
            }
            Lang::Jsonc => {
                const {
                    Syntax {
                        quotes: &[q("\"", "\"", true, false), q("'", "'", true, false)],
                        ..BASE
                    }
                }
            }
        }
    }

    /// Configuration, not code: only unfinished-work notes are read in it.
    pub fn is_data(self) -> bool {
        matches!(self, Lang::Data | Lang::Jsonc)
    }

    /// Whether `a->b` and `a::b` join names into one member chain, as `a.b` does.
    pub fn arrow_chains(self) -> bool {
        matches!(self, Lang::Php | Lang::C)
    }
}

/// JSON files whose tools read comments in them: TypeScript's and jsconfig projects,
/// ESLint's and Oxlint's JSON configuration, VS Code and dev-container settings, and
/// `.jsonc` / `.json5` files. Plain `.json` (package.json, data) allows none.
fn is_jsonc(path: &str, name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let Some(stem) = lower.strip_suffix(".json") else {
        return lower.ends_with(".jsonc") || lower.ends_with(".json5");
    };
    stem.starts_with("tsconfig")
        || stem.starts_with("jsconfig")
        || matches!(
            stem,
            ".eslintrc" | ".oxlintrc" | "devcontainer" | ".devcontainer"
        )
        || path.starts_with(".vscode/")
        || path.contains("/.vscode/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_with_comments_is_told_from_plain_json() {
        assert_eq!(Lang::from_path("tsconfig.json"), Some(Lang::Jsonc));
        assert_eq!(
            Lang::from_path("test/tsconfig.build.json"),
            Some(Lang::Jsonc)
        );
        assert_eq!(Lang::from_path(".vscode/settings.json"), Some(Lang::Jsonc));
        assert_eq!(Lang::from_path("a/b.jsonc"), Some(Lang::Jsonc));
        assert_eq!(Lang::from_path("package.json"), None);
        assert_eq!(Lang::from_path("fixtures/tsconfig-data/x.json"), None);
    }

    #[test]
    fn extensions_map_to_languages() {
        assert_eq!(Lang::from_path("src/a.test.tsx"), Some(Lang::Js));
        assert_eq!(Lang::from_path("x/y.MJS"), Some(Lang::Js));
        assert_eq!(Lang::from_path("tests/test_a.py"), Some(Lang::Python));
        assert_eq!(Lang::from_path("a_test.go"), Some(Lang::Go));
        assert_eq!(Lang::from_path("src/lib.rs"), Some(Lang::Rust));
        assert_eq!(Lang::from_path("A.kt"), Some(Lang::Kotlin));
        assert_eq!(Lang::from_path("a_spec.rb"), Some(Lang::Ruby));
        assert_eq!(Lang::from_path("test/a_test.exs"), Some(Lang::Elixir));
        assert_eq!(Lang::from_path("ATests.cs"), Some(Lang::CSharp));
        assert_eq!(Lang::from_path("ATest.php"), Some(Lang::Php));
        assert_eq!(Lang::from_path("ATests.swift"), Some(Lang::Swift));
        assert_eq!(Lang::from_path("run.sh"), Some(Lang::Shell));
        assert_eq!(
            Lang::from_path(".github/workflows/ci.yml"),
            Some(Lang::Data)
        );
        assert_eq!(Lang::from_path("Cargo.toml"), Some(Lang::Data));
    }

    #[test]
    fn documents_and_extensionless_files_have_no_language() {
        assert_eq!(Lang::from_path("README.md"), None);
        assert_eq!(Lang::from_path("Makefile"), None);
        assert_eq!(Lang::from_path("dir.js/notes"), None);
        assert_eq!(Lang::from_path(""), None);
        assert_eq!(Lang::from_path("weird."), None);
    }
}
