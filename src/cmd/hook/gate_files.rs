//! The files the agent may never edit through a tool: loopgate's gate files (anchored at the
//! root) and the `[guards] protect` globs, with the guards' own gitignore-style semantics so
//! the tool gate and the `config_edits` / `protected_edits` guards agree.

/// The gate files and `[guards] protect` globs, compiled.
pub struct GateFiles {
    anchored: gate::guards::PathSet,
    protect: gate::guards::PathSet,
}

impl GateFiles {
    pub fn new(protect: &[String]) -> GateFiles {
        let anchored: Vec<String> = gate::guards::GATE_FILES
            .iter()
            .map(|g| format!("/{g}"))
            .collect();
        GateFiles {
            anchored: gate::guards::PathSet::new(&anchored),
            protect: gate::guards::PathSet::new(protect),
        }
    }

    pub fn first_match(&self, rel: &str) -> Option<String> {
        let rel = rel.trim_start_matches('/');
        if rel.is_empty() {
            return None;
        }
        if let Some(p) = self.anchored.first_match(rel) {
            return Some(p.text.trim_start_matches('/').to_string());
        }
        self.protect.first_match(rel).map(|p| p.text.clone())
    }
}
