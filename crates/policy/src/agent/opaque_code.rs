//! Code handed to an interpreter whose language loopgate does not screen
//! (`programs::OPAQUE_CODE`): asked about, whatever it says.

use super::args::Arg;
use super::walk::{Analyzer, Stdin};
use super::{rule, Finding};
use crate::programs;

impl Analyzer<'_> {
    /// Whether `name ARGS` (fed `stdin`) hands its interpreter code; asks when it does.
    pub(crate) fn opaque_code(&mut self, name: &str, rest: &[Arg], stdin: &Stdin, display: &str) {
        let Some(spec) = programs::OPAQUE_CODE
            .iter()
            .find(|o| o.names.contains(&name))
        else {
            return;
        };
        let fed = stdin.text.is_some() || stdin.piped || stdin.remote || !stdin.files.is_empty();
        let matches = |t: &str, opts: &[&str]| {
            opts.iter()
                .any(|o| t == *o || (o.starts_with("--") && t.starts_with(&format!("{o}="))))
        };
        let mut operands = 0usize;
        let mut i = 0;
        let mut how: Option<String> = None;
        while i < rest.len() {
            let t = rest[i].text().unwrap_or("");
            if matches(t, spec.code) {
                how = Some(format!("`{t}` hands it code"));
                break;
            }
            if matches(t, spec.script) {
                let file = if t.contains('=') {
                    t.split_once('=').map(|(_, v)| v.to_string())
                } else {
                    rest.get(i + 1).and_then(|a| a.text()).map(str::to_string)
                };
                if fed && file.as_deref().is_some_and(programs::is_stdin_file) {
                    how = Some(format!("`{t}` runs code read from its standard input"));
                    break;
                }
                i += 2;
                operands += 1;
                continue;
            }
            if !t.starts_with('-') || t == "-" {
                if programs::is_stdin_file(t) && fed {
                    how = Some("it reads its program from standard input".to_string());
                    break;
                }
                operands += 1;
            }
            i += 1;
        }
        if how.is_none() && spec.stdin_repl && fed && operands == 0 {
            how = Some("it reads the code fed to its standard input".to_string());
        }
        if let Some(how) = how {
            self.add(Finding::ask(
                rule::INLINE,
                format!("`{display}`: loopgate cannot vet `{name}`'s language, and {how}"),
                "run a script file inside the repository, or a program whose options can be vetted",
            ));
        }
    }
}
