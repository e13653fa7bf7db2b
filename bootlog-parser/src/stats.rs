//! Statistics over many boots.
