pub const NAME: &str = "sevenzip";
pub fn recognise(_t: &str) -> bool {
    false
}
pub fn parse(t: &str) -> Result<crate::Parsed, crate::Error> {
    Err(crate::Error::NotRecognised {
        tool: NAME,
        line: crate::text::first_line(t),
    })
}
