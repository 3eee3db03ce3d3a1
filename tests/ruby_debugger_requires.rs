//! Ruby's debugger loads (`require 'pry'`, `require "byebug"`) are its `import pdb`: a
//! `debug_artifacts` finding in every file, specs included (a debugger is no output). A
//! dependency line in a Gemfile or gemspec, or another library required, loads nothing.
//! Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, no_debug_artifacts, writing};

const SPEC: &str = "spec/request_spec.rb";
const OLD_SPEC: &str = "require 'spec_helper'\n\ndescribe Request do\n  it 'keeps cookies' do\n    expect(1).to eq(1)\n  end\nend\n";

#[test]
fn require_pry_left_in_a_spec_body_is_a_debugging_leftover() {
    let new = "require 'spec_helper'\n\ndescribe Request do\n  it 'keeps cookies' do\n    require 'pry'\n    expect(1).to eq(1)\n  end\nend\n";
    both_ways(
        &[(SPEC, OLD_SPEC)],
        &writing(&[(SPEC, new)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![(SPEC.to_string(), 5)],
                "{mode}: {receipt}"
            );
        },
    );
}

#[test]
fn dependency_lines_and_other_requires_are_not_debuggers() {
    let gemfile_old = "source 'https://rubygems.org'\n";
    let gemfile_new = "source 'https://rubygems.org'\ngem 'pry', require: false\ngem 'byebug'\n";
    let gemspec_old = "Gem::Specification.new do |spec|\n  spec.name = 'x'\nend\n";
    let gemspec_new = "Gem::Specification.new do |spec|\n  spec.name = 'x'\n  spec.add_development_dependency 'pry'\nend\n";
    let spec_new = "require 'spec_helper'\nrequire 'json'\nrequire 'debug_helper'\n\ndescribe Request do\n  it 'keeps cookies' do\n    # require 'pry'\n    expect(1).to eq(1)\n  end\nend\n";
    both_ways(
        &[
            ("Gemfile", gemfile_old),
            ("x.gemspec", gemspec_old),
            (SPEC, OLD_SPEC),
        ],
        &writing(&[
            ("Gemfile", gemfile_new),
            ("x.gemspec", gemspec_new),
            (SPEC, spec_new),
        ]),
        &no_debug_artifacts,
    );
}
