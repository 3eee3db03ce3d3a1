//! The files RuboCop's configuration kept away from each cop at the comparison point: a
//! cop's `Exclude` list, or the cop turned off (`Enabled: false`) for every file. An inline
//! `# rubocop:disable Cop` on code that cop did not read before silences nothing it used to
//! check: the code sat in a file excluded from the cop (the exclusion since removed, so the
//! file is checked again but for that line), or it was moved out of such a file.

use super::config_yaml;
use globset::{GlobBuilder, GlobMatcher};

/// Whether `name` is a RuboCop configuration file (`.rubocop.yml`, `.rubocop_todo.yml`).
pub fn is_config(name: &str) -> bool {
    config_yaml::is_rubocop_config(name)
}

/// One cop kept away from some files.
struct Exclusion {
    /// The cop, without its department (as the configuration reader names it).
    cop: String,
    /// The files, relative to the repository root; `None` for every file.
    files: Option<GlobMatcher>,
}

/// What the RuboCop configuration files of a repository excluded, cop by cop.
#[derive(Default)]
pub struct Excluded {
    all: Vec<Exclusion>,
}

impl Excluded {
    /// Read from configuration files given as (path, text): an `Exclude` pattern is
    /// relative to the directory of the file that holds it.
    pub fn read<'t>(files: impl IntoIterator<Item = (&'t str, &'t str)>) -> Excluded {
        let mut all = Vec::new();
        for (path, text) in files {
            let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
            for e in config_yaml::rubocop_suppressions(text) {
                let files = match e.what.as_str() {
                    "rubocop off" => None,
                    "rubocop exclude" => {
                        let pattern = if dir.is_empty() {
                            e.scope.clone()
                        } else {
                            format!("{dir}/{}", e.scope)
                        };
                        // RuboCop matches with `File.fnmatch` and `FNM_PATHNAME`: `*`
                        // stays within a directory, `**/` crosses them.
                        let Ok(glob) = GlobBuilder::new(&pattern).literal_separator(true).build()
                        else {
                            continue;
                        };
                        Some(glob.compile_matcher())
                    }
                    _ => continue,
                };
                all.push(Exclusion { cop: e.rule, files });
            }
        }
        Excluded { all }
    }

    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    /// Whether `cop` (named with or without its department) did not read `path`.
    pub fn excludes(&self, cop: &str, path: &str) -> bool {
        let bare = cop.rsplit('/').next().unwrap_or(cop);
        self.all
            .iter()
            .any(|x| x.cop == bare && x.files.as_ref().is_none_or(|g| g.is_match(path)))
    }
}

/// The cops an inline `rubocop:disable` or `rubocop:todo` on `line` names, and the code
/// before it (trimmed); `None` when it names none, or all (`all` reaches cops the
/// configuration may never have excluded).
pub fn disabled_cops(line: &str) -> Option<(Vec<&str>, &str)> {
    let (code, rest) = ["rubocop:disable", "rubocop:todo"]
        .iter()
        .find_map(|d| line.split_once(d))?;
    let code = code.trim_end().strip_suffix('#')?.trim();
    // The cops run to the end of the line or to a `--` comment after them.
    let list = rest.split(" -- ").next().unwrap_or(rest);
    let cops: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    let named = |c: &&str| c.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '/');
    (!cops.is_empty() && cops.iter().all(named) && !cops.contains(&"all")).then_some((cops, code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exclude_patterns_and_cops_turned_off() {
        let yml = "Style/GlobalVars:\n  Exclude:\n    - 'lib/a.rb'\n    - 'spec/*.rb'\nMetrics/AbcSize:\n  Enabled: false\n";
        let x = Excluded::read([(".rubocop.yml", yml)]);
        assert!(x.excludes("Style/GlobalVars", "lib/a.rb"));
        assert!(x.excludes("GlobalVars", "spec/b.rb"));
        assert!(!x.excludes("Style/GlobalVars", "spec/deep/b.rb"));
        assert!(!x.excludes("Style/GlobalVars", "lib/b.rb"));
        assert!(x.excludes("Metrics/AbcSize", "anything.rb"));
        let nested = Excluded::read([("sub/.rubocop.yml", yml)]);
        assert!(nested.excludes("Style/GlobalVars", "sub/lib/a.rb"));
        assert!(!nested.excludes("Style/GlobalVars", "lib/a.rb"));
    }

    #[test]
    fn cops_of_an_inline_directive() {
        assert_eq!(
            disabled_cops("  x = $K # rubocop:disable Style/GlobalVars, Lint/Foo"),
            Some((vec!["Style/GlobalVars", "Lint/Foo"], "x = $K"))
        );
        assert_eq!(
            disabled_cops("# rubocop:todo Naming/X -- why"),
            Some((vec!["Naming/X"], ""))
        );
        assert_eq!(disabled_cops("x # rubocop:disable all"), None);
        assert_eq!(disabled_cops("x # see rubocop docs"), None);
    }
}
