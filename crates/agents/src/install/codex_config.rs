//! `.codex/config.toml`: the hooks feature switch. Codex 0.169 runs hooks by default
//! (`[features] hooks`, stable, on) and reports the older `codex_hooks` key as deprecated.
//! Install adds `hooks = true` only when neither key is set, tagged with a comment so
//! uninstall removes exactly that line (and the `codex_hooks` line an older loopgate
//! added); a user's explicit `false` is never overridden (install reports it instead). Edited with `toml_edit` so the
//! rest of the file keeps its formatting and comments.

use super::InstallError;
use toml_edit::{DocumentMut, Item, Table};

const KEY: &str = "hooks";
/// The key older loopgate releases wrote; still recognised, never written.
const OLD_KEY: &str = "codex_hooks";
const MARK: &str = "# added by `loopgate install codex`";

/// What install did to the feature switch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeatureSwitch {
    /// The file needs this new text.
    Write(String),
    /// Already on (by the user or an earlier install): nothing to write.
    AlreadyOn,
    /// The user turned hooks off: nothing written, the hooks will not run until they flip it.
    DisabledByUser(&'static str),
}

pub fn enable(existing: Option<&str>) -> Result<FeatureSwitch, InstallError> {
    let mut doc = parse(existing.unwrap_or(""))?;
    if let Some(features) = doc.get("features") {
        let Some(features) = features.as_table_like() else {
            return Err(InstallError::Shape("`features` is not a table".into()));
        };
        for key in [KEY, OLD_KEY] {
            match features.get(key).map(|item| item.as_bool()) {
                Some(Some(true)) => return Ok(FeatureSwitch::AlreadyOn),
                Some(Some(false)) => return Ok(FeatureSwitch::DisabledByUser(key)),
                Some(None) => {
                    return Err(InstallError::Shape(format!(
                        "`features.{key}` is not a boolean"
                    )))
                }
                None => {}
            }
        }
    }
    let features = doc
        .entry("features")
        .or_insert_with(|| Item::Table(Table::new()));
    let Some(features) = features.as_table_like_mut() else {
        return Err(InstallError::Shape("`features` is not a table".into()));
    };
    features.insert(KEY, toml_edit::value(true));
    if let Some(value) = features.get_mut(KEY).and_then(Item::as_value_mut) {
        value.decor_mut().set_suffix(format!(" {MARK}"));
    }
    Ok(FeatureSwitch::Write(doc.to_string()))
}

/// Remove the switch install added. `None` when there is nothing of loopgate's; `Some("")`
/// when nothing else is left in the file.
pub fn disable(existing: &str) -> Result<Option<String>, InstallError> {
    let mut doc = parse(existing)?;
    let Some(features) = doc.get_mut("features").and_then(Item::as_table_like_mut) else {
        return Ok(None);
    };
    let ours: Vec<&str> = [KEY, OLD_KEY]
        .into_iter()
        .filter(|key| {
            features
                .get(key)
                .and_then(Item::as_value)
                .and_then(|value| value.decor().suffix())
                .and_then(|suffix| suffix.as_str())
                .is_some_and(|suffix| suffix.contains(MARK))
        })
        .collect();
    if ours.is_empty() {
        return Ok(None);
    }
    for key in ours {
        features.remove(key);
    }
    if features.is_empty() {
        doc.remove("features");
    }
    Ok(Some(doc.to_string()))
}

fn parse(text: &str) -> Result<DocumentMut, InstallError> {
    text.parse::<DocumentMut>()
        .map_err(|e| InstallError::Parse(e.to_string().trim_end().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enable_then_disable_round_trips_and_keeps_comments() {
        let original = "# my config\nmodel = \"o3\"  # fast\n\n[tui]\ntheme = \"dark\"\n";
        let FeatureSwitch::Write(on) = enable(Some(original)).unwrap() else {
            panic!("expected a write")
        };
        assert!(on.starts_with(original), "{on}");
        assert!(on.contains("[features]\nhooks = true # added by"), "{on}");
        assert_eq!(enable(Some(&on)).unwrap(), FeatureSwitch::AlreadyOn);
        assert_eq!(disable(&on).unwrap().as_deref(), Some(original));
    }

    #[test]
    fn user_switches_are_respected() {
        let off = "[features]\nhooks = false\n";
        assert_eq!(
            enable(Some(off)).unwrap(),
            FeatureSwitch::DisabledByUser("hooks")
        );
        let on = "[features]\ncodex_hooks = true\nother = 1\n";
        assert_eq!(enable(Some(on)).unwrap(), FeatureSwitch::AlreadyOn);
        assert_eq!(
            disable(on).unwrap(),
            None,
            "a user's own switch is not ours to remove"
        );
    }

    #[test]
    fn existing_features_table_gains_one_line() {
        let text = "[features]\nweb_search = true\n";
        let FeatureSwitch::Write(on) = enable(Some(text)).unwrap() else {
            panic!()
        };
        assert!(
            on.starts_with("[features]\nweb_search = true\nhooks = true"),
            "{on}"
        );
        assert_eq!(disable(&on).unwrap().as_deref(), Some(text));
    }

    #[test]
    fn the_deprecated_key_an_older_install_wrote_is_removed() {
        let old = "[features]\ncodex_hooks = true # added by `loopgate install codex`\n";
        assert_eq!(enable(Some(old)).unwrap(), FeatureSwitch::AlreadyOn);
        assert_eq!(disable(old).unwrap().as_deref(), Some(""));
    }

    #[test]
    fn empty_file_round_trips_to_empty() {
        let FeatureSwitch::Write(on) = enable(None).unwrap() else {
            panic!()
        };
        assert_eq!(disable(&on).unwrap().as_deref(), Some(""));
    }

    #[test]
    fn bad_toml_is_a_parse_error() {
        assert!(matches!(
            enable(Some("[features\n")),
            Err(InstallError::Parse(_))
        ));
        assert!(matches!(disable("= 1"), Err(InstallError::Parse(_))));
    }
}
