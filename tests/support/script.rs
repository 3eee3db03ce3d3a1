//! The scripted side the model servers share: a queue of turns, every request body
//! recorded, and a log for failure messages. Each API module renders a [`Turn`] in its
//! own wire format.

use super::model::{Turn, FALLBACK_TEXT};
use serde_json::Value;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Inner {
    turns: VecDeque<Turn>,
    /// Turns for requests a server attributes to a marker (a subagent's prompt).
    lanes: Vec<(String, VecDeque<Turn>)>,
    requests: Vec<Value>,
    log: Vec<String>,
    served: usize,
}

#[derive(Clone, Default)]
pub struct Script {
    inner: Arc<Mutex<Inner>>,
}

impl Script {
    pub fn new(turns: Vec<Turn>) -> Script {
        let script = Script::default();
        script.inner.lock().unwrap().turns = turns.into();
        script
    }

    /// Turns for the requests whose prompt holds `marker` (see [`Script::next_in`]).
    pub fn lane(&self, marker: &str, turns: Vec<Turn>) {
        self.inner
            .lock()
            .unwrap()
            .lanes
            .push((marker.into(), turns.into()));
    }

    /// The markers of the lanes, for a server to test its request against.
    pub fn markers(&self) -> Vec<String> {
        let s = self.inner.lock().unwrap();
        s.lanes.iter().map(|(m, _)| m.clone()).collect()
    }

    /// Record `body` and take the next turn (the fallback text when the script ran dry);
    /// returns it with its 1-based number.
    pub fn next(&self, route: &str, body: Value) -> (Turn, usize) {
        self.next_in(None, route, body)
    }

    /// The same, from the lane of `marker` (the main script when `None`).
    pub fn next_in(&self, marker: Option<&str>, route: &str, body: Value) -> (Turn, usize) {
        let mut s = self.inner.lock().unwrap();
        s.requests.push(body);
        let queue = match marker {
            Some(m) => s.lanes.iter_mut().find(|(k, _)| k == m).map(|(_, q)| q),
            None => None,
        };
        let turn = match queue {
            Some(q) => q.pop_front(),
            None => s.turns.pop_front(),
        }
        .unwrap_or_else(|| Turn::text(FALLBACK_TEXT));
        s.served += 1;
        let n = s.served;
        s.log.push(format!(
            "POST {route} #{n} lane={} -> {turn:?}",
            marker.unwrap_or("main")
        ));
        (turn, n)
    }

    pub fn note(&self, line: String) {
        self.inner.lock().unwrap().log.push(line);
    }

    pub fn requests(&self) -> Vec<Value> {
        self.inner.lock().unwrap().requests.clone()
    }

    pub fn log(&self) -> String {
        self.inner.lock().unwrap().log.join("\n")
    }

    pub fn turns_left(&self) -> usize {
        self.inner.lock().unwrap().turns.len()
    }

    /// Every string anywhere in the requests received, for substring assertions (tool
    /// outputs, hook feedback, prompts).
    pub fn sent_strings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for r in self.requests() {
            strings(&r, &mut out);
        }
        out
    }
}

fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
        Value::Object(map) => map.values().for_each(|i| strings(i, out)),
        _ => {}
    }
}

/// A signature of the per-connection handler of a scripted model server.
pub type Handler = fn(std::net::TcpStream, &Script, super::model::Usage) -> std::io::Result<()>;

/// Bind a scripted model server on 127.0.0.1:0 that answers every connection with
/// `handler`, taking turns from `turns`: its port and its script.
pub fn start_server(
    turns: Vec<Turn>,
    usage: super::model::Usage,
    handler: Handler,
) -> (u16, Script) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind the model server");
    let port = listener.local_addr().unwrap().port();
    let script = Script::new(turns);
    let (serving, errors) = (script.clone(), script.clone());
    super::http::serve_forever(
        listener,
        move |stream| handler(stream, &serving, usage),
        move |e| errors.note(e),
    );
    (port, script)
}
