//! Reading and replacing files the way every layer must: inputs are regular files of
//! bounded size (a FIFO would block forever, `/dev/zero` would fill memory, a folder
//! named `*.txt` cannot be read), and a replaced file is written to a unique temporary
//! in its own folder and renamed over the old one, so a kill at any moment leaves the
//! old file or the new one, never a torn one, and no temporary behind. Only regular
//! files are replaced: a device or FIFO given as an output is written to, a symlink's
//! target is replaced (the link kept), and `-` is standard output. Files that are read
//! together are replaced together ([`replace_set`]). Waiting on a FIFO (for a reader to
//! open it, for room in it) ends when the run is asked to stop ([`stop_waiting_on`]).

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// One mebibyte, the unit of the limits below.
pub(crate) const MIB: u64 = 1 << 20;

/// A file that could not be read or written: the one error every layer gives for a
/// path, so each says "cannot read" or "cannot write" and the path the same way.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FileError {
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
pub(crate) fn irregular(kind: &std::fs::FileType) -> Option<&'static str> {
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
pub(crate) fn read(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
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
pub(crate) fn read_text(path: &Path, limit: u64) -> io::Result<String> {
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
pub(crate) fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    staged(path, bytes)?.commit()
}

/// `bytes` written to an [`Output`] for `path`, to be committed (several files can be
/// staged, then committed together); a temporary is removed when dropped unless
/// committed.
pub(crate) fn staged(path: &Path, bytes: &[u8]) -> io::Result<Output> {
    let mut out = Output::create(path)?;
    out.write_all(bytes)?;
    Ok(out)
}

/// Raised when the run is to stop: a wait on a FIFO gives up then. Set once, by
/// [`stop_waiting_on`].
static STOP: std::sync::OnceLock<&'static std::sync::atomic::AtomicBool> =
    std::sync::OnceLock::new();

/// From now on, waiting for a FIFO's reader, or for room in a FIFO, gives up within a
/// moment of `flag` going up (a signal's stop flag), with an error of kind
/// [`io::ErrorKind::Interrupted`]. Without it such a wait lasts until a reader comes.
pub(crate) fn stop_waiting_on(flag: &'static std::sync::atomic::AtomicBool) {
    let _ = STOP.set(flag);
}

/// Whether the run was asked to stop ([`stop_waiting_on`]).
#[cfg(unix)]
fn stop_asked() -> bool {
    STOP.get()
        .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
}

/// How often a wait on a FIFO looks at the stop flag.
#[cfg(unix)]
const FIFO_POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// The error a wait on a FIFO gives up with when the run is to stop.
#[cfg(unix)]
fn stopped_waiting(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::Interrupted,
        format!("stopped while waiting for {what}"),
    )
}

/// Opens a device, FIFO or socket for writing, without blocking: a FIFO nobody reads
/// is opened once a reader comes, looked for every [`FIFO_POLL`] until the run is asked
/// to stop. The file stays non-blocking; [`Output`]'s writes wait for room the same way.
#[cfg(unix)]
fn open_special(at: &Path) -> io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    loop {
        let opened = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
            .open(at);
        match opened {
            // ENXIO: a FIFO with no reader yet.
            Err(e) if e.raw_os_error() == Some(nix::libc::ENXIO) => {
                if stop_asked() {
                    return Err(stopped_waiting("a reader of the FIFO"));
                }
                std::thread::sleep(FIFO_POLL);
            }
            other => return other,
        }
    }
}

#[cfg(not(unix))]
fn open_special(at: &Path) -> io::Result<std::fs::File> {
    std::fs::OpenOptions::new().write(true).open(at)
}

