//! sbl-instrument: boot image inspection and instrumentation.
