//! Accounting on real transcript files in temp dirs.

use budget::{
    account, cache_path, check, exhausted, mark_exhausted, BudgetVerdict, Limits, MAX_LINE_BYTES,
};
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::Path;

fn assistant(id: &str, input: u64, output: u64, cc: u64) -> String {
    format!(
        r#"{{"type":"assistant","sessionId":"s","message":{{"id":"{id}","role":"assistant","content":[{{"type":"text","text":"ok"}}],"usage":{{"input_tokens":{input},"output_tokens":{output},"cache_creation_input_tokens":{cc},"cache_read_input_tokens":500}}}}}}"#
    ) + "\n"
}

fn prompt(text: &str) -> String {
    format!(r#"{{"type":"user","message":{{"role":"user","content":"{text}"}}}}"#) + "\n"
}

fn tool_result() -> String {
    r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"done"}]}}"#.to_string() + "\n"
}

fn append(path: &Path, text: &str) {
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

#[test]
fn counts_incrementally_and_per_turn() {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join(".loopgate");
    let t = tmp.path().join("t.jsonl");
    append(
        &t,
        &(prompt("hello")
            + &assistant("m1", 10, 1, 100)
            + &assistant("m1", 10, 40, 100)
            + &tool_result()),
    );
    let u = account(&t, &state, "s1").unwrap();
    assert_eq!(u.session_tokens, 150);
    assert_eq!(u.turn_tokens, 150);
    assert_eq!(u.counts.cache_read, 500);
    assert_eq!(u.messages, 1);
    // Tool results do not start a turn; a typed prompt does.
    append(
        &t,
        &(assistant("m2", 5, 5, 0) + &prompt("again") + &assistant("m3", 1, 1, 1)),
    );
    let u = account(&t, &state, "s1").unwrap();
    assert_eq!(u.session_tokens, 163);
    assert_eq!(u.turn_tokens, 3);
    assert_eq!(u.messages, 3);
    // The same answer with no new bytes.
    assert_eq!(account(&t, &state, "s1").unwrap(), u);
    // A fresh cache (another session name) rescans to the same totals.
    assert_eq!(account(&t, &state, "other").unwrap().session_tokens, 163);
}

#[test]
fn a_partial_last_line_waits_for_its_end() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("t.jsonl");
    let line = assistant("m1", 10, 10, 10);
    append(&t, &line[..30]);
    assert_eq!(account(&t, tmp.path(), "s").unwrap().session_tokens, 0);
    append(&t, &line[30..]);
    let u = account(&t, tmp.path(), "s").unwrap();
    assert_eq!(u.session_tokens, 30);
    assert_eq!(
        u.malformed_lines, 0,
        "the half line was never parsed on its own"
    );
}

#[test]
fn malformed_lines_are_skipped_and_counted() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("t.jsonl");
    append(
        &t,
        &format!("{{broken\n\u{0}\u{1}\n{}[]\n", assistant("m1", 1, 2, 3)),
    );
    fs::write(tmp.path().join("bin.jsonl"), b"\xff\xfe\n").unwrap();
    let u = account(&t, tmp.path(), "s").unwrap();
    assert_eq!(u.session_tokens, 6);
    assert_eq!(u.malformed_lines, 3);
    assert_eq!(
        account(&tmp.path().join("bin.jsonl"), tmp.path(), "b")
            .unwrap()
            .malformed_lines,
        1
    );
}

#[test]
fn a_shrunk_or_replaced_transcript_is_rescanned() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("t.jsonl");
    append(
        &t,
        &(assistant("m1", 100, 100, 100) + &assistant("m2", 100, 100, 100)),
    );
    assert_eq!(account(&t, tmp.path(), "s").unwrap().session_tokens, 600);
    // Shrunk in place.
    fs::write(&t, assistant("m9", 1, 1, 1)).unwrap();
    assert_eq!(account(&t, tmp.path(), "s").unwrap().session_tokens, 3);
    // Replaced by a new file of the same length at the same path (new inode).
    let other = tmp.path().join("new.jsonl");
    fs::write(&other, assistant("m8", 2, 2, 2)).unwrap();
    fs::rename(&other, &t).unwrap();
    assert_eq!(account(&t, tmp.path(), "s").unwrap().session_tokens, 6);
    // Rewritten in place with different bytes, then grown: the anchor notices.
    let mut f = OpenOptions::new().write(true).open(&t).unwrap();
    f.write_all(assistant("m7", 3, 3, 3).as_bytes()).unwrap();
    drop(f);
    append(&t, &assistant("m6", 1, 0, 0));
    assert_eq!(account(&t, tmp.path(), "s").unwrap().session_tokens, 10);
}

