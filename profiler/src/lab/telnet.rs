//! The telnet layer of a network serial port (RFC 854, with RFC 2217's COM-PORT option
//! refused): what ser2net speaks for labgrid's exporter (`accepter: telnet(rfc2217)`).
//!
//! The console bytes come out unchanged: commands and option negotiation are taken out of the
//! stream, `IAC IAC` is a 0xFF byte. Binary transmission and suppress-go-ahead are accepted both
//! ways (so CR is not followed by NUL, and 0xFF is the only byte escaped); every other option,
//! COM-PORT included, is refused: the port runs at the speed the exporter configured.

use std::io::{self, Read, Write};

/// Interpret As Command.
pub const IAC: u8 = 255;
const DONT: u8 = 254;
const DO: u8 = 253;
const WONT: u8 = 252;
const WILL: u8 = 251;
const SB: u8 = 250;
const SE: u8 = 240;
/// TRANSMIT-BINARY (RFC 856).
const BINARY: u8 = 0;
/// ECHO (RFC 857): the server echoing is what a serial line does anyway.
const ECHO: u8 = 1;
/// SUPPRESS-GO-AHEAD (RFC 858).
const SGA: u8 = 3;

/// Where the decoder is in the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum State {
    #[default]
    Data,
    Iac,
    /// After `IAC WILL|WONT|DO|DONT`: the option byte is next.
    Option(u8),
    /// Inside `IAC SB ... IAC SE`.
    Sub,
    SubIac,
}

/// Takes telnet commands out of a byte stream and says what to answer.
#[derive(Debug, Default)]
pub struct Decoder {
    state: State,
}

impl Decoder {
    /// A decoder at the start of a connection.
    pub fn new() -> Self {
        Self::default()
    }

    /// The console bytes of `input` go to `data`; the answers the peer's negotiation needs go
    /// to `reply`. Commands may be split across calls.
    pub fn feed(&mut self, input: &[u8], data: &mut Vec<u8>, reply: &mut Vec<u8>) {
        for &b in input {
            self.state = match (self.state, b) {
                (State::Data, IAC) => State::Iac,
                (State::Data, _) => {
                    data.push(b);
                    State::Data
                }
                (State::Iac, IAC) => {
                    data.push(IAC);
                    State::Data
                }
                (State::Iac, WILL | WONT | DO | DONT) => State::Option(b),
                (State::Iac, SB) => State::Sub,
                // NOP, go-ahead, break, ... carry no console byte.
                (State::Iac, _) => State::Data,
                (State::Option(verb), opt) => {
                    reply.extend_from_slice(&answer(verb, opt));
                    State::Data
                }
                (State::Sub, IAC) => State::SubIac,
                (State::Sub, _) => State::Sub,
                (State::SubIac, SE) => State::Data,
                (State::SubIac, _) => State::Sub,
            };
        }
    }
}

/// The answer to `IAC verb opt`: agree to binary, SGA and the server's echo, refuse the rest.
/// Refusals of refusals are not answered (RFC 854's loop rule).
fn answer(verb: u8, opt: u8) -> Vec<u8> {
    let accepted = matches!(opt, BINARY | SGA) || (opt == ECHO && verb == WILL);
    let r = match verb {
        DO if accepted => WILL,
        DO => WONT,
        WILL if accepted => DO,
        WILL => DONT,
        _ => return Vec::new(),
    };
    vec![IAC, r, opt]
}

/// What a client says first: binary both ways and no go-aheads.
pub fn opening() -> Vec<u8> {
    vec![
        IAC, WILL, BINARY, IAC, DO, BINARY, IAC, WILL, SGA, IAC, DO, SGA,
    ]
}

/// Console bytes for the wire: 0xFF doubled.
pub fn escape(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for &b in bytes {
        out.push(b);
        if b == IAC {
            out.push(IAC);
        }
    }
    out
}

/// A telnet connection read as a plain byte stream: answers negotiation on `reply` as it reads.
pub struct TelnetReader<R, W> {
    inner: R,
    reply: W,
    decoder: Decoder,
    raw: Vec<u8>,
}

