//! Go calls spelt like a skip that skip no test: a package's own `Skip` function
//! (`zap.Skip()`, a no-op log field) and a `t.Skip()` inside a fuzz target's `f.Fuzz`
//! callback, which rejects a generated input outside the property under test. A
//! `t.Skip()` on the test's own `*testing.T` is still a skip, also in a fuzz target
//! outside the callback. Real repositories, the real binary, both ways.

mod gitrepo;

use gitrepo::{both_ways, no_new_skips, skips_at, writing};

const GO_MOD: (&str, &str) = ("go.mod", "module example.com/enc\n\ngo 1.21\n");
const BENCH: &str = "bench/log_test.go";
const BENCH_OLD: &str = "package bench

import (
\t\"testing\"

\t\"go.uber.org/zap\"
)

func BenchmarkFields(b *testing.B) {
\tfor i := 0; i < b.N; i++ {
\t\t_ = zap.String(\"k\", \"v\")
\t}
}
";

#[test]
fn a_package_function_named_skip_is_no_skip() {
    let new = "package bench

import (
\t\"testing\"

\t\"go.uber.org/zap\"
)

func BenchmarkFields(b *testing.B) {
\tfield := func(n string) zap.Field {
\t\tif n == \"\" {
\t\t\treturn zap.Skip()
\t\t}
\t\treturn zap.String(\"name\", n)
\t}
\tfor i := 0; i < b.N; i++ {
\t\t_ = field(\"v\")
\t}
}
";
    both_ways(
        &[GO_MOD, (BENCH, BENCH_OLD)],
        &writing(&[(BENCH, new)]),
        &no_new_skips,
    );
}

#[test]
fn the_benchmarks_own_skip_is_still_a_skip() {
    let new = "package bench

import (
\t\"testing\"

\t\"go.uber.org/zap\"
)

func BenchmarkFields(b *testing.B) {
\tif testing.Short() {
\t\tb.Skip(\"slow\")
\t}
\tfor i := 0; i < b.N; i++ {
\t\t_ = zap.String(\"k\", \"v\")
\t}
}
";
    both_ways(
        &[GO_MOD, (BENCH, BENCH_OLD)],
        &writing(&[(BENCH, new)]),
        &skips_at(&[(BENCH, 11)]),
    );
}

const ENC: &str = "enc/enc_test.go";
const ENC_OLD: &str = "package enc

import \"testing\"

func TestAppend(t *testing.T) {
\tif string(appendSafe(nil, \"a\")) != \"a\" {
\t\tt.Fatal(\"bad\")
\t}
}
";

#[test]
fn a_skip_that_rejects_a_fuzz_input_is_no_skip() {
    let new = format!(
        "{ENC_OLD}
func FuzzAppend(f *testing.F) {{
\tf.Add([]byte(\"a\"))
\tf.Fuzz(func(t *testing.T, b []byte) {{
\t\tif !utf8.Valid(b) {{
\t\t\tt.Skip()
\t\t}}
\t\tif string(appendSafe(nil, string(b))) != string(b) {{
\t\t\tt.Fatal(\"bad\")
\t\t}}
\t}})
}}
"
    );
    both_ways(
        &[GO_MOD, (ENC, ENC_OLD)],
        &writing(&[(ENC, &new)]),
        &no_new_skips,
    );
}

#[test]
fn a_skip_of_the_whole_fuzz_target_is_still_a_skip() {
    let new = format!(
        "{ENC_OLD}
func FuzzAppend(f *testing.F) {{
\tif testing.Short() {{
\t\tf.Skip(\"slow\")
\t}}
\tf.Fuzz(func(t *testing.T, b []byte) {{
\t\t_ = appendSafe(nil, string(b))
\t}})
}}
"
    );
    both_ways(
        &[GO_MOD, (ENC, ENC_OLD)],
        &writing(&[(ENC, &new)]),
        &skips_at(&[(ENC, 13)]),
    );
}