/// Writes to a non-blocking special file: when it is full (a FIFO whose reader is
/// slow, or reads nothing), waits for room until the run is asked to stop.
fn write_special(f: &mut std::fs::File, buf: &[u8]) -> io::Result<usize> {
    loop {
        match f.write(buf) {
            #[cfg(unix)]
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
                use std::os::fd::AsFd;
                if stop_asked() {
                    return Err(stopped_waiting(
                        "room in the FIFO (its reader reads nothing)",
                    ));
                }
                let mut fds = [PollFd::new(f.as_fd(), PollFlags::POLLOUT)];
                let wait = u16::try_from(FIFO_POLL.as_millis()).unwrap_or(u16::MAX);
                match poll(&mut fds, PollTimeout::from(wait)) {
                    Ok(_) | Err(nix::errno::Errno::EINTR) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            other => return other,
        }
    }
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
pub(crate) struct Output {
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
    pub(crate) fn create(path: &Path) -> io::Result<Output> {
        let sink = match destination(path)? {
            Destination::Stdout => Sink::Stdout(io::stdout()),
            // Not truncated: a device has no length and a FIFO nothing to cut.
            Destination::Special(at) => Sink::Special(open_special(&at)?),
            Destination::Regular(target) => Sink::Staged {
                tmp: temporary_beside(&target)?,
                target,
            },
        };
        Ok(Output { sink })
    }

    /// Finishes the file: a temporary is flushed to disk and renamed over its target.
    pub(crate) fn commit(self) -> io::Result<()> {
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
            Sink::Special(f) => write_special(f, buf),
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

/// The name of the link in a set's folder that points at the set's current version.
fn set_link(set: &str) -> String {
    format!(".{set}")
}

/// The prefix of each of a set's version folders (`.report.xqdiff-XXXXXX`) and of every
/// temporary link it makes (`.report.xqdiff-XXXXXX.link`): what a killed run may leave,
/// and all a later run removes. The user's own files beside the set (`.report.md.swp`,
/// `.report.bak/`) never have this form.
#[cfg(unix)]
fn set_prefix(set: &str) -> String {
    format!(".{set}.xqdiff-")
}

/// The random part of those names: this many letters and digits.
#[cfg(unix)]
const SET_RANDOM: usize = 6;

/// Whether `name` is one of the names a save of `set` makes ([`set_prefix`]): the
/// prefix, [`SET_RANDOM`] letters and digits, and for a link `.link`.
#[cfg(unix)]
fn set_made(name: &std::ffi::OsStr, set: &str) -> Option<SetName> {
    let rest = name.to_str()?.strip_prefix(&set_prefix(set))?;
    let (random, kind) = match rest.strip_suffix(".link") {
        Some(random) => (random, SetName::Link),
        None => (rest, SetName::Version),
    };
    (random.len() == SET_RANDOM && random.bytes().all(|b| b.is_ascii_alphanumeric()))
        .then_some(kind)
}

/// What a name [`set_made`] recognises is.
#[cfg(unix)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SetName {
    /// A version folder.
    Version,
    /// A temporary link.
    Link,
}

/// Replaces the files `files` (name, bytes) in `dir` as one set: a kill at any moment
/// leaves every name reading the old set or every name reading the new one, never a
/// mix. Renaming is atomic for one name only, so on Unix the names are symlinks
/// (`report.json -> .report/report.json`) through one link, `.report`, to a hidden
/// folder holding the whole version (`.report.XXXXXX`); a new version is written into
/// a new folder and `.report` is swapped to it by one rename. Whatever a killed run
/// left (a version never swapped in, an old one not yet removed, an earlier version's
/// temporaries) is named as only a save names things ([`set_prefix`]) and is removed by
/// the next run into `dir`, which holds a lock on the folder so two runs never remove
/// each other's work; nothing else in `dir` is touched. A name
/// that is a regular file (a set written before the names were links) is turned into
/// its link first, pointing at a copy of the old set, so even that step is never a
/// mix. A name that is a device, a FIFO or a symlink to elsewhere is the user's: it is
/// written through as [`Output`] does, after the set, and is outside the promise.
/// Returns the paths of the names. Elsewhere than on Unix the names are replaced one
/// by one after all are written.
pub(crate) fn replace_set(
    dir: &Path,
    set: &str,
    files: &[(&str, &[u8])],
) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        set_unix::replace(dir, set, files)
    }
    #[cfg(not(unix))]
    {
        let mut staged = Vec::new();
        for (name, bytes) in files {
            staged.push((dir.join(name), self::staged(&dir.join(name), bytes)?));
        }
        let mut paths = Vec::new();
        for (path, out) in staged {
            out.commit()?;
            paths.push(path);
        }
        Ok(paths)
    }
}

#[cfg(unix)]
mod set_unix {
    use super::{set_link, set_made, set_prefix, SetName, SET_RANDOM};
    use std::ffi::OsString;
    use std::io::{self, Write};
    use std::os::unix::fs::symlink;
    use std::path::{Path, PathBuf};

    /// What a name in the set's folder is now.
    enum Name {
        /// A link into the current version: nothing to do.
        Linked,
        /// Missing, or a regular file: becomes a link.
        Plain,
        /// Anything else (a device, a FIFO, a link elsewhere): written through.
        Foreign,
    }

    fn name_state(dir: &Path, link: &str, name: &str) -> io::Result<Name> {
        let path = dir.join(name);
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Name::Plain),
            Err(e) => return Err(e),
        };
        if meta.file_type().is_symlink() {
            let ours = Path::new(link).join(name);
            return Ok(if std::fs::read_link(&path)? == ours {
                Name::Linked
            } else {
                Name::Foreign
            });
        }
        Ok(if meta.file_type().is_file() {
            Name::Plain
        } else {
            Name::Foreign
        })
    }

    pub(super) fn replace(
        dir: &Path,
        set: &str,
        files: &[(&str, &[u8])],
    ) -> io::Result<Vec<PathBuf>> {
        let _lock = nix::fcntl::Flock::lock(
            std::fs::File::open(dir)?,
            nix::fcntl::FlockArg::LockExclusive,
        )
        .map_err(|(_, e)| io::Error::from(e))?;
        let link = set_link(set);
        let current = current_version(dir, &link)?;
        sweep(dir, set, current.as_deref())?;

        let version = new_version(dir, set)?;
        for (i, (name, bytes)) in files.iter().enumerate() {
            let mut f = std::fs::File::create(version.path().join(name))?;
            f.write_all(bytes)?;
            f.sync_all()?;
            if i == 0 {
                pause("between-files");
            }
        }
        std::fs::File::open(version.path())?.sync_all()?;

        let mut states = Vec::new();
        for (name, _) in files {
            states.push(name_state(dir, &link, name)?);
        }
        let mut current = current;
        if states.iter().any(|s| matches!(s, Name::Plain)) {
            if current.is_none() {
                current = Some(adopt_plain_files(dir, set, files)?);
            }
            let mut first = true;
            for ((name, _), state) in files.iter().zip(&states) {
                if matches!(state, Name::Plain) {
                    swap_link(dir, set, &Path::new(&link).join(name), name)?;
                    if std::mem::take(&mut first) {
                        pause("between-links");
                    }
                }
            }
        }

        pause("before-swap");
        let kept = kept_name(version)?;
        swap_link(dir, set, Path::new(&kept), &link)?;
        std::fs::File::open(dir)?.sync_all()?;
        pause("after-swap");
        if let Some(old) = current {
            std::fs::remove_dir_all(dir.join(old))?;
        }

        let mut paths = Vec::new();
        for ((name, bytes), state) in files.iter().zip(&states) {
            let path = dir.join(name);
            if matches!(state, Name::Foreign) {
                super::replace(&path, bytes)?;
            }
            paths.push(path);
        }
        Ok(paths)
    }

    /// The version folder `.report` points at, if there is one. Anything but a link to
    /// a `.report.*` beside it is refused: the old version is removed after the swap,
    /// and a link edited by hand must not name what gets removed.
    fn current_version(dir: &Path, link: &str) -> io::Result<Option<OsString>> {
        let not_ours = || {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} is not the link to a {link}.* folder that xqdiff keeps there",
                    dir.join(link).display()
                ),
            )
        };
        match std::fs::read_link(dir.join(link)) {
            Ok(target) => {
                let name = target.as_os_str();
                if name.to_string_lossy().starts_with(&format!("{link}."))
                    && target.components().count() == 1
                {
                    Ok(Some(name.to_owned()))
                } else {
                    Err(not_ours())
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) if e.kind() == io::ErrorKind::InvalidInput => Err(not_ours()),
            Err(e) => Err(e),
        }
    }

    /// Removes what killed runs left: every version folder and temporary link a save
    /// of `set` made ([`set_made`], each of the type it was made as) but the current
    /// version. A file of the user's is never one of them, whatever its name begins
    /// with.
    fn sweep(dir: &Path, set: &str, current: Option<&std::ffi::OsStr>) -> io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name();
            if Some(name.as_os_str()) == current {
                continue;
            }
            let kind = entry.file_type()?;
            match set_made(&name, set) {
                Some(SetName::Version) if kind.is_dir() => std::fs::remove_dir_all(entry.path())?,
                Some(SetName::Link) if kind.is_symlink() => std::fs::remove_file(entry.path())?,
                _ => {}
            }
        }
        Ok(())
    }

    /// A new, empty version folder, readable as a plainly made folder is.
    fn new_version(dir: &Path, set: &str) -> io::Result<tempfile::TempDir> {
        use std::os::unix::fs::PermissionsExt;
        tempfile::Builder::new()
            .prefix(&set_prefix(set))
            .rand_bytes(SET_RANDOM)
            .permissions(std::fs::Permissions::from_mode(0o777))
            .tempdir_in(dir)
    }

    /// Makes `.report` point at a version holding the regular files the names are now
    /// (hard links, so nothing is copied), before the names become links: the set read
    /// through the names stays the old one while they change.
    fn adopt_plain_files(dir: &Path, set: &str, files: &[(&str, &[u8])]) -> io::Result<OsString> {
        let link = set_link(set);
        let old = new_version(dir, set)?;
        for (name, _) in files {
            let path = dir.join(name);
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file()) {
                std::fs::hard_link(&path, old.path().join(name))?;
            }
        }
        let kept = kept_name(old)?;
        swap_link(dir, set, Path::new(&kept), &link)?;
        Ok(kept)
    }

    /// Keeps a version folder (no longer removed when dropped) and gives its name.
    fn kept_name(version: tempfile::TempDir) -> io::Result<OsString> {
        let path = version.keep();
        path.file_name().map(ToOwned::to_owned).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} has no name", path.display()),
            )
        })
    }

    /// Points `dir/name` at `target` in one rename, through a link made beside it under
    /// a name the sweep removes.
    fn swap_link(dir: &Path, set: &str, target: &Path, name: &str) -> io::Result<()> {
        let tmp = tempfile::Builder::new()
            .prefix(&set_prefix(set))
            .rand_bytes(SET_RANDOM)
            .suffix(".link")
            .make_in(dir, |path| symlink(target, path))?;
        tmp.persist(dir.join(name)).map_err(|e| e.error)?;
        Ok(())
    }

    /// Test equipment: with `XQDIFF_PAUSE_SAVING=<step>` a build with the `planted`
    /// feature stops at that step of saving a set (says so on stderr, then sleeps), so
    /// a test can kill it there.
    #[cfg(feature = "planted")]
    fn pause(step: &str) {
        if std::env::var("XQDIFF_PAUSE_SAVING").is_ok_and(|s| s == step) {
            eprintln!("paused saving: {step}");
            std::thread::sleep(std::time::Duration::from_secs(120));
        }
    }

    #[cfg(not(feature = "planted"))]
    fn pause(_: &str) {}
}

