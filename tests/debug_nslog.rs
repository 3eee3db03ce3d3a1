//! `NSLog(..)` is Swift's and Objective-C's console print (docs/guards.md,
//! `debug_artifacts`), decided as JS's `console.log`: a finding in library code, and in a
//! test only when it dumps values, its format string holding conversions and no word of
//! its own (`NSLog("%@", progress)`). A test's message (`NSLog("retrying after %@", e)`),
//! a commented-out call and another function whose name only starts so are not.
//! Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};

const TEST: &str = "Tests/DownloadTests.swift";
const TEST_OLD: &str = "import XCTest\n\nfinal class DownloadResumeDataTestCase: BaseTestCase {\n    func testThatProgressIsReported() {\n        download.downloadProgress { progress in\n            XCTAssertNotNil(progress)\n        }\n    }\n}\n";
const LIB: &str = "Source/Core/Session.swift";
const LIB_OLD: &str = "public final class Session {\n    func start() {\n        run()\n    }\n}\n";

fn debug_lines(files: &[(&str, &str)], new: &[(&str, &str)]) -> Vec<Vec<(String, u64)>> {
    let seen = std::cell::RefCell::new(Vec::new());
    both_ways(files, &writing(new), &|_, receipt, _| {
        seen.borrow_mut().push(lines_of(receipt, "debug_artifacts"));
    });
    seen.into_inner()
}

#[test]
fn nslog_dumping_a_value_in_a_test_or_logging_in_library_code_is_a_finding() {
    let test_new = "import XCTest\n\nfinal class DownloadResumeDataTestCase: BaseTestCase {\n    func testThatProgressIsReported() {\n        download.downloadProgress { progress in\n            NSLog(\"%@\", progress)\n            XCTAssertNotNil(progress)\n        }\n    }\n}\n";
    let lib_new = "public final class Session {\n    func start() {\n        NSLog(\"starting session\")\n        run()\n    }\n}\n";
    let objc = "Tests/AFTests.m";
    let objc_new = "#import <XCTest/XCTest.h>\n\n@implementation AFTests\n- (void)testGet {\n    NSLog(@\"%@ %ld\", response, (long)code);\n}\n@end\n";
    let found = debug_lines(
        &[
            (TEST, TEST_OLD),
            (LIB, LIB_OLD),
            (objc, "@implementation AFTests\n@end\n"),
        ],
        &[(TEST, test_new), (LIB, lib_new), (objc, objc_new)],
    );
    assert_eq!(found.len(), 2);
    for lines in found {
        assert_eq!(
            lines,
            vec![
                (LIB.to_string(), 3),
                (objc.to_string(), 5),
                (TEST.to_string(), 6)
            ]
        );
    }
}

#[test]
fn a_test_message_a_commented_out_nslog_or_a_lookalike_is_not() {
    let test_new = "import XCTest\n\nfinal class DownloadResumeDataTestCase: BaseTestCase {\n    func testThatProgressIsReported() {\n        download.downloadProgress { progress in\n            NSLog(\"retrying after %@\", progress)\n            NSLog(\"%@\", \"Progress: \\(progress)\")\n            // NSLog(\"%@\", progress)\n            NSLogger.shared.log(progress)\n            let s = \"NSLog(%@)\"\n            XCTAssertNotNil(progress)\n        }\n    }\n}\n";
    let lib_new = "public final class Session {\n    func start() {\n        // NSLog(\"%@\", self)\n        logger.NSLog(\"x\")\n        run()\n    }\n}\n";
    let found = debug_lines(
        &[(TEST, TEST_OLD), (LIB, LIB_OLD)],
        &[(TEST, test_new), (LIB, lib_new)],
    );
    assert_eq!(found, vec![vec![], vec![]]);
}
