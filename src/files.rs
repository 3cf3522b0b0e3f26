//! Reading and replacing files the way every layer must: inputs are regular files of
//! bounded size (a FIFO would block forever, `/dev/zero` would fill memory, a folder
//! named `*.txt` cannot be read), and a replaced file is written to a unique temporary
//! in its own folder and renamed over the old one, so a kill at any moment leaves the
//! old file or the new one, never a torn one, and no temporary behind. Only regular
//! files are replaced: a device or FIFO given as an output is written to, a symlink's
//! target is replaced (the link kept), and `-` is standard output.

use std::io::{self, Read, Write};
use std::path::Path;

/// One mebibyte, the unit of the limits below.
pub const MIB: u64 = 1 << 20;

/// A file that could not be read or written: the one error every layer gives for a
/// path, so each says "cannot read" or "cannot write" and the path the same way.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// A file or directory that could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file or directory.
        path: std::path::PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// A file or directory that could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file or directory.
        path: std::path::PathBuf,
        /// The OS error.
        source: io::Error,
    },
}

/// What a file of type `kind` is, for a message, when it is not a regular file (a
/// FIFO, a device, a socket, a directory); `None` for a regular file.
pub fn irregular(kind: &std::fs::FileType) -> Option<&'static str> {
    if kind.is_file() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some(if kind.is_dir() {
        "a directory"
    } else {
        "something else"
    })
}

/// The bytes of `path`, which must be a regular file of at most `limit` bytes.
pub fn read(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)?;
    if let Some(what) = irregular(&meta.file_type()) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{what}, not a regular file"),
        ));
    }
    if meta.len() > limit {
        return Err(too_large(meta.len(), limit));
    }
    let mut bytes = Vec::new();
    // The size may have grown since the look above: read one byte past the limit to see.
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64, limit));
    }
    Ok(bytes)
}

/// The text of `path` (a regular file of at most `limit` bytes), as UTF-8.
pub fn read_text(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read(path, limit)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("not UTF-8 text: {e}")))
}

fn too_large(size: u64, limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{size} bytes or more, above the limit of {limit} for this kind of file"),
    )
}

/// Replaces `path` with `bytes` as [`Output`] does: atomically for a regular file, in
/// place for a device or FIFO, on stdout for `-`.
pub fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    staged(path, bytes)?.commit()
}

/// `bytes` written to an [`Output`] for `path`, to be committed (several files can be
/// staged, then committed together); a temporary is removed when dropped unless
/// committed.
pub fn staged(path: &Path, bytes: &[u8]) -> io::Result<Output> {
    let mut out = Output::create(path)?;
    out.write_all(bytes)?;
    Ok(out)
}

/// Where a written file really goes, decided once before writing.
enum Destination {
    /// `-`: standard output.
    Stdout,
    /// A device, FIFO or socket: written to, never replaced, since replacing it would
    /// turn `/dev/null` into a regular file (as root) or fail (as anyone else).
    Special(std::path::PathBuf),
    /// A regular file or a new name, after every symlink on the way is followed: the
    /// link stays, its target is replaced.
    Regular(std::path::PathBuf),
}

/// The most symlinks followed from one name, as the kernel's own limit.
const MAX_LINKS: usize = 40;

fn destination(path: &Path) -> io::Result<Destination> {
    if path.as_os_str() == "-" {
        return Ok(Destination::Stdout);
    }
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Destination::Regular(at)),
            Err(e) => return Err(e),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            // A relative target is relative to the link's own folder.
            let target = std::fs::read_link(&at)?;
            at = folder_of(&at).join(target);
            continue;
        }
        return match irregular(&kind) {
            None => Ok(Destination::Regular(at)),
            Some("a directory") => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a directory, not a file to write",
            )),
            Some(_) => Ok(Destination::Special(at)),
        };
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("more than {MAX_LINKS} symlinks in a row"),
    ))
}

/// A file being written. A regular file (or a new name) gets a unique temporary beside
/// it, renamed over it by [`commit`](Output::commit), so a kill at any moment leaves the
/// old file or the new one; a symlink's target is replaced, the link kept; a device or
/// FIFO is written to in place, never replaced; `-` is standard output. Dropped
/// uncommitted, a temporary is removed.
pub struct Output {
    sink: Sink,
}

