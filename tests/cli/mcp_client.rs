//! A client of `sightline mcp` for the tests: the real binary started over stdio, raw
//! JSON-RPC lines written and read, each answer waited for with a bound.

use serde_json::{Value as Json, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

pub const WAIT: Duration = Duration::from_secs(120);

/// A running server and the lines it writes.
pub struct Client {
    pub child: Child,
    stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    next_id: u64,
}

impl Client {
    pub fn start(roots: &[&Path]) -> Client {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_sightline"));
        cmd.arg("mcp");
        for r in roots {
            cmd.arg("--root").arg(r);
        }
        Client::spawn(cmd)
    }

    /// A server started under a shell that first runs `setup` (`ulimit -n 64`, say), then
    /// becomes the server.
    pub fn start_under(setup: &str, roots: &[&Path]) -> Client {
        let mut cmd = Command::new("sh");
        let mut script = format!("{setup}\nexec \"$0\" mcp");
        for i in 0..roots.len() {
            script.push_str(&format!(" --root \"${}\"", i + 1));
        }
        cmd.arg("-c")
            .arg(script)
            .arg(env!("CARGO_BIN_EXE_sightline"))
            .args(roots);
        Client::spawn(cmd)
    }

    fn spawn(mut cmd: Command) -> Client {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start sightline mcp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin: Some(stdin),
            lines: rx,
            next_id: 1,
        }
    }

    pub fn send_raw(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        stdin.write_all(text.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    /// Closes the server's input, as a client that goes away does.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Whether the server ended within `within`.
    pub fn ends_within(&mut self, within: Duration) -> bool {
        let start = std::time::Instant::now();
        while start.elapsed() < within {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// The next message the server writes.
    pub fn next(&mut self) -> Json {
        self.next_within(WAIT).expect("an answer in time")
    }

    /// The next message the server writes within `within`, if one comes.
    pub fn next_within(&mut self, within: Duration) -> Option<Json> {
        let line = self.lines.recv_timeout(within).ok()?;
        Some(serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
    }

    /// The request line of a tool call.
    pub fn call_line(id: u64, tool: &str, arguments: &Json) -> String {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": tool, "arguments": arguments}})
        .to_string()
    }

    /// Calls a tool and returns its result if the server answers within `within`.
    pub fn call_within(&mut self, tool: &str, arguments: Json, within: Duration) -> Option<Json> {
        let id = self.next_id;
        self.next_id += 1;
        self.send_raw(&Client::call_line(id, tool, &arguments));
        let reply = self.next_within(within)?;
        assert_eq!(reply["id"], json!(id), "answers in order: {reply}");
        assert!(reply.get("error").is_none(), "{tool}: {reply}");
        Some(reply["result"].clone())
    }

    /// The server's process ID.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends a request and returns its response (the whole JSON-RPC message).
    pub fn request(&mut self, method: &str, params: Json) -> Json {
        let id = self.next_id;
        self.next_id += 1;
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(&msg.to_string());
        let reply = self.next();
        assert_eq!(reply["id"], json!(id), "answers in order: {reply}");
        assert_eq!(reply["jsonrpc"], "2.0");
        reply
    }

    /// Calls a tool and returns its result (which may be marked `isError`).
    pub fn call(&mut self, tool: &str, arguments: Json) -> Json {
        let reply = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        assert!(reply.get("error").is_none(), "{tool}: {reply}");
        reply["result"].clone()
    }

    /// Calls a tool that must succeed; its structured content, checked against the text.
    pub fn structured(&mut self, tool: &str, arguments: Json) -> Json {
        let result = self.call(tool, arguments);
        assert_ne!(result["isError"], json!(true), "{tool}: {result}");
        let content = result["content"].as_array().expect("content");
        assert!(
            !content[0]["text"].as_str().unwrap_or("").is_empty(),
            "{tool}: a summary"
        );
        let structured = result["structuredContent"].clone();
        assert!(structured.is_object(), "{tool}: structured content");
        let copy: Json = serde_json::from_str(content[1]["text"].as_str().unwrap()).unwrap();
        assert_eq!(
            copy, structured,
            "{tool}: the text copy is the structured content"
        );
        structured
    }

    /// Calls a tool that must succeed; its one-line summary for people.
    pub fn summary_of(&mut self, tool: &str, arguments: Json) -> String {
        let result = self.call(tool, arguments);
        result["content"][0]["text"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    pub fn initialize(&mut self) -> Json {
        let reply = self.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            }),
        );
        self.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        reply
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