#[test]
fn an_oversized_line_is_skipped_without_losing_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("t.jsonl");
    append(&t, &assistant("m1", 1, 1, 1));
    let big = format!(
        r#"{{"type":"assistant","message":{{"id":"huge","usage":{{"input_tokens":1000}}}},"pad":"{}"}}"#,
        "x".repeat(MAX_LINE_BYTES + 10)
    );
    // Written in two steps so one call ends inside the huge line.
    append(&t, &big[..MAX_LINE_BYTES + 5]);
    assert_eq!(account(&t, tmp.path(), "s").unwrap().session_tokens, 3);
    append(
        &t,
        &(big[MAX_LINE_BYTES + 5..].to_string() + "\n" + &assistant("m2", 2, 2, 2)),
    );
    let u = account(&t, tmp.path(), "s").unwrap();
    assert_eq!(u.session_tokens, 9);
    assert_eq!(u.oversized_lines, 1);
    let cache = fs::metadata(cache_path(tmp.path(), "s")).unwrap().len();
    assert!(
        cache < 10_000,
        "the cache never holds the line: {cache} bytes"
    );
}

#[test]
fn exhaustion_is_recorded_and_survives() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("t.jsonl");
    append(&t, &(prompt("go") + &assistant("m1", 600, 600, 0)));
    assert!(!exhausted(tmp.path(), "s"));
    let u = account(&t, tmp.path(), "s").unwrap();
    let verdict = check(&u, &Limits::new(Some(1000), Some(5000)));
    let BudgetVerdict::Exceeded {
        message,
        session,
        turn,
    } = verdict
    else {
        panic!()
    };
    assert!(session && !turn);
    assert!(
        message.contains("session 1,200 tokens (limit 1,000 tokens)"),
        "{message}"
    );
    mark_exhausted(tmp.path(), "s", &message).unwrap();
    assert!(exhausted(tmp.path(), "s"));
    // A new turn, more lines, a replaced transcript: still exhausted.
    append(&t, &(prompt("more") + &assistant("m2", 1, 1, 1)));
    assert!(account(&t, tmp.path(), "s").unwrap().exhausted);
    fs::write(&t, assistant("x", 1, 1, 1)).unwrap();
    assert!(account(&t, tmp.path(), "s").unwrap().exhausted);
    assert!(exhausted(tmp.path(), "s"));
    assert!(!exhausted(tmp.path(), "another"));
}

#[test]
fn a_torn_or_corrupt_cache_means_a_rescan() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("t.jsonl");
    append(&t, &(assistant("m1", 1, 1, 1) + &assistant("m2", 2, 2, 2)));
    assert_eq!(account(&t, tmp.path(), "s").unwrap().session_tokens, 9);
    let cache = cache_path(tmp.path(), "s");
    append(&cache, "garbage after the object");
    append(&t, &assistant("m3", 1, 0, 0));
    assert_eq!(account(&t, tmp.path(), "s").unwrap().session_tokens, 10);
    fs::write(&cache, "{\"version\":1,\"offset\":").unwrap();
    assert_eq!(account(&t, tmp.path(), "s").unwrap().session_tokens, 10);
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        fs::metadata(&cache).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn hostile_session_ids_stay_inside_the_budget_dir() {
    let tmp = tempfile::tempdir().unwrap();
    for id in [
        "../../etc/passwd",
        "",
        ".hidden",
        "a/b",
        &"x".repeat(500),
        "é",
    ] {
        let path = cache_path(tmp.path(), id);
        assert_eq!(path.parent().unwrap(), tmp.path().join("budget"), "{id}");
        assert!(
            path.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("h-"),
            "{id}"
        );
    }
    assert_eq!(
        cache_path(tmp.path(), "4f1c-9a_b.2"),
        tmp.path().join("budget/4f1c-9a_b.2.json")
    );
}

