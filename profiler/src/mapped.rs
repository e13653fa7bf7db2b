//! A regular file read through a read-only memory map, window by window.
//!
//! `perfguide parse` reads a log once, front to back. Reading it with read(2) copies every byte
//! from the page cache into a buffer first, a sixth of the parse time on the 100 MB bench log
//! (`scripts/bench-parse.sh`). A map lets the parser read the page cache directly. Each
//! window's pages are dropped from the mapping once parsed (`MADV_DONTNEED`), so the resident
//! set stays a window's size whatever the file's.
//!
//! The one hazard of a map: a file *truncated* by another process while it is being parsed
//! makes the next access to a page past the new end fault (SIGBUS), as with grep's or
//! ripgrep's maps. Console logs are appended to, not truncated; a file that is still growing
//! is parsed up to the size it had when opened. `PERFGUIDE_NO_MMAP=1` reads instead.

use std::fs::File;
use std::io;
use std::os::unix::io::AsRawFd;

/// A non-empty regular file mapped read-only (see the module comment).
pub struct MappedFile {
    ptr: *mut libc::c_void,
    len: usize,
}

impl MappedFile {
    /// Maps `file` when it is a non-empty regular file and mapping is not turned off;
    /// `Ok(None)` for pipes, terminals, empty or size-less files (those are read instead).
    pub fn map(file: &File) -> io::Result<Option<Self>> {
        if std::env::var_os("PERFGUIDE_NO_MMAP").is_some_and(|v| v != "0") {
            return Ok(None);
        }
        let meta = file.metadata()?;
        if !meta.is_file() || meta.len() == 0 {
            return Ok(None);
        }
        let Ok(len) = usize::try_from(meta.len()) else {
            return Ok(None);
        };
        // SAFETY: a fresh read-only private mapping of `len` bytes of an open descriptor; the
        // kernel chooses the address. Failure is reported as MAP_FAILED.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                file.as_raw_fd(),
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            // Some file systems cannot map: reading still works.
            return Ok(None);
        }
        // SAFETY: advice on the range just mapped; failure only loses the read-ahead hint.
        unsafe { libc::madvise(ptr, len, libc::MADV_SEQUENTIAL) };
        Ok(Some(MappedFile { ptr, len }))
    }

    /// The file's size when it was mapped.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the mapping is empty (never: empty files are not mapped).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Calls `f` on consecutive windows of at most `window` bytes (a multiple of the page size
    /// is best), dropping each window's pages from the mapping after `f` returns; stops at the
    /// first error `f` returns.
    pub fn for_each_window<E>(
        &self,
        window: usize,
        mut f: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let window = window.max(1);
        let mut at = 0;
        while at < self.len {
            let n = window.min(self.len - at);
            // SAFETY: `at + n <= len`, inside the mapping, which lives as long as `self`; the
            // pages are only read.
            let bytes = unsafe { std::slice::from_raw_parts((self.ptr as *const u8).add(at), n) };
            let r = f(bytes);
            self.release(at, n);
            r?;
            at += n;
        }
        Ok(())
    }

    /// Drops the whole pages of `[at, at + n)` from the mapping (they are read back from the
    /// page cache if touched again), keeping the resident set small.
    fn release(&self, at: usize, n: usize) {
        let page = page_size();
        let start = at.next_multiple_of(page);
        let end = (at + n) / page * page;
        if end > start {
            // SAFETY: a page-aligned range inside the mapping; no slice into it is alive
            // (`for_each_window` hands out one window at a time and it has returned).
            unsafe {
                libc::madvise(
                    (self.ptr as *mut u8).add(start).cast(),
                    end - start,
                    libc::MADV_DONTNEED,
                )
            };
        }
    }
}

impl Drop for MappedFile {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `map`, unmapped once.
        unsafe { libc::munmap(self.ptr, self.len) };
    }
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(p).ok().filter(|&p| p > 0).unwrap_or(4096)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn windows_of(bytes: &[u8], window: usize) -> Vec<Vec<u8>> {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(bytes).unwrap();
        f.flush().unwrap();
        let m = MappedFile::map(f.as_file())
            .unwrap()
            .expect("a regular file maps");
        assert_eq!(m.len(), bytes.len());
        let mut out = Vec::new();
        m.for_each_window(window, |w| {
            out.push(w.to_vec());
            Ok::<(), ()>(())
        })
        .unwrap();
        out
    }

    #[test]
    fn windows_cover_the_file_in_order() {
        let bytes: Vec<u8> = (0..3 * 4096 + 123).map(|i| (i * 7 % 251) as u8).collect();
        for window in [1, 100, 4096, 8192, 1 << 20] {
            let w = windows_of(&bytes, window);
            assert!(w.iter().all(|x| !x.is_empty() && x.len() <= window));
            assert_eq!(w.concat(), bytes, "window {window}");
        }
    }

    #[test]
    fn empty_files_and_pipes_are_not_mapped() {
        let f = tempfile::NamedTempFile::new().unwrap();
        assert!(MappedFile::map(f.as_file()).unwrap().is_none());
        let (r, _w) = std::os::unix::net::UnixStream::pair().unwrap();
        let fd: std::os::fd::OwnedFd = r.into();
        assert!(MappedFile::map(&File::from(fd)).unwrap().is_none());
    }

    #[test]
    fn an_error_stops_the_walk() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(&[b'x'; 10_000]).unwrap();
        let m = MappedFile::map(f.as_file()).unwrap().unwrap();
        let mut seen = 0;
        let r = m.for_each_window(4096, |_| {
            seen += 1;
            if seen == 2 {
                Err("stop")
            } else {
                Ok(())
            }
        });
        assert_eq!((r, seen), (Err("stop"), 2));
    }
}
