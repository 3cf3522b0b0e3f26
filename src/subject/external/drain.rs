//! Asking a reader thread to pass on, now, everything its stream holds.
//!
//! When the engine is seen to have exited, all it ever wrote is in its pipes, but the
//! reader threads may not have passed it on yet. Waiting a while for the end of the
//! output would make what an error quotes depend on how fast the machine is, and on no
//! grandchild holding the pipe open. Instead each reader waits (`poll`) on its stream
//! and on a pipe of its own; a byte written there (a [`Waker`]) has it read its stream
//! until it would block and then say so. Where that cannot be set up (not Unix, or no
//! pipe to be had), the reader reads its stream blocking, as it did before, and cannot
//! be asked.

#[cfg(unix)]
mod imp {
    use nix::fcntl::{fcntl, FcntlArg, OFlag};
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use std::os::fd::{AsFd, OwnedFd};

    /// What a reader's stream must be to be waited on.
    pub(crate) trait Readable: AsFd {}
    impl<T: AsFd> Readable for T {}

    /// The asking end: one byte asks the reader to drain its stream.
    pub(crate) struct Waker(OwnedFd);

    /// The reader's end.
    pub(crate) struct Asked(Option<OwnedFd>);

    /// A waker and the reader's end for `stream`, which is made non-blocking; no waker
    /// when either cannot be done (the reader then reads `stream` blocking).
    pub(crate) fn asked_for(stream: &impl AsFd) -> (Option<Waker>, Asked) {
        let Ok((read, write)) = nix::unistd::pipe() else {
            return (None, Asked(None));
        };
        if non_blocking(&read).is_err() || non_blocking(stream).is_err() {
            return (None, Asked(None));
        }
        (Some(Waker(write)), Asked(Some(read)))
    }

    fn non_blocking(fd: &impl AsFd) -> nix::Result<()> {
        let flags = OFlag::from_bits_truncate(fcntl(fd, FcntlArg::F_GETFL)?);
        fcntl(fd, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK)).map(drop)
    }

    impl Waker {
        /// Asks the reader; whether it can still hear (its end is open).
        pub(crate) fn wake(&self) -> bool {
            nix::unistd::write(&self.0, &[1]).is_ok()
        }
    }

    impl Asked {
        /// Waits until `stream` has something to read, or has closed, or the reader is
        /// asked to drain it: `Ok(true)` for the last. Without a pipe, `Ok(false)` at
        /// once. `Err` when waiting is not possible.
        pub(crate) fn wait(&self, stream: &impl AsFd) -> Result<bool, ()> {
            let Some(asked) = &self.0 else {
                return Ok(false);
            };
            loop {
                let mut fds = [
                    PollFd::new(stream.as_fd(), PollFlags::POLLIN),
                    PollFd::new(asked.as_fd(), PollFlags::POLLIN),
                ];
                match poll(&mut fds, PollTimeout::NONE) {
                    Ok(_) => {}
                    Err(nix::errno::Errno::EINTR) => continue,
                    Err(_) => return Err(()),
                }
                let ready = |fd: &PollFd| fd.revents().is_some_and(|r| !r.is_empty());
                if ready(&fds[1]) {
                    let mut bytes = [0u8; 64];
                    // Non-blocking: however many asks came, they are one drain.
                    let _ = nix::unistd::read(asked, &mut bytes);
                    return Ok(true);
                }
                if ready(&fds[0]) {
                    return Ok(false);
                }
            }
        }
    }
}

#[cfg(not(unix))]
mod imp {
    /// Any stream: without Unix pipes to poll, a reader reads blocking.
    pub(crate) trait Readable {}
    impl<T> Readable for T {}

    /// Never made: a reader that reads blocking cannot be asked.
    pub(crate) struct Waker(std::convert::Infallible);

    /// Nothing to wait on.
    pub(crate) struct Asked;

    pub(crate) fn asked_for<T>(_stream: &T) -> (Option<Waker>, Asked) {
        (None, Asked)
    }

    impl Waker {
        pub(crate) fn wake(&self) -> bool {
            match self.0 {}
        }
    }

    impl Asked {
        pub(crate) fn wait<T>(&self, _stream: &T) -> Result<bool, ()> {
            Ok(false)
        }
    }
}

pub(crate) use imp::{asked_for, Asked, Readable, Waker};
