//! Suppressions the fresh17 set (monolog, Polly, koin) showed: a PHPStan baseline
//! regenerated in a newer spelling ignores nothing more (`message` regexes written as
//! `rawMessage` text, double quotes as single, types rendered anew), while an entry for
//! another issue is new; MSBuild `<NoWarn>` ids turn warnings off for whole projects; C#'s
//! `[ExcludeFromCodeCoverage]` takes a member out of coverage. Real repositories, the real
//! binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

const NEON: &str = "phpstan-baseline.neon";
const NEON_OLD: &str = "parameters:
\tignoreErrors:
\t\t-
\t\t\tmessage: \"#^Property App\\\\\\\\Handler\\\\:\\\\:\\\\$memory is never read, only written\\\\.$#\"
\t\t\tcount: 1
\t\t\tpath: src/Handler.php

\t\t-
\t\t\tmessage: \"#^Return type \\\\(array\\\\<array\\\\|int\\\\>\\\\) of method App\\\\\\\\Json\\\\:\\\\:normalize\\\\(\\\\) should be covariant\\\\.$#\"
\t\t\tcount: 1
\t\t\tpath: src/Json.php

\t\t-
\t\t\tmessage: '#Legacy\\\\Client#'
\t\t\tpath: src/Legacy.php
";

#[test]
fn a_regenerated_phpstan_baseline_ignores_nothing_more_but_a_new_issue_is_new() {
    // Every entry respelt: `rawMessage` text, single quotes, an `identifier:` line, the
    // generic type rendered as `array<mixed>`; line 16: an issue the parent ignored nowhere.
    let new = "parameters:
\tignoreErrors:
\t\t-
\t\t\trawMessage: 'Property App\\Handler::$memory is never read, only written.'
\t\t\tidentifier: property.onlyWritten
\t\t\tcount: 1
\t\t\tpath: src/Handler.php

\t\t-
\t\t\tmessage: '#^Return type \\(array\\<array\\<mixed\\>\\|int\\>\\) of method App\\\\Json\\:\\:normalize\\(\\) should be covariant\\.$#'
\t\t\tidentifier: method.childReturnType
\t\t\tcount: 1
\t\t\tpath: src/Json.php

\t\t-
\t\t\trawMessage: 'Method App\\Json::encode() has no return type specified.'
\t\t\tidentifier: missingType.return
\t\t\tcount: 1
\t\t\tpath: src/Json.php

\t\t-
\t\t\tmessage: '#Legacy\\\\Client#'
\t\t\tpath: src/Legacy.php
";
    both_ways(
        &[(NEON, NEON_OLD)],
        &writing(&[(NEON, new)]),
        &lint_lines(vec![(NEON, 16)]),
    );
}

#[test]
fn a_pattern_changed_or_an_issue_re_rendered_in_another_file_is_new() {
    // Line 4: the handler's issue now ignored in another file; line 14: the unanchored
    // pattern widened to every client (a pattern matches many texts, so it is not read as
    // one); the Json entry is kept as it was.
    let new = "parameters:
\tignoreErrors:
\t\t-
\t\t\trawMessage: 'Property App\\Handler::$memory is never read, only written.'
\t\t\tcount: 1
\t\t\tpath: src/Other.php

\t\t-
\t\t\tmessage: \"#^Return type \\\\(array\\\\<array\\\\|int\\\\>\\\\) of method App\\\\\\\\Json\\\\:\\\\:normalize\\\\(\\\\) should be covariant\\\\.$#\"
\t\t\tcount: 1
\t\t\tpath: src/Json.php

\t\t-
\t\t\tmessage: '#Client#'
\t\t\tpath: src/Legacy.php
";
    both_ways(
        &[(NEON, NEON_OLD)],
        &writing(&[(NEON, new)]),
        &lint_lines(vec![(NEON, 4), (NEON, 14)]),
    );
}

const PROPS: &str = "eng/Common.props";
const PROPS_OLD: &str = "<Project>
  <PropertyGroup>
    <NoWarn>$(NoWarn);CA1010;IDE0066;RS0037</NoWarn>
  </PropertyGroup>
</Project>
";

#[test]
fn warning_ids_added_to_a_no_warn_list_are_suppressions() {
    // Line 3: CA1510 joins the list; line 4: a new property line for two analyzer rules.
    let new = "<Project>
  <PropertyGroup>
    <NoWarn>$(NoWarn);CA1010;CA1510;IDE0066;RS0037</NoWarn>
    <NoWarn>$(NoWarn);S8969;S8970</NoWarn>
  </PropertyGroup>
</Project>
";
    both_ways(
        &[(PROPS, PROPS_OLD)],
        &writing(&[(PROPS, new)]),
        &lint_lines(vec![(PROPS, 3), (PROPS, 4)]),
    );
}

#[test]
fn a_no_warn_list_reordered_or_shortened_or_a_commented_one_is_not_new() {
    let new = "<Project>
  <PropertyGroup>
    <!-- <NoWarn>$(NoWarn);CS1591</NoWarn> -->
    <NoWarn>$(NoWarn);RS0037;CA1010</NoWarn>
    <WarningsAsErrors>CS8600</WarningsAsErrors>
  </PropertyGroup>
</Project>
";
    both_ways(
        &[(PROPS, PROPS_OLD)],
        &writing(&[(PROPS, new)]),
        &lint_lines(vec![]),
    );
}

const CS: &str = "src/Bulkhead/BulkheadEngine.cs";
const CS_OLD: &str = "namespace Polly.Bulkhead;

internal static class BulkheadEngine
{
    internal static void Run(SemaphoreSlim semaphore)
    {
        semaphore.Release();
    }
}
";

#[test]
fn exclude_from_code_coverage_on_a_new_member_is_a_suppression() {
    let new = "namespace Polly.Bulkhead;

internal static class BulkheadEngine
{
    internal static void Run(SemaphoreSlim semaphore)
    {
        SafeRelease(semaphore);
    }

    [System.Diagnostics.CodeAnalysis.ExcludeFromCodeCoverage]
    private static void SafeRelease(SemaphoreSlim semaphore)
    {
        semaphore.Release();
    }
}
";
    both_ways(
        &[(CS, CS_OLD)],
        &writing(&[(CS, new)]),
        &lint_lines(vec![(CS, 10)]),
    );
}

#[test]
fn the_coverage_attribute_named_as_a_type_or_in_a_comment_is_not_a_suppression() {
    let new = "namespace Polly.Bulkhead;

internal static class BulkheadEngine
{
    // SafeRelease could take [ExcludeFromCodeCoverage] some day.
    internal static bool Excluded => typeof(BulkheadEngine).IsDefined(typeof(ExcludeFromCodeCoverageAttribute));

    internal static void Run(SemaphoreSlim semaphore)
    {
        semaphore.Release();
    }
}
";
    both_ways(&[(CS, CS_OLD)], &writing(&[(CS, new)]), &lint_lines(vec![]));
}