impl<R: Read, W: Write> TelnetReader<R, W> {
    /// Reads `inner`, answering on `reply` (the same connection's write half).
    pub fn new(inner: R, reply: W) -> Self {
        Self {
            inner,
            reply,
            decoder: Decoder::new(),
            raw: vec![0; 4096],
        }
    }
}

impl<R: Read, W: Write> Read for TelnetReader<R, W> {
    /// Returns only console bytes; a read that brought only commands reads again, so `Ok(0)`
    /// still means the end of the connection.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let want = buf.len().min(self.raw.len());
            let n = self.inner.read(&mut self.raw[..want])?;
            if n == 0 {
                return Ok(0);
            }
            let mut data = Vec::with_capacity(n);
            let mut reply = Vec::new();
            self.decoder.feed(&self.raw[..n], &mut data, &mut reply);
            if !reply.is_empty() {
                self.reply.write_all(&reply)?;
                self.reply.flush()?;
            }
            if !data.is_empty() {
                // Decoding only removes bytes: `data` fits in `buf`.
                buf[..data.len()].copy_from_slice(&data);
                return Ok(data.len());
            }
        }
    }
}

/// A telnet connection's write half taking console bytes.
pub struct TelnetWriter<W>(pub W);

impl<W: Write> Write for TelnetWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write_all(&escape(buf))?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What ser2net 4.3 (labgrid's `telnet(rfc2217,mode=server)` accepter) sends on connect,
    /// as read off the wire here.
    const SER2NET_HELLO: &[u8] =
        b"\xff\xfb\x03\xff\xfd\x03\xff\xfb\x01\xff\xfe\x01\xff\xfd\x00\xff\xfb\x00\xff\xfd,";

    #[test]
    fn ser2net_negotiation_is_answered_and_removed() {
        let mut d = Decoder::new();
        let (mut data, mut reply) = (Vec::new(), Vec::new());
        let mut input = SER2NET_HELLO.to_vec();
        input.extend_from_slice(b"\r\nU-Boot 2023.01\r\n");
        d.feed(&input, &mut data, &mut reply);
        assert_eq!(data, b"\r\nU-Boot 2023.01\r\n");
        assert_eq!(
            reply,
            [
                IAC, DO, SGA, // WILL SGA
                IAC, WILL, SGA, // DO SGA
                IAC, DO, ECHO, // WILL ECHO
                // DONT ECHO: a refusal is not answered
                IAC, WILL, BINARY, // DO BINARY
                IAC, DO, BINARY, // WILL BINARY
                IAC, WONT, 44, // DO COM-PORT refused
            ]
        );
    }

    #[test]
    fn split_commands_escapes_and_subnegotiation() {
        let mut d = Decoder::new();
        let (mut data, mut reply) = (Vec::new(), Vec::new());
        // IAC IAC split across reads, a subnegotiation holding IAC IAC, a NOP.
        for chunk in [
            &b"a\xff"[..],
            b"\xffb\xff\xfa\x2c\x01\xff\xff\x00",
            b"\xff\xf0c\xff\xf1d",
        ] {
            d.feed(chunk, &mut data, &mut reply);
        }
        assert_eq!(data, b"a\xffbcd");
        assert!(reply.is_empty());
    }

    #[test]
    fn reader_answers_on_the_write_half_and_skips_command_only_reads() {
        let mut wire = SER2NET_HELLO.to_vec();
        wire.extend_from_slice(b"login: ");
        let mut reply = Vec::new();
        let mut r = TelnetReader::new(io::Cursor::new(wire), &mut reply);
        let mut got = Vec::new();
        r.read_to_end(&mut got).unwrap();
        assert_eq!(got, b"login: ");
        assert_eq!(reply.len(), 18);
    }

    #[test]
    fn writer_doubles_iac() {
        let mut out = Vec::new();
        TelnetWriter(&mut out).write_all(b"x\xffy").unwrap();
        assert_eq!(out, b"x\xff\xffy");
    }
}
