//! The HTTP plumbing the scripted model servers share (Anthropic `model.rs`, OpenAI
//! Responses `responses.rs`, Gemini `gemini_api.rs`): plain std networking, one request
//! per connection (`Connection: close`), JSON answers and server-sent event streams.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

pub struct Request {
    pub method: String,
    pub path: String,
    pub body: Vec<u8>,
}

impl Request {
    /// The body as JSON (`Null` when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// The path without its query string.
    pub fn route(&self) -> &str {
        self.path.split('?').next().unwrap_or("")
    }
}

/// Accept connections on `listener` forever, one thread per connection; a failed
/// exchange is reported to `on_error`.
pub fn serve_forever<H, E>(listener: TcpListener, handler: H, on_error: E)
where
    H: Fn(TcpStream) -> std::io::Result<()> + Send + Sync + 'static,
    E: Fn(String) + Send + Sync + 'static,
{
    let handler = std::sync::Arc::new(handler);
    let on_error = std::sync::Arc::new(on_error);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let (handler, on_error) = (handler.clone(), on_error.clone());
            std::thread::spawn(move || {
                if let Err(e) = handler(stream) {
                    on_error(format!("connection error: {e}"));
                }
            });
        }
    });
}

/// Start a server-sent event stream.
pub fn start_sse(stream: &mut TcpStream) -> std::io::Result<()> {
    write!(stream, "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n")
}

/// One event: `event: name` (when given) and `data: json`.
pub fn sse_event(stream: &mut TcpStream, name: Option<&str>, data: &Value) -> std::io::Result<()> {
    if let Some(name) = name {
        writeln!(stream, "event: {name}")?;
    }
    write!(stream, "data: {data}\n\n")
}

pub fn read_request(stream: &mut TcpStream) -> std::io::Result<Request> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let mut length = 0usize;
    let mut chunked = false;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
            break;
        }
        let lower = header.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
            chunked = true;
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size)?;
            let n = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16)
                .unwrap_or(0);
            if n == 0 {
                let mut end = String::new();
                reader.read_line(&mut end)?;
                break;
            }
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk)?;
            chunk.truncate(n);
            body.extend(chunk);
        }
    } else {
        body.resize(length, 0);
        reader.read_exact(&mut body)?;
    }
    Ok(Request { method, path, body })
}

pub fn respond_json(stream: &mut TcpStream, status: &str, body: &Value) -> std::io::Result<()> {
    let bytes = serde_json::to_vec(body).unwrap();
    write!(
        stream,
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        bytes.len()
    )?;
    stream.write_all(&bytes)?;
    stream.flush()
}
