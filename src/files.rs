//! Reading and replacing files the way every layer must: inputs are regular files of
//! bounded size (a FIFO would block forever, `/dev/zero` would fill memory, a folder
//! named `*.txt` cannot be read), and a replaced file is written to a unique temporary
//! in its own folder and renamed over the old one, so a kill at any moment leaves the
//! old file or the new one, never a torn one, and no temporary behind.

use std::io::{self, Read, Write};
use std::path::Path;

/// One mebibyte, the unit of the limits below.
pub const MIB: u64 = 1 << 20;

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

/// Replaces `path` with `bytes` atomically: a unique temporary in the same folder,
/// flushed, then renamed over `path`. The temporary is removed if anything fails.
pub fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    staged(path, bytes)?.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// `bytes` written and flushed to a unique temporary beside `path`, to be persisted
/// onto it (several files can be staged, then renamed together); removed when dropped
/// unless persisted.
pub fn staged(path: &Path, bytes: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let mut tmp = temporary_beside(path)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

/// Writes `bytes` to `path` atomically unless `path` exists; `Ok(false)` if it did.
/// Two writers of the same name never share a temporary, and neither replaces the
/// other's file.
pub fn create_new(path: &Path, bytes: &[u8]) -> io::Result<bool> {
    match staged(path, bytes)?.persist_noclobber(path) {
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
