//! The lab: a board's power and console, and the processes behind them.
//!
//! The processes are [`crate::process`]'s (children in their own process group, argv
//! quoting, output tails).
//!
//! - [`console`]: the console trait and the serial, TCP and command consoles;
//! - [`telnet`]: the telnet layer of a network serial port (ser2net);
//! - [`latency`]: a USB serial adapter's latency timer, set to 1 ms;
//! - [`power`]: the power trait and the command (relay, PDU) driver;
//! - [`labgrid`]: a place in a labgrid farm: held for the run, its power and serial port;
//! - [`qemu`]: the QEMU board, a process per power-on and its serial console;
//! - [`target`]: the drivers a board profile names.

pub mod console;
pub mod labgrid;
pub mod latency;
pub mod power;
pub mod qemu;
pub mod target;
pub mod telnet;

pub use console::{Console, ConsoleError, ConsoleEvent, StreamConsole};
pub use power::{CommandPower, PowerDriver, PowerError};
pub use qemu::{QemuConsole, QemuPower};
pub use target::{Target, TargetError};
