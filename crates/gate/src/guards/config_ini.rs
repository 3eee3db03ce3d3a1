//! Suppressions in INI configuration (`setup.cfg`, `tox.ini`, `.flake8`, `mypy.ini`,
//! `.pylintrc`): flake8 `ignore`/`extend-ignore`/`per-file-ignores`, mypy `[mypy]` and
//! `[mypy-<module>]` settings, pylint `disable`. Read line by line as `configparser` does:
//! a `[section]` line, `key = value` (or `key: value`), and indented continuation lines that
//! extend the value. Ids match the TOML readings, so a setting moved from `setup.cfg` to
//! `pyproject.toml` (or from flake8 to ruff, which shares its rule codes) is not new.

use super::config_lint::Entry;

/// `ruff ignore`: flake8 and ruff share rule codes, and moving one's list to the other
/// silences nothing new.
const IGNORE: &str = "ruff ignore";

pub fn entries(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut section = String::new();
    // Module names keep their case: `[mypy-Foo.*]` and `module = "Foo.*"` are one scope.
    let mut section_raw = String::new();
    let mut key: Option<String> = None;
    // The file glob a `per-file-ignores` value names last: codes on later lines are its.
    let mut glob = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i as u32 + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        let piece = if raw.starts_with([' ', '\t']) && key.is_some() {
            trimmed
        } else if let Some(name) = trimmed.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            section_raw = name.trim().to_string();
            section = section_raw.to_ascii_lowercase();
            key = None;
            continue;
        } else {
            let Some(at) = trimmed.find(['=', ':']) else {
                key = None;
                continue;
            };
            key = Some(trimmed[..at].trim().to_ascii_lowercase().replace('_', "-"));
            glob.clear();
            trimmed[at + 1..].trim()
        };
        let piece = piece.split(" #").next().unwrap_or(piece).trim();
        let Some(key) = key.as_deref() else { continue };
        let at = Place {
            section: &section,
            section_raw: &section_raw,
            key,
            line,
        };
        read(&at, piece, &mut glob, &mut out);
    }
    out
}

/// Where a piece of a value sits.
struct Place<'a> {
    /// Lower case, to match section names.
    section: &'a str,
    section_raw: &'a str,
    key: &'a str,
    line: u32,
}

fn read(at: &Place, piece: &str, glob: &mut String, out: &mut Vec<Entry>) {
    let (section, key, line) = (at.section, at.key, at.line);
    let push = |out: &mut Vec<Entry>, what: &str, rule: &str, scope: &str| {
        out.push(Entry::new(what, rule, scope, vec![line]));
    };
    if section == "flake8" {
        match key {
            "ignore" | "extend-ignore" => {
                for code in codes(piece) {
                    push(out, IGNORE, code, "");
                }
            }
            "per-file-ignores" | "extend-per-file-ignores" => {
                for part in piece.split_whitespace() {
                    let codes_part = match part.split_once(':') {
                        Some((path, rest)) => {
                            *glob = path.to_string();
                            rest
                        }
                        None => part,
                    };
                    for code in codes(codes_part) {
                        if !glob.is_empty() {
                            push(out, IGNORE, code, glob);
                        }
                    }
                }
            }
            _ => {}
        }
    } else if section == "mypy" || section.starts_with("mypy-") {
        let modules: Vec<&str> = match at.section_raw.get(5..).filter(|_| section != "mypy") {
            Some(list) => list.split(',').map(str::trim).collect(),
            None => vec![""],
        };
        match key {
            "ignore-errors" | "ignore-missing-imports" if is_true(piece) => {
                let what = format!("mypy {}", key.replace('-', "_"));
                for m in &modules {
                    push(out, &what, "", m);
                }
            }
            "disable-error-code" => {
                for code in piece.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                    for m in &modules {
                        push(out, "mypy disable_error_code", code, m);
                    }
                }
            }
            "exclude" if section == "mypy" && !piece.is_empty() => {
                push(out, "mypy exclude", "", piece);
            }
            _ => {}
        }
    } else if key == "disable"
        && (section.contains("messages control") || section.contains("messages_control"))
    {
        for name in piece.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            push(out, "pylint disable", name, "");
        }
    }
}

/// Rule codes in a flake8 list: `E501`, `W503`, `B` (a whole plugin), separated by commas
/// or spaces.
fn codes(piece: &str) -> impl Iterator<Item = &str> {
    piece.split([',', ' ', '\t']).map(str::trim).filter(|c| {
        c.starts_with(|ch: char| ch.is_ascii_uppercase())
            && c.chars().all(|ch| ch.is_ascii_alphanumeric())
    })
}

fn is_true(v: &str) -> bool {
    matches!(v.to_ascii_lowercase().as_str(), "true" | "1" | "yes" | "on")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, u32)> {
        entries(text)
            .iter()
            .map(|e| {
                let mut s = format!("{} {}", e.what, e.rule);
                if !e.scope.is_empty() {
                    s.push_str(&format!(" @{}", e.scope));
                }
                (s, e.lines[0])
            })
            .collect()
    }

    #[test]
    fn flake8_lists_with_continuations() {
        let text = "[flake8]\nmax-line-length = 99\nextend-ignore =\n    E203,  # black\n    W503\nper-file-ignores =\n    tests/*: S101, D\n    __init__.py:F401\n[other]\nignore = E1\n";
        assert_eq!(
            found(text),
            vec![
                ("ruff ignore E203".into(), 4),
                ("ruff ignore W503".into(), 5),
                ("ruff ignore S101 @tests/*".into(), 7),
                ("ruff ignore D @tests/*".into(), 7),
                ("ruff ignore F401 @__init__.py".into(), 8),
            ]
        );
    }

    #[test]
    fn mypy_sections_and_pylint_disable() {
        let text = "[mypy]\nstrict = True\n[mypy-vendored.*,old.*]\nignore_errors = True\nignore_missing_imports = False\n[MESSAGES CONTROL]\ndisable = C0114,\n  too-many-locals\n";
        assert_eq!(
            found(text),
            vec![
                ("mypy ignore_errors  @vendored.*".into(), 4),
                ("mypy ignore_errors  @old.*".into(), 4),
                ("pylint disable C0114".into(), 7),
                ("pylint disable too-many-locals".into(), 8),
            ]
        );
    }
}
