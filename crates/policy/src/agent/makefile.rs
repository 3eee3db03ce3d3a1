//! A makefile whose whole text the command string spells (`make -f - <<< $'t:\n\tcmd'`,
//! `printf ... | make -f -`, `make --eval=...`): its recipes are shell commands like any
//! other, so they are judged as such instead of asking about every such makefile. Only
//! plain rules are read; anything make itself expands or executes (variables, functions,
//! `include`, conditionals) leaves the text to the caller's ask.

/// The recipe lines of `text`, as the shell receives them (`@`, `-`, `+` prefixes dropped,
/// `$$` turned into `$`), or `None` when the makefile holds anything but comments, rules
/// without variables and their recipes.
pub(crate) fn plain_recipes(text: &str) -> Option<Vec<String>> {
    let mut recipes = Vec::new();
    let mut in_rule = false;
    for line in text.lines() {
        if let Some(recipe) = line.strip_prefix('\t') {
            if !in_rule {
                return None;
            }
            let cmd = recipe.trim_start_matches(['@', '-', '+', ' ', '\t']);
            // `$(X)`, `${X}`, `$@`: make expands them first, to text only make knows.
            if cmd.replace("$$", "").contains('$') || cmd.ends_with('\\') {
                return None;
            }
            recipes.push(cmd.replace("$$", "$"));
            continue;
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        // A rule: `targets: prerequisites`, optionally `; recipe`.
        let (head, inline) = match trimmed.split_once(';') {
            Some((h, r)) => (h, Some(r.trim())),
            None => (trimmed, None),
        };
        let (targets, prereqs) = head.split_once(':')?;
        let plain = |s: &str| {
            s.chars()
                .all(|c| c.is_ascii_alphanumeric() || " \t._-/%".contains(c))
        };
        if targets.trim().is_empty() || !plain(targets) || !plain(prereqs.trim_start_matches(':')) {
            return None;
        }
        if let Some(r) = inline {
            if r.replace("$$", "").contains('$') {
                return None;
            }
            recipes.push(r.replace("$$", "$"));
        }
        in_rule = true;
    }
    Some(recipes)
}

#[cfg(test)]
mod tests {
    use super::plain_recipes;

    #[test]
    fn rules_and_their_recipes_are_read_and_anything_make_expands_is_not() {
        assert_eq!(
            plain_recipes("all: b\n\t@echo hi\n\t-rm -f x\n# c\nb:; ls $$HOME\n"),
            Some(vec![
                "echo hi".to_string(),
                "rm -f x".to_string(),
                "ls $HOME".to_string()
            ])
        );
        assert_eq!(plain_recipes("x:\n\trm -rf $(HOME)/.ssh\n"), None);
        assert_eq!(plain_recipes("X = 1\nx:\n\techo\n"), None);
        assert_eq!(plain_recipes("include other.mk\n"), None);
        assert_eq!(plain_recipes("\techo before any rule\n"), None);
        assert_eq!(plain_recipes("$(shell rm -rf ~):\n"), None);
    }
}
