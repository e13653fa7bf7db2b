//! A console's cost on the wire: the time its bytes take at a baud rate.

/// Baud rate a virtual console's cost is computed at: a serial console's default.
pub const NOMINAL_BAUD: u32 = crate::profile::DEFAULT_BAUD;

/// Time on the wire of `bytes` at `baud`, 8N1 (10 bits a byte), ms.
pub fn wire_ms(bytes: f64, baud: u32) -> f64 {
    bytes * 10.0 / f64::from(baud) * 1e3
}
