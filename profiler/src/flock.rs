//! Advisory whole-file locks with flock(2), as std's `File::lock`, `File::try_lock` and
//! `File::lock_shared` do on Unix (those need Rust 1.89; the workspace builds with 1.75).
//! A lock is released when the file (every descriptor sharing its open file description)
//! is closed.

use std::fs::File;
use std::io;
use std::os::unix::io::AsRawFd;

fn flock(file: &File, op: libc::c_int) -> io::Result<()> {
    // SAFETY: flock takes a descriptor and flags; `file` keeps the descriptor open.
    if unsafe { libc::flock(file.as_raw_fd(), op) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Blocks until `file` is locked exclusively.
pub fn lock_exclusive(file: &File) -> io::Result<()> {
    flock(file, libc::LOCK_EX)
}

/// Blocks until `file` is locked shared (no exclusive holder).
pub fn lock_shared(file: &File) -> io::Result<()> {
    flock(file, libc::LOCK_SH)
}

/// Locks `file` exclusively if no one else holds it: `Ok(false)` when another holder has it.
pub fn try_lock_exclusive(file: &File) -> io::Result<bool> {
    match flock(file, libc::LOCK_EX | libc::LOCK_NB) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(path: &std::path::Path) -> File {
        File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .unwrap()
    }

    #[test]
    fn exclusive_excludes_until_closed() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("lock");
        let a = open(&p);
        let b = open(&p);
        assert!(try_lock_exclusive(&a).unwrap());
        // flock locks belong to the open file description: a second open() contends.
        assert!(!try_lock_exclusive(&b).unwrap());
        drop(a);
        assert!(try_lock_exclusive(&b).unwrap());
    }

    #[test]
    fn shared_holders_exclude_an_exclusive_one() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("lock");
        let (a, b, c) = (open(&p), open(&p), open(&p));
        lock_shared(&a).unwrap();
        lock_shared(&b).unwrap();
        assert!(!try_lock_exclusive(&c).unwrap());
        drop((a, b));
        lock_exclusive(&c).unwrap();
    }
}
