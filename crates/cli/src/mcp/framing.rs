//! The server's side of the stdio stream, between the client and the protocol handler: each
//! line the client sends is read to a bound and checked before the handler sees it. A line
//! that is no JSON (bad syntax, nesting deeper than the parser allows, a number out of range
//! such as `"id": 1e400`) is answered with JSON-RPC's parse error (-32700), a line over
//! [`MAX_REQUEST`] bytes with an invalid request (-32600), both with a null id as the spec
//! asks; the handler's answers and these are written whole, a line each, never interleaved.
//! When the client closes its end, the handler sees the end of its input at once.

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The longest request line read (larger ones are answered and skipped, not held).
pub const MAX_REQUEST: usize = 16 << 20;

/// What reading one line gave.
enum Line {
    Whole(Vec<u8>),
    TooLong,
    End,
}

/// Reads one line of at most `max` bytes; a longer one is read past without being kept.
async fn read_line<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    max: usize,
) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::End,
                (false, false) => Line::Whole(line),
            });
        }
        let (part, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        let ended = done > part.len();
        if !too_long {
            if line.len() + part.len() > max {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(part);
            }
        }
        reader.consume(done);
        if ended {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Whole(line)
            });
        }
    }
}

/// The JSON-RPC error answering a message that could not be read (no id can be known).
fn error_line(code: i32, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}}).to_string()
}

/// Why a line is refused before the handler sees it, as the error line to answer it with;
/// `None` when it goes to the handler (or is blank).
fn refusal(line: &[u8]) -> Option<String> {
    if line.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    match serde_json::from_slice::<serde_json::Value>(line) {
        Ok(_) => None,
        Err(e) => Some(error_line(-32700, &format!("Parse error: {e}"))),
    }
}

/// Copies the client's lines to the handler (`to_handler`), answering those it refuses through
/// `answers`; ends at the end of the client's input, closing the handler's.
pub async fn forward_requests<R, W>(
    input: R,
    mut to_handler: W,
    answers: mpsc::UnboundedSender<String>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut reader = BufReader::with_capacity(1 << 16, input);
    loop {
        match read_line(&mut reader, MAX_REQUEST).await {
            Ok(Line::Whole(line)) => match refusal(&line) {
                Some(answer) => {
                    let _ = answers.send(answer);
                }
                None => {
                    let sent = async {
                        to_handler.write_all(&line).await?;
                        to_handler.write_all(b"\n").await?;
                        to_handler.flush().await
                    };
                    if sent.await.is_err() {
                        break;
                    }
                }
            },
            Ok(Line::TooLong) => {
                let _ = answers.send(error_line(
                    -32600,
                    &format!("Invalid Request: a request may hold at most {MAX_REQUEST} bytes"),
                ));
            }
            Ok(Line::End) | Err(_) => break,
        }
    }
    let _ = to_handler.shutdown().await;
}

/// Writes the handler's answers (`from_handler`, a line each) and the refusals (`answers`) to
/// the client, each line whole; ends when the handler's output ends.
pub async fn write_answers<R, W>(
    from_handler: R,
    mut output: W,
    mut answers: mpsc::UnboundedReceiver<String>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut lines = BufReader::new(from_handler).lines();
    let mut refusals_open = true;
    loop {
        let line = tokio::select! {
            line = lines.next_line() => match line {
                Ok(Some(line)) => line,
                Ok(None) | Err(_) => break,
            },
            answer = answers.recv(), if refusals_open => match answer {
                Some(answer) => answer,
                None => {
                    refusals_open = false;
                    continue;
                }
            },
        };
        let written = async {
            output.write_all(line.as_bytes()).await?;
            output.write_all(b"\n").await?;
            output.flush().await
        };
        if written.await.is_err() {
            break;
        }
    }
    // Refusals made after the handler's last answer.
    while let Ok(answer) = answers.try_recv() {
        let _ = output.write_all(answer.as_bytes()).await;
        let _ = output.write_all(b"\n").await;
    }
    let _ = output.flush().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_refused_and_how() {
        assert!(refusal(br#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#).is_none());
        assert!(refusal(b"   ").is_none());
        let parse = refusal(b"{this is not json").unwrap();
        assert!(
            parse.contains("-32700") && parse.contains(r#""id":null"#),
            "{parse}"
        );
        assert!(refusal(br#"{"jsonrpc": "2.0", "id": 1e400, "method": "ping"}"#).is_some());
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(refusal(deep.as_bytes()).unwrap().contains("-32700"));
    }
}
