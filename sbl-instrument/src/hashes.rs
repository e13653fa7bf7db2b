//! Digest and checksum helpers shared by the image walkers.

use sha1::Sha1;
use sha2::{Digest, Sha224, Sha256, Sha384, Sha512};

use crate::bytes::hex;
use crate::model::HashCheck;

/// Compute `algo` over `data`; `None` for an algorithm this crate does not compute.
pub fn compute(algo: &str, data: &[u8]) -> Option<Vec<u8>> {
    Some(match algo {
        "sha512" => Sha512::digest(data).to_vec(),
        "sha384" => Sha384::digest(data).to_vec(),
        "sha256" => Sha256::digest(data).to_vec(),
        "sha224" => Sha224::digest(data).to_vec(),
        "sha1" => Sha1::digest(data).to_vec(),
        "crc32" => crc32fast::hash(data).to_be_bytes().to_vec(),
        _ => return None,
    })
}

/// Check a stored digest `expected` (raw bytes) of `algo` against `data`.
pub fn check(algo: &str, expected: &[u8], data: &[u8]) -> HashCheck {
    let computed = compute(algo, data);
    let status = match &computed {
        None => "unsupported",
        Some(c) if c.as_slice() == expected => "ok",
        Some(_) => "mismatch",
    };
    HashCheck {
        algo: algo.to_string(),
        expected: hex(expected),
        computed: computed.map(|c| hex(&c)),
        status: status.to_string(),
    }
}

/// Name of a SHA-2 algorithm from its OID (2.16.840.1.101.3.4.2.x).
pub fn sha_oid_name(oid: &str) -> Option<&'static str> {
    Some(match oid {
        "2.16.840.1.101.3.4.2.1" => "sha256",
        "2.16.840.1.101.3.4.2.2" => "sha384",
        "2.16.840.1.101.3.4.2.3" => "sha512",
        "2.16.840.1.101.3.4.2.4" => "sha224",
        _ => return None,
    })
}