enum Sink {
    Staged {
        tmp: tempfile::NamedTempFile,
        target: std::path::PathBuf,
    },
    Special(std::fs::File),
    Stdout(io::Stdout),
}

impl Output {
    /// Starts writing `path` (see [`Output`]).
    pub fn create(path: &Path) -> io::Result<Output> {
        let sink = match destination(path)? {
            Destination::Stdout => Sink::Stdout(io::stdout()),
            // Not truncated: a device has no length and a FIFO nothing to cut.
            Destination::Special(at) => {
                Sink::Special(std::fs::OpenOptions::new().write(true).open(at)?)
            }
            Destination::Regular(target) => Sink::Staged {
                tmp: temporary_beside(&target)?,
                target,
            },
        };
        Ok(Output { sink })
    }

    /// Finishes the file: a temporary is flushed to disk and renamed over its target.
    pub fn commit(self) -> io::Result<()> {
        match self.sink {
            Sink::Staged { mut tmp, target } => {
                tmp.flush()?;
                tmp.as_file().sync_all()?;
                tmp.persist(&target).map_err(|e| e.error)?;
                Ok(())
            }
            Sink::Special(mut f) => f.flush(),
            Sink::Stdout(mut s) => s.flush(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Staged { tmp, .. } => tmp.write(buf),
            Sink::Special(f) => f.write(buf),
            Sink::Stdout(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Staged { tmp, .. } => tmp.flush(),
            Sink::Special(f) => f.flush(),
            Sink::Stdout(s) => s.flush(),
        }
    }
}

/// Writes `bytes` to `path` atomically unless `path` exists; `Ok(false)` if it did.
/// Two writers of the same name never share a temporary, and neither replaces the
/// other's file.
pub fn create_new(path: &Path, bytes: &[u8]) -> io::Result<bool> {
    let mut tmp = temporary_beside(path)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    match tmp.persist_noclobber(path) {
        Ok(_) => Ok(true),
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e.error),
    }
}

/// The folder `path` is in (`.` for a bare name), where its temporaries go: a rename
/// is atomic only within one file system.
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A unique temporary in `path`'s folder, named after it and hidden (a leading dot), so
/// loaders of the folder skip it; removed when dropped unless persisted. Its mode is
/// what a plain create would give (the umask applied), not a temporary's owner-only,
/// since it becomes the file others read.
pub fn temporary_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(folder_of(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("xqdiff-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let d = dir("read");
        let small = d.join("small.txt");
        std::fs::write(&small, b"12345").unwrap();
        assert_eq!(read(&small, 5).unwrap(), b"12345");
        let big = read(&small, 4).unwrap_err();
        assert!(big.to_string().contains("limit"), "{big}");
        let folder = d.join("folder.txt");
        std::fs::create_dir(&folder).unwrap();
        assert!(read(&folder, MIB)
            .unwrap_err()
            .to_string()
            .contains("directory"));
        #[cfg(unix)]
        {
            let zero = read(Path::new("/dev/zero"), MIB).unwrap_err();
            assert!(zero.to_string().contains("device"), "{zero}");
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn replacing_leaves_the_new_file_and_no_temporary() {
        let d = dir("replace");
        let path = d.join("report.json");
        replace(&path, b"old").unwrap();
        replace(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert!(create_new(&d.join("case.txt"), b"a").unwrap());
        assert!(!create_new(&d.join("case.txt"), b"b").unwrap());
        assert_eq!(std::fs::read(d.join("case.txt")).unwrap(), b"a");
        let names: Vec<String> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        let _ = std::fs::remove_dir_all(&d);
    }

    /// A replaced or created file is readable as a plainly written one is: a
    /// temporary's owner-only mode would survive the rename and lock out others.
    #[cfg(unix)]
    #[test]
    fn written_files_get_the_mode_a_plain_create_gives() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir("mode");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        std::fs::write(d.join("plain"), b"x").unwrap();
        replace(&d.join("replaced"), b"x").unwrap();
        assert!(create_new(&d.join("created"), b"x").unwrap());
        let plain = mode(&d.join("plain"));
        assert_eq!(mode(&d.join("replaced")), plain);
        assert_eq!(mode(&d.join("created")), plain);
        let _ = std::fs::remove_dir_all(&d);
    }
}
