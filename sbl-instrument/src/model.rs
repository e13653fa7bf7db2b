//! The data model of `inspect` and its JSON contract `perfguide/image/v1`, and the formats it
//! names.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Schema id of the `inspect --format json` document.
pub const IMAGE_SCHEMA: &str = "perfguide/image/v1";

/// Result of checking a stored SHA-512 against the bytes it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HashStatus {
    /// A SHA-512 is stored for this component and matches its bytes.
    Ok,
    /// A SHA-512 is stored for this component and does not match.
    Mismatch,
    /// No SHA-512 is stored for this component.
    Absent,
}

/// One stored digest or checksum of a component and whether it matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HashCheck {
    /// Algorithm: `sha512`, `sha384`, `sha256`, `sha224`, `sha1`, `crc32`, `md5`...
    pub algo: String,
    /// The stored value, hex.
    pub expected: String,
    /// The value computed from the bytes, hex (`null` when the algorithm is not supported).
    pub computed: Option<String>,
    /// `ok`, `mismatch`, or `unsupported`.
    pub status: String,
}

/// A part of a boot image: a certificate, a payload, a FIT sub-image, an ELF segment...
///
/// JSON keys `name`, `format`, `offset`, `size`, `load_addr`, `entry`, `sha512`, `components`
/// are the stable contract; `hashes`, `details`, `warnings` are additions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Component {
    /// Name of the part (FIT node name, certificate component name, section name...).
    pub name: String,
    /// Detected format (`elf`, `ti-x509`, `fit`, `ti-boardcfg`, `raw`...).
    pub format: String,
    /// Offset of the part in the inspected file (absolute, at every depth).
    pub offset: u64,
    /// Size of the part in the file, bytes.
    pub size: u64,
    /// Address the part is loaded to, where the image says so.
    pub load_addr: Option<u64>,
    /// Entry point, where the image says so.
    pub entry: Option<u64>,
    /// State of the SHA-512 stored for this part.
    pub sha512: HashStatus,
    /// Parts of this part.
    pub components: Vec<Component>,
    /// Every digest or checksum stored for this part, checked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hashes: Vec<HashCheck>,
    /// Format-specific facts (headers, extensions, symbols...).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub details: Map<String, Value>,
    /// Things that look wrong but did not stop the walk.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl Component {
    /// A component with no address, no hash and no parts.
    pub fn new(name: impl Into<String>, format: impl Into<String>, offset: u64, size: u64) -> Self {
        Component {
            name: name.into(),
            format: format.into(),
            offset,
            size,
            load_addr: None,
            entry: None,
            sha512: HashStatus::Absent,
            components: Vec::new(),
            hashes: Vec::new(),
            details: Map::new(),
            warnings: Vec::new(),
        }
    }

    /// Set a detail value.
    pub fn detail(&mut self, key: &str, value: impl Into<Value>) {
        self.details.insert(key.to_string(), value.into());
    }

    /// Visit this component and all its descendants, depth first.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Component, usize)) {
        fn go<'a>(c: &'a Component, depth: usize, f: &mut dyn FnMut(&'a Component, usize)) {
            f(c, depth);
            for s in &c.components {
                go(s, depth + 1, f);
            }
        }
        go(self, 0, f);
    }

    /// Record a hash check; a SHA-512 check also sets [`Component::sha512`].
    pub fn add_hash(&mut self, check: HashCheck) {
        if check.algo == "sha512" {
            self.sha512 = if check.status == "ok" {
                HashStatus::Ok
            } else {
                HashStatus::Mismatch
            };
        }
        self.hashes.push(check);
    }
}

/// One inspected file: its path plus the root component (named after the file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Image {
    /// The path as given.
    pub path: String,
    /// The whole file as a component: `format`, `size`, `components`...
    #[serde(flatten)]
    pub root: Component,
}

/// The `inspect --format json` document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InspectReport {
    /// Always [`IMAGE_SCHEMA`].
    pub schema: String,
    /// One entry per file, in the order given.
    pub images: Vec<Image>,
}

impl InspectReport {
    /// Wrap inspected images in the versioned document.
    pub fn new(images: Vec<Image>) -> Self {
        InspectReport {
            schema: IMAGE_SCHEMA.to_string(),
            images,
        }
    }
}

/// What the container says a part is, when its bytes alone cannot tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Nothing known: detect from the bytes.
    None,
    /// A single TISCI board configuration (board/pm/rm/sec).
    Boardcfg,
    /// A combined board configuration (`combined-tifs-cfg.bin`, `combined-dm-cfg.bin`).
    BoardcfgCombined,
}

/// Formats `inspect` recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// ELF 32/64.
    Elf,
    /// DER X.509 certificate carrying TI extensions, then its payload.
    TiX509,
    /// Flattened image tree (FIT): an FDT with `/images`.
    Fit,
    /// A plain flattened device tree.
    Dtb,
    /// TI PDK multicore appimage (`MSTR`).
    Appimage,
    /// TI remoteproc image (`RPRC`).
    Rprc,
    /// Legacy U-Boot image.
    UImage,
    /// ARM64 Linux `Image`.
    Arm64Image,
    /// ARM 32-bit Linux `zImage`.
    ZImage,
    /// OMAP/AM335x boot image with a CH TOC (`MLO` as `mkimage -T omapimage` writes it).
    OmapImage,
    /// AM335x GP header image (`mkimage -T gpimage`).
    GpImage,
    /// Combined TISCI board configuration.
    BoardcfgCombined,
    /// Single TISCI board configuration.
    Boardcfg,
    /// Anything else.
    Raw,
}

impl Format {
    /// The name used in the JSON `format` field.
    pub fn name(self) -> &'static str {
        match self {
            Format::Elf => "elf",
            Format::TiX509 => "ti-x509",
            Format::Fit => "fit",
            Format::Dtb => "dtb",
            Format::Appimage => "ti-appimage",
            Format::Rprc => "rprc",
            Format::UImage => "uimage",
            Format::Arm64Image => "arm64-image",
            Format::ZImage => "zimage",
            Format::OmapImage => "omap-image",
            Format::GpImage => "ti-gp-image",
            Format::BoardcfgCombined => "ti-boardcfg-combined",
            Format::Boardcfg => "ti-boardcfg",
            Format::Raw => "raw",
        }
    }
}
