//! 7-Zip's `7z b` LZMA benchmark: the rating (MIPS) per dictionary size, the
//! `Avr:` compressing/decompressing ratings and the `Tot:` rating.

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{self, lines, numbers};

pub const NAME: &str = "7zip";
const BENCHMARK: &str = "7zip/b";
pub const COMPRESSING: &str = "compressing_rating";
pub const DECOMPRESSING: &str = "decompressing_rating";
pub const TOTAL: &str = "total_rating";

pub fn recognise(text: &str) -> bool {
    text.contains("Decompressing") && (text.contains("Avr:") || text.contains("R/U"))
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let last = text::last_line(text);
    let mut rows = 0;
    let mut total = false;
    for (no, line) in lines(text) {
        let t = line.trim();
        let Some((head, rest)) = t.split_once(':') else {
            continue;
        };
        let (left, right) = rest.split_once('|').unwrap_or((rest, ""));
        let (l, r) = (numbers(left), numbers(right));
        match head {
            "Avr" if l.len() == 3 && r.len() == 3 => {
                out.push(BENCHMARK, COMPRESSING, l[2], unit::MIPS, Better::Higher, no);
                out.push(
                    BENCHMARK,
                    DECOMPRESSING,
                    r[2],
                    unit::MIPS,
                    Better::Higher,
                    no,
                );
            }
            "Tot" if l.len() == 3 => {
                out.push(BENCHMARK, TOTAL, l[2], unit::MIPS, Better::Higher, no);
                total = true;
            }
            d if d.bytes().all(|b| b.is_ascii_digit()) && !d.is_empty() && l.len() == 4 => {
                out.push(
                    BENCHMARK,
                    &format!("{COMPRESSING}-{d}"),
                    l[3],
                    unit::MIPS,
                    Better::Higher,
                    no,
                );
                if r.len() == 4 {
                    out.push(
                        BENCHMARK,
                        &format!("{DECOMPRESSING}-{d}"),
                        r[3],
                        unit::MIPS,
                        Better::Higher,
                        no,
                    );
                }
                rows += 1;
            }
            _ => {}
        }
    }
    if rows > 0 && !total {
        out.truncated(last, "the Tot: line");
    }
    out.finish(text)
}
