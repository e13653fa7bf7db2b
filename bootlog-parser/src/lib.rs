//! bootlog-parser: bytes of a console log in, a typed boot timeline out.
//!
//! Pure: no files, no processes, no clocks.
