//! What binman said about the blobs a build could not find: built with
//! `BINMAN_ALLOW_MISSING=1`, binman puts a fake blob in place of each external file it cannot
//! find (TI's SYSFW / TIFS, DM firmware, TF-A, OP-TEE) and says so per image; such an image is
//! complete in its layout but does not boot.

use serde::{Deserialize, Serialize};

/// The blobs binman could not find for one image.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageBlobs {
    /// The image (binman's node name: `tiboot3-am62x-gp-evm.bin`, `ti-spl`, ...).
    pub image: String,
    /// Files faked: what the image needs to boot (`ti-fs-firmware-am62x-gp.bin`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faked: Vec<String>,
    /// Required entries missing (`atf-bl31`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
    /// Optional entries missing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub optional: Vec<String>,
}

/// binman's missing-blob messages in a build's output, one entry per image, in order.
pub fn missing_blobs(output: &str) -> Vec<ImageBlobs> {
    let mut out: Vec<ImageBlobs> = Vec::new();
    for line in output.lines() {
        let Some(rest) = line.trim().strip_prefix("Image '") else {
            continue;
        };
        let Some((image, says)) = rest.split_once("' ") else {
            continue;
        };
        let Some((what, names)) = says.split_once(": ") else {
            continue;
        };
        let names = || names.split_whitespace().map(str::to_string);
        let i = match out.iter().position(|b| b.image == image) {
            Some(i) => i,
            None => {
                out.push(ImageBlobs {
                    image: image.to_string(),
                    ..Default::default()
                });
                out.len() - 1
            }
        };
        let e = &mut out[i];
        let list = if what.starts_with("has faked external blobs") {
            &mut e.faked
        } else if what.starts_with("is missing optional external blobs") {
            &mut e.optional
        } else if what.starts_with("is missing external blobs") {
            &mut e.missing
        } else {
            continue;
        };
        for n in names() {
            if !list.contains(&n) {
                list.push(n);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // binman's messages in an am62x_evm_a53 build of U-Boot 2025.01 with
    // BINMAN_ALLOW_MISSING=1 and no firmware.
    const OUT: &str = "\
Image 'ti-dm' has faked external blobs and is non-functional: ipc_echo_testb_mcu1_0_release_strip.xer5f

Image 'ti-dm' is missing optional external blobs but is still functional: blob-ext

/binman/ti-dm/blob-ext (ti-dm/am62xx/ipc_echo_testb_mcu1_0_release_strip.xer5f):
   Missing blob
Image 'ti-spl' is missing external blobs and is non-functional: atf-bl31
Image 'ti-spl' has faked external blobs and is non-functional: atf-bl31 tee-os
Image 'ti-spl' is missing optional external blobs but is still functional: tee-os
Some images are invalid
";

    #[test]
    fn reads_binman_messages() {
        let b = missing_blobs(OUT);
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].image, "ti-dm");
        assert_eq!(b[0].faked, ["ipc_echo_testb_mcu1_0_release_strip.xer5f"]);
        assert_eq!(b[0].optional, ["blob-ext"]);
        assert!(b[0].missing.is_empty());
        assert_eq!(b[1].image, "ti-spl");
        assert_eq!(b[1].missing, ["atf-bl31"]);
        assert_eq!(b[1].faked, ["atf-bl31", "tee-os"]);
        assert_eq!(b[1].optional, ["tee-os"]);
        assert!(missing_blobs("nothing to say\n").is_empty());
    }
}
