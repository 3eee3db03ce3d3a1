//! Editing the `hooks` table of an agent settings file. Two layouts exist:
//! - grouped (Claude Code, Codex, Gemini CLI): `hooks.<Event> = [{matcher?, hooks: [entry]}]`
//! - flat (Cursor): `hooks.<event> = [entry]`
//!
//! where an entry's `command` identifies it. Only entries whose command is loopgate's own
//! (see [`super::command::is_own_command`]) are ever removed; a group or event list is
//! removed only when removing loopgate's entry left it empty.

use super::command::is_own_command;
use super::InstallError;
use crate::AgentKind;
use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    Grouped,
    Flat,
}

/// One hook loopgate installs.
#[derive(Debug, Clone)]
pub(crate) struct Planned {
    pub event: &'static str,
    pub matcher: Option<&'static str>,
    pub entry: Value,
}

/// Remove loopgate's entries for `agent` from every event; true when any was found.
pub(crate) fn strip_own(root: &mut Map<String, Value>, agent: AgentKind, layout: Layout) -> bool {
    let Some(Value::Object(hooks)) = root.get_mut("hooks") else {
        return false;
    };
    let mut removed_any = false;
    let mut emptied_events = Vec::new();
    for (event, list) in hooks.iter_mut() {
        let Value::Array(items) = list else { continue };
        let before = items.len();
        let mut removed_here = false;
        match layout {
            Layout::Flat => {
                items.retain(|entry| !is_own_entry(entry, agent));
                removed_here = items.len() != before;
            }
            Layout::Grouped => {
                items.retain_mut(|group| {
                    let Some(Value::Array(entries)) = group.get_mut("hooks") else {
                        return true;
                    };
                    let count = entries.len();
                    entries.retain(|entry| !is_own_entry(entry, agent));
                    if entries.len() == count {
                        return true;
                    }
                    removed_here = true;
                    !entries.is_empty()
                });
            }
        }
        if removed_here {
            removed_any = true;
            if items.is_empty() {
                emptied_events.push(event.clone());
            }
        }
    }
    for event in emptied_events {
        hooks.shift_remove(&event);
    }
    if removed_any && hooks.is_empty() {
        root.shift_remove("hooks");
    }
    removed_any
}

fn is_own_entry(entry: &Value, agent: AgentKind) -> bool {
    entry
        .get("command")
        .and_then(Value::as_str)
        .is_some_and(|command| is_own_command(command, agent))
}

/// Append loopgate's hooks (after [`strip_own`], so installing twice equals once).
pub(crate) fn add(
    root: &mut Map<String, Value>,
    planned: &[Planned],
    layout: Layout,
) -> Result<(), InstallError> {
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err(InstallError::Shape("`hooks` is not a JSON object".into()));
    };
    for plan in planned {
        let list = hooks
            .entry(plan.event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(items) = list else {
            return Err(InstallError::Shape(format!(
                "`hooks.{}` is not a JSON array",
                plan.event
            )));
        };
        items.push(match layout {
            Layout::Flat => plan.entry.clone(),
            Layout::Grouped => {
                let mut group = Map::new();
                if let Some(matcher) = plan.matcher {
                    group.insert("matcher".into(), Value::String(matcher.into()));
                }
                group.insert("hooks".into(), Value::Array(vec![plan.entry.clone()]));
                Value::Object(group)
            }
        });
    }
    Ok(())
}