#[test]
fn a_missing_transcript_is_the_usage_on_record() {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join(".loopgate");
    // The first hook call of a session can come before the agent created its transcript.
    let missing = tmp.path().join("nope.jsonl");
    assert_eq!(account(&missing, &state, "s").unwrap().session_tokens, 0);
    // Once counted, a vanished transcript does not reset the session's spending.
    let t = tmp.path().join("t.jsonl");
    append(&t, &assistant("m1", 10, 5, 0));
    assert_eq!(account(&t, &state, "s").unwrap().session_tokens, 15);
    fs::remove_file(&t).unwrap();
    assert_eq!(account(&t, &state, "s").unwrap().session_tokens, 15);
}

#[test]
fn a_directory_or_fifo_is_an_error_naming_it_never_a_hang() {
    let tmp = tempfile::tempdir().unwrap();
    let err = account(tmp.path(), tmp.path(), "s").unwrap_err();
    assert!(err.to_string().contains("not a regular file"), "{err}");
    let fifo = tmp.path().join("fifo.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // Without O_NONBLOCK the open itself would wait for a writer forever.
    let (tx, rx) = std::sync::mpsc::channel();
    let (f, state) = (fifo.clone(), tmp.path().to_path_buf());
    std::thread::spawn(move || {
        let _ = tx.send(account(&f, &state, "s").map_err(|e| e.to_string()));
    });
    let answer = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("a FIFO transcript is answered, not waited on");
    let err = answer.unwrap_err();
    assert!(
        err.contains("fifo.jsonl") && err.contains("not a regular file"),
        "{err}"
    );
}

#[test]
fn garbage_and_a_format_change_mid_file_are_counted_line_by_line() {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join(".loopgate");
    let t = tmp.path().join("t.jsonl");
    let codex = r#"{"type":"token_usage_record","payload":{"response_id":"resp_1","usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":20}}}"#;
    let gemini = r#"{"id":"g1","type":"gemini","content":"x","tokens":{"input":7,"output":3,"cached":0,"thoughts":0,"tool":0,"total":10}}"#;
    append(
        &t,
        &(assistant("m1", 10, 5, 0)
            + "\u{0}\u{1}garbage{{{\n"
            + codex
            + "\n"
            + "[1,2,3]\n"
            + gemini
            + "\n"),
    );
    let u = account(&t, &state, "s").unwrap();
    assert_eq!(u.session_tokens, 15 + 120 + 10);
    assert_eq!(u.messages, 3);
    assert_eq!(u.malformed_lines, 2);
}

#[test]
fn a_tool_call_waits_for_the_response_that_asked_for_it() {
    use budget::{account_until, Call};
    use std::time::Duration;
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join(".loopgate");
    let t = tmp.path().join("t.jsonl");
    append(&t, &assistant("m1", 100, 20, 0));
    let asking = r#"{"type":"assistant","message":{"id":"m2","content":[{"type":"tool_use","id":"toolu_2","name":"Bash","input":{}}],"usage":{"input_tokens":100,"output_tokens":20}}}"#.to_string() + "\n";
    // The client writes the asking message a little after the hook started.
    let (writer_path, line) = (t.clone(), asking.clone());
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        append(&writer_path, &line);
    });
    let claude = |id| {
        Some(Call {
            id,
            always_named: true,
        })
    };
    let codex = |id| {
        Some(Call {
            id,
            always_named: false,
        })
    };
    let u = account_until(&t, &state, "s", claude("toolu_2"), Duration::from_secs(20)).unwrap();
    writer.join().unwrap();
    assert_eq!(u.call_counted, Some(true));
    assert_eq!(
        u.session_tokens, 240,
        "up to and including the asking message"
    );
    // A call that never shows up is answered after the bound with what is on record.
    let u = account_until(
        &t,
        &state,
        "s",
        claude("toolu_9"),
        Duration::from_millis(50),
    )
    .unwrap();
    assert_eq!((u.call_counted, u.session_tokens), (Some(false), 240));
    // Codex: the call is named first, the usage record of its response follows.
    let c = tmp.path().join("rollout.jsonl");
    append(
        &c,
        &(r#"{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"call_1"}}"#.to_string() + "\n"),
    );
    let u = account_until(&c, &state, "c", codex("call_1"), Duration::from_secs(60)).unwrap();
    assert_eq!(
        u.call_counted, None,
        "nothing settled in this rollout yet: not waited on, nothing claimed"
    );
    append(
        &c,
        &(r#"{"type":"token_usage_record","payload":{"response_id":"resp_1","usage":{"input_tokens":100,"output_tokens":20}}}"#.to_string() + "\n"),
    );
    let u = account_until(&c, &state, "c", codex("call_1"), Duration::from_millis(50)).unwrap();
    assert_eq!((u.call_counted, u.session_tokens), (Some(true), 120));
}

#[test]
fn a_transcript_that_never_names_calls_is_not_waited_on() {
    use budget::{account_until, Call};
    use std::time::{Duration, Instant};
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join(".loopgate");
    // An older Codex: running totals only, no usage records that settle a call.
    let t = tmp.path().join("rollout.jsonl");
    append(
        &t,
        &(r#"{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"output_tokens":20}}}}"#.to_string() + "\n"),
    );
    let started = Instant::now();
    let older_codex = Some(Call {
        id: "call_7",
        always_named: false,
    });
    let u = account_until(&t, &state, "s", older_codex, Duration::from_secs(120)).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "answered without waiting out the bound"
    );
    assert_eq!((u.call_counted, u.session_tokens), (None, 120));
    // Not written yet: zero, at once.
    let missing = tmp.path().join("later.jsonl");
    let codex_first = Some(Call {
        id: "call_1",
        always_named: false,
    });
    let u = account_until(&missing, &state, "m", codex_first, Duration::from_secs(120)).unwrap();
    assert_eq!((u.call_counted, u.session_tokens), (None, 0));
    assert!(started.elapsed() < Duration::from_secs(60));
    // Claude names every call: its first call waits (bounded) for the transcript to appear,
    // then counts zero, never a denial.
    let claude_first = Some(Call {
        id: "toolu_1",
        always_named: true,
    });
    let u = account_until(
        &missing,
        &state,
        "n",
        claude_first,
        Duration::from_millis(50),
    )
    .unwrap();
    assert_eq!((u.call_counted, u.session_tokens), (Some(false), 0));
}

/// FIFOs in place of the transcript or the cache: never a blocked read, an error naming the
/// file, so the tool gate denies (a budget that cannot be read is never assumed unspent).
#[test]
fn fifos_are_errors_not_hangs() {
    let tmp = tempfile::tempdir().unwrap();
    let mkfifo = |p: &Path| {
        assert!(std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .unwrap()
            .success())
    };
    let fifo = tmp.path().join("fifo.jsonl");
    mkfifo(&fifo);
    let err = account(&fifo, tmp.path(), "s").unwrap_err();
    assert!(
        err.to_string().contains("fifo.jsonl") && err.to_string().contains("FIFO"),
        "{err}"
    );
    let t = tmp.path().join("t.jsonl");
    append(&t, &assistant("m1", 1, 1, 1));
    let cache = cache_path(tmp.path(), "s");
    fs::create_dir_all(cache.parent().unwrap()).unwrap();
    mkfifo(&cache);
    let err = account(&t, tmp.path(), "s").unwrap_err();
    assert!(err.to_string().contains("FIFO"), "{err}");
}

#[test]
fn concurrent_callers_agree() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("t.jsonl");
    for i in 0..200 {
        append(&t, &assistant(&format!("m{i}"), 1, 1, 1));
    }
    let handles: Vec<_> = (0..6)
        .map(|_| {
            let (t, dir) = (t.clone(), tmp.path().to_path_buf());
            std::thread::spawn(move || account(&t, &dir, "s").unwrap().session_tokens)
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), 600);
    }
}

#[test]
fn an_ids_file_out_of_step_with_the_cache_means_a_rescan_not_a_miscount() {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join(".loopgate");
    let t = tmp.path().join("t.jsonl");
    // Enough messages that older ids leave the recent window and go to the ids file.
    for i in 0..100 {
        append(&t, &assistant(&format!("m{i}"), 1, 1, 0));
    }
    assert_eq!(account(&t, &state, "s").unwrap().session_tokens, 200);
    let ids = cache_path(&state, "s").with_extension("ids");
    assert!(fs::metadata(&ids).unwrap().len() > 0);
    fs::write(&ids, b"garbage").unwrap();
    // A repeat of an old message and a new one: counted exactly once each.
    append(&t, &(assistant("m3", 1, 1, 0) + &assistant("new", 5, 5, 0)));
    assert_eq!(account(&t, &state, "s").unwrap().session_tokens, 210);
}
