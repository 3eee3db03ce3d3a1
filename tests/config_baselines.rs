//! Static-analysis baselines are suppressions: an entry added to Psalm's
//! `psalm-baseline.xml` or to PHPStan's `ignoreErrors` (`phpstan-baseline.neon`) silences
//! one reported issue, as `@psalm-suppress` on the line would. The lists are compared as
//! sets: entries re-encoded (`&gt;` as CDATA), reordered, or reclassified by the analyser
//! over the same code (a Psalm issue renamed) are not new; a first baseline sets the tool
//! up. Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

const PSALM: &str = "psalm-baseline.xml";
const PSALM_OLD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<files psalm-version="4.x-dev@">
  <file src="src/Client.php">
    <PossiblyInvalidArgument occurrences="2">
      <code>$this-&gt;_mh</code>
      <code>$this-&gt;_mh</code>
    </PossiblyInvalidArgument>
    <TooManyArguments occurrences="1">
      <code>trigger_deprecation('x', '1.0', 'old')</code>
    </TooManyArguments>
  </file>
</files>
"#;

#[test]
fn psalm_baseline_entries_added_are_suppressions() {
    // A third `$this->_mh` occurrence (reported at the copy git's diff marks added, line
    // 5: the copies are one code); line 10: a new issue over new code; line 18: a new
    // file's issue.
    let new = r#"<?xml version="1.0" encoding="UTF-8"?>
<files psalm-version="4.x-dev@">
  <file src="src/Client.php">
    <PossiblyInvalidArgument occurrences="3">
      <code>$this-&gt;_mh</code>
      <code>$this-&gt;_mh</code>
      <code>$this-&gt;_mh</code>
    </PossiblyInvalidArgument>
    <RedundantPropertyInitializationCheck occurrences="1">
      <code>isset($this-&gt;_mh)</code>
    </RedundantPropertyInitializationCheck>
    <TooManyArguments occurrences="1">
      <code>trigger_deprecation('x', '1.0', 'old')</code>
    </TooManyArguments>
  </file>
  <file src="src/Pool.php">
    <InvalidCast occurrences="1">
      <code>$easy-&gt;handle</code>
    </InvalidCast>
  </file>
</files>
"#;
    both_ways(
        &[(PSALM, PSALM_OLD)],
        &writing(&[(PSALM, new)]),
        &lint_lines(vec![(PSALM, 5), (PSALM, 10), (PSALM, 18)]),
    );
}

#[test]
fn psalm_baseline_reencoded_or_reclassified_is_not_new() {
    // Psalm 5 writes code as CDATA and drops `occurrences`; it reports the same call as
    // `UndefinedFunction` instead of `TooManyArguments`: nothing more is silenced.
    let new = r#"<?xml version="1.0" encoding="UTF-8"?>
<files psalm-version="5.15.0@abc">
  <file src="src/Client.php">
    <PossiblyInvalidArgument>
      <code><![CDATA[$this->_mh]]></code>
      <code><![CDATA[$this->_mh]]></code>
    </PossiblyInvalidArgument>
    <UndefinedFunction>
      <code><![CDATA[trigger_deprecation('x', '1.0', 'old')]]></code>
    </UndefinedFunction>
  </file>
</files>
"#;
    both_ways(
        &[(PSALM, PSALM_OLD)],
        &writing(&[(PSALM, new)]),
        &lint_lines(vec![]),
    );
}

const NEON: &str = "phpstan-baseline.neon";
const NEON_OLD: &str = "parameters:
\tignoreErrors:
\t\t-
\t\t\tmessage: \"#^Parameter \\\\#1 \\\\$ch of function curl_close expects resource\\\\.$#\"
\t\t\tcount: 1
\t\t\tpath: src/Handler/CurlFactory.php

\t\t-
\t\t\tmessage: \"#^Result of && is always false\\\\.$#\"
\t\t\tcount: 3
\t\t\tpath: src/Cookie/SetCookie.php
";

#[test]
fn phpstan_ignore_errors_added_or_counted_up_are_suppressions() {
    // Line 4: the curl_close message now ignored twice (its count raised); line 14: a new
    // message in another file.
    let new = "parameters:
\tignoreErrors:
\t\t-
\t\t\tmessage: \"#^Parameter \\\\#1 \\\\$ch of function curl_close expects resource\\\\.$#\"
\t\t\tcount: 2
\t\t\tpath: src/Handler/CurlFactory.php

\t\t-
\t\t\tmessage: \"#^Result of && is always false\\\\.$#\"
\t\t\tcount: 3
\t\t\tpath: src/Cookie/SetCookie.php

\t\t-
\t\t\tmessage: \"#^Trying to invoke mixed but it's not a callable\\\\.$#\"
\t\t\tcount: 1
\t\t\tpath: src/Handler/StreamHandler.php
";
    both_ways(
        &[(NEON, NEON_OLD)],
        &writing(&[(NEON, new)]),
        &lint_lines(vec![(NEON, 4), (NEON, 14)]),
    );
}

#[test]
fn phpstan_entries_reordered_or_counted_down_and_a_first_baseline_are_not_new() {
    // The two entries swapped, one count lowered; and Psalm's first baseline added beside
    // it (the tool set up: what it lists was never checked).
    let new = "parameters:
\tignoreErrors:
\t\t-
\t\t\tmessage: \"#^Result of && is always false\\\\.$#\"
\t\t\tcount: 2
\t\t\tpath: src/Cookie/SetCookie.php

\t\t-
\t\t\tmessage: \"#^Parameter \\\\#1 \\\\$ch of function curl_close expects resource\\\\.$#\"
\t\t\tcount: 1
\t\t\tpath: src/Handler/CurlFactory.php
";
    both_ways(
        &[(NEON, NEON_OLD)],
        &writing(&[(NEON, new), (PSALM, PSALM_OLD)]),
        &lint_lines(vec![]),
    );
}