/// Writes `bytes` to `path` atomically unless `path` exists; `Ok(false)` if it did.
/// Two writers of the same name never share a temporary, and neither replaces the
/// other's file.
pub(crate) fn create_new(path: &Path, bytes: &[u8]) -> io::Result<bool> {
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
pub(crate) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A unique temporary in `path`'s folder, named after it and hidden (a leading dot), so
/// loaders of the folder skip it; removed when dropped unless persisted. Its mode is
/// what a plain create would give (the umask applied), not a temporary's owner-only,
/// since it becomes the file others read.
pub(crate) fn temporary_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
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

    /// A set's names become links into one version; a name linked elsewhere is the
    /// user's and written through; a `.report` that is not a link to a version beside
    /// it is refused before anything is removed.
    #[cfg(unix)]
    #[test]
    fn a_set_is_swapped_whole_and_foreign_names_are_written_through() {
        let d = dir("set");
        std::fs::write(d.join("a.txt"), b"old").unwrap();
        std::os::unix::fs::symlink("elsewhere.txt", d.join("b.txt")).unwrap();
        let files: [(&str, &[u8]); 2] = [("a.txt", b"new a"), ("b.txt", b"new b")];
        replace_set(&d, "set", &files).unwrap();
        replace_set(&d, "set", &files).unwrap();
        assert_eq!(std::fs::read(d.join("a.txt")).unwrap(), b"new a");
        assert_eq!(
            std::fs::read_link(d.join("a.txt")).unwrap(),
            Path::new(".set/a.txt")
        );
        assert_eq!(std::fs::read(d.join("elsewhere.txt")).unwrap(), b"new b");
        let hidden = std::fs::read_dir(&d)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with('.')
            })
            .count();
        assert_eq!(hidden, 2, "the link and one version");
        std::fs::remove_file(d.join(".set")).unwrap();
        std::os::unix::fs::symlink("..", d.join(".set")).unwrap();
        let refused = replace_set(&d, "set", &files).unwrap_err();
        assert!(refused.to_string().contains("not the link"), "{refused}");
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
