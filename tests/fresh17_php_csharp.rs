//! Suppressions the fresh17 set (monolog, Polly, koin) showed: a PHPStan baseline
//! regenerated in a newer spelling ignores nothing more (`message` regexes written as
//! `rawMessage` text, double quotes as single, types rendered anew), while an entry for
//! another issue is new; MSBuild `<NoWarn>` ids turn warnings off for whole projects; C#'s
//! `[ExcludeFromCodeCoverage]` takes a member out of coverage. Real repositories, the real
//! binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, no_new_skips, skips_at, writing};

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

const LOGGER_TEST: &str = "tests/LoggerTest.php";
const LOGGER_OLD: &str = "<?php\n\nnamespace App\\Tests;\n\nuse PHPUnit\\Framework\\TestCase;\n\nclass LoggerTest extends TestCase\n{\n    public function testLogs(): void\n    {\n        $this->assertTrue(log_it());\n    }\n}\n";

#[test]
fn phpunit_requirements_on_tests_are_skips() {
    // A docblock `@requires` on a new test (line 16) and a requirement attribute on an
    // existing one (line 8): both skip their test where the requirement fails.
    let new = "<?php\n\nnamespace App\\Tests;\n\nuse PHPUnit\\Framework\\TestCase;\n\nclass LoggerTest extends TestCase\n{\n    #[\\PHPUnit\\Framework\\Attributes\\RequiresPhpExtension('mongodb')]\n    public function testLogs(): void\n    {\n        $this->assertTrue(log_it());\n    }\n\n    /**\n     * @requires PHP 8.1\n     */\n    public function testEnums(): void\n    {\n        $this->assertTrue(log_enum());\n    }\n}\n";
    both_ways(
        &[(LOGGER_TEST, LOGGER_OLD)],
        &writing(&[(LOGGER_TEST, new)]),
        &skips_at(&[(LOGGER_TEST, 9), (LOGGER_TEST, 16)]),
    );
}

#[test]
fn requirements_named_in_prose_or_in_library_code_are_not_skips() {
    // A docblock that talks about requirements, a method named `requiresPhp`, and a
    // `@requires` in a library file's docblock (not a test file).
    let new = "<?php\n\nnamespace App\\Tests;\n\nuse PHPUnit\\Framework\\TestCase;\n\nclass LoggerTest extends TestCase\n{\n    /**\n     * Checks @requires-like tags are kept as written.\n     */\n    public function testLogs(): void\n    {\n        $this->assertTrue(requiresPhp('8.1'));\n    }\n}\n";
    let lib_old = "<?php\n\nfunction log_it(): bool\n{\n    return true;\n}\n";
    let lib_new = "<?php\n\n/**\n * @requires PHP 8.1\n */\nfunction log_it(): bool\n{\n    return true;\n}\n";
    both_ways(
        &[(LOGGER_TEST, LOGGER_OLD), ("src/log.php", lib_old)],
        &writing(&[(LOGGER_TEST, new), ("src/log.php", lib_new)]),
        &no_new_skips,
    );
}

#[test]
fn a_docblock_requirement_respelt_as_an_attribute_is_the_same_skip() {
    let old = "<?php\n\nnamespace App\\Tests;\n\nuse PHPUnit\\Framework\\TestCase;\n\n/**\n * @requires extension mongodb\n */\nclass LoggerTest extends TestCase\n{\n    public function testLogs(): void\n    {\n        $this->assertTrue(log_it());\n    }\n}\n";
    let new = "<?php\n\nnamespace App\\Tests;\n\nuse PHPUnit\\Framework\\Attributes\\RequiresPhpExtension;\nuse PHPUnit\\Framework\\TestCase;\n\n#[RequiresPhpExtension('mongodb')]\nclass LoggerTest extends TestCase\n{\n    public function testLogs(): void\n    {\n        $this->assertTrue(log_it());\n    }\n}\n";
    both_ways(
        &[(LOGGER_TEST, old)],
        &writing(&[(LOGGER_TEST, new)]),
        &no_new_skips,
    );
}
