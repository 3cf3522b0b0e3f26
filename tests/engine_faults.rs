//! Engines that try to outlast or outgrow xqdiff, or to outlive it: endless output, an
//! endless line, an answer that never ends though every line of it is progress; a
//! wrapper script without `exec`, a helper started in the background, a grandchild
//! holding the pipe after the engine died; a signal to `xqdiff engine` while the engine
//! is mid-answer. Each must end in time, in little memory, and leave no process of its
//! run behind.
//!
//! The cases use only what any version of the driver has (`ExternalEngine::start`, the
//! error's variant read from its `Debug` text), so they also run against a driver
//! without the limits, and fail there.

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};
use xqdiff::subject::external::{
    split_command, EngineConfig, ExternalEngine, FenLetters, Protocol, Ranks,
};
use xqdiff::subject::{Subject, SubjectError};
use xqdiff::{Move, Position};

mod util;
use util::{cpu_time, exited, gone, wait_until, Scratch, PATIENCE, XQDIFF};

/// The most a case may use, in kB of resident memory (the acceptance bound, 200 MB).
const MAX_KB: u64 = 200 * 1000;

/// A field of `/proc/PID/status` in kB (`VmHWM`, `VmRSS`).
fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The variant of a driver error, read from its `Debug` text.
fn variant(e: &SubjectError) -> String {
    let debug = format!("{e:?}");
    debug
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("")
        .to_string()
}

/// Runs `check` on every case, each to its end even when one fails, then fails naming
/// every case that did (each one's own message is printed as it fails). With
/// `XQDIFF_FAULT_CASE` set, only the cases whose name contains it run: a driver that
/// fails one case by hanging or growing fails the next ones too, so each is best seen
/// alone.
fn each<T>(cases: impl IntoIterator<Item = (String, T)>, check: impl Fn(&str, T)) {
    let only = std::env::var("XQDIFF_FAULT_CASE").unwrap_or_default();
    let failed: Vec<String> = cases
        .into_iter()
        .filter(|(name, _)| name.contains(&only))
        .filter_map(|(name, case)| {
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                check(&name, case);
            }));
            ran.is_err().then_some(name)
        })
        .collect();
    assert!(failed.is_empty(), "failed: {failed:?}");
}

fn config(command: String, protocol: Protocol, timeout: Duration) -> EngineConfig {
    EngineConfig {
        command,
        protocol,
        options: Vec::new(),
        ranks: Ranks::Auto,
        fen_letters: FenLetters::Auto,
        timeout,
        start_timeout: None,
    }
}

/// Where a case's fault shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// `ExternalEngine::start` fails.
    Start,
    /// Start succeeds; perft 2 after h2e2 from the start position fails.
    Question,
}

/// Starts the engine and, for [`Phase::Question`], asks one question; the error, how
/// long the failing call took, and the PID of the engine's direct child when it started.
/// On a thread watched from here, so a driver that hangs (no error within
/// [`PATIENCE`]), or that lets the test's memory grow past [`MAX_KB`] more, fails the
/// case (after its processes are killed) instead of the whole run.
fn run_case(
    scratch: &Scratch,
    name: &str,
    config: EngineConfig,
    phase: Phase,
) -> (SubjectError, Duration, Option<u32>) {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let t = Instant::now();
        let outcome = match ExternalEngine::start(&config) {
            Err(e) => Err((e, t.elapsed(), None)),
            Ok(mut engine) => {
                let pid = engine.pid();
                let t = Instant::now();
                let h2e2: Move = "h2e2".parse().expect("a move");
                let asked = engine.divide(&Position::startpos(), &[h2e2], 2);
                let took = t.elapsed();
                drop(engine);
                match asked {
                    Err(e) => Err((e, took, Some(pid))),
                    Ok(d) => Ok(d.total),
                }
            }
        };
        let _ = tx.send(outcome);
    });
    let started = Instant::now();
    let base = status_kb(std::process::id(), "VmRSS:").unwrap_or(0);
    loop {
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(Ok(total)) => panic!("{name}: answered {total} instead of failing"),
            Ok(Err((e, took, pid))) => {
                let started_ok = pid.is_some();
                assert_eq!(
                    started_ok,
                    phase == Phase::Question,
                    "{name}: failed {} start-up: {e}",
                    if started_ok { "after" } else { "during" }
                );
                return (e, took, pid);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{name}: the driver panicked"),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let grown = status_kb(std::process::id(), "VmRSS:")
            .unwrap_or(0)
            .saturating_sub(base);
        if started.elapsed() > PATIENCE || grown > MAX_KB {
            scratch.kill_leftovers();
            panic!(
                "{name}: no error after {:.1?} ({grown} kB more memory)",
                started.elapsed()
            );
        }
    }
}

/// An engine that floods an answer, and what must stop it.
struct Flood {
    name: &'static str,
    protocol: Protocol,
    /// The test engine's switches.
    switches: String,
    timeout: Duration,
    phase: Phase,
    /// A phrase the error must contain.
    says: &'static str,
}

/// A UCI engine that floods its first answer after start-up, with a 60 s timeout: a
/// limit of the answer's size must stop it, never the timeout.
fn flood(name: &'static str, switches: impl Into<String>, says: &'static str) -> Flood {
    Flood {
        name,
        protocol: Protocol::Uci,
        switches: switches.into(),
        timeout: Duration::from_secs(60),
        phase: Phase::Question,
        says,
    }
}

const TOO_MANY_LINES: &str = "more than 100000 lines";

/// An engine that prints without end, or an answer that never ends, is cut off by a
/// limit of one answer, not by the timeout: lines, bytes, the longest line, the whole
/// answer's deadline (10 timeouts). Chatter from the very first line, mid-answer
/// chatter, endless count lines (each of them progress) in UCI and xboard, one
/// endless line, long lines, a slow trickle of count lines (a line every 20 ms, each
/// within a timeout of a second however busy the machine, until ten timeouts have
/// passed).
#[test]
fn endless_output_is_cut_off_by_the_limits_of_an_answer() {
    let long = format!("info string {}", "x".repeat(1000));
    #[rustfmt::skip]
    let cases = [
        Flood { phase: Phase::Start,
            ..flood("chatter from the first line", "--spam-after 0", TOO_MANY_LINES) },
        flood("chatter mid-answer", "--spam-after 8", TOO_MANY_LINES),
        flood("endless counts (uci)", "--spam-after 8 --spam-line 'h2e2: 1'", TOO_MANY_LINES),
        Flood { protocol: Protocol::Xboard,
            ..flood("endless counts (xboard)",
                "--protocol xboard --spam-after 14 --spam-line '  Ch2-e2 1 1'", TOO_MANY_LINES) },
        flood("one endless line", "--spam-after 8 --spam-unbroken --spam-line x",
            "a line longer than 65536 bytes on its stdout"),
        flood("long lines", format!("--spam-after 8 --spam-line '{long}'"),
            "more than 16777216 bytes"),
        Flood { timeout: Duration::from_secs(1),
            ..flood("a slow trickle of counts",
                "--spam-after 8 --spam-line 'h2e2: 1' --spam-interval 20", "10 times the timeout") },
    ];
    each(cases.map(|c| (c.name.to_string(), c)), |name, c| {
        let scratch = Scratch::new(name);
        let command = scratch.engine("engine", &c.switches);
        let config = config(command, c.protocol, c.timeout);
        let (e, took, _) = run_case(&scratch, name, config, c.phase);
        let text = e.to_string();
        println!("{name}: {} in {took:.2?}: {text}", variant(&e));
        assert_eq!(variant(&e), "Overrun", "{name}: {text}");
        assert!(text.contains(c.says), "{name}: {text:?} lacks {:?}", c.says);
        assert!(!text.contains('\n'), "{name}: not one line: {text:?}");
        let pid = scratch.pid("engine").expect("the engine wrote its pid");
        assert!(gone(pid), "{name}: engine {pid} is still there");
        scratch.assert_clean(name);
    });
}

/// Whatever the engine starts goes with it: the engine behind a wrapper script without
/// `exec`, a helper it started in the background, a grandchild that holds the pipe
/// after the engine crashed (seen at once, not after the timeout), and a wrapper
/// killed while the engine it started would go on answering (never an answer).
#[test]
fn everything_an_engine_starts_goes_with_it() {
    let cases: [(&str, Case); 3] = [
        ("a wrapper without exec", wrapper_without_exec),
        (
            "a crash while a helper holds the pipe",
            helper_holds_the_pipe,
        ),
        ("a killed wrapper", killed_wrapper),
    ];
    each(cases.map(|(name, f)| (name.to_string(), f)), |name, f| {
        f(name)
    });
}

/// One case of a test, run by its name.
type Case = fn(&str);

/// A wrapper without exec around an engine that hangs once asked perft: the first
/// perft of its start is its fourth command.
fn wrapper_without_exec(case: &str) {
    let timeout = Duration::from_secs(1);
    let scratch = Scratch::new(case);
    let wrapper = scratch.script("engine.sh", &scratch.engine("engine", "--hang-after 3"));
    let (e, _, _) = run_case(
        &scratch,
        case,
        config(wrapper, Protocol::Uci, timeout),
        Phase::Start,
    );
    assert_eq!(variant(&e), "Timeout", "{case}: {e}");
    scratch.assert_clean(case);
}

/// A helper in the background, holding stdout, beside an engine that crashes when
/// asked: the crash is seen at once although the pipe stays open, long before the
/// timeout (half of it is time enough on any machine).
fn helper_holds_the_pipe(case: &str) {
    let timeout = Duration::from_secs(60);
    let scratch = Scratch::new(case);
    let body = format!(
        "{} &\nexec {}",
        scratch.engine("helper", "--hang-after 0"),
        scratch.engine("engine", "--crash-after 8")
    );
    let script = scratch.script("engine.sh", &body);
    let (e, took, _) = run_case(
        &scratch,
        case,
        config(script, Protocol::Uci, timeout),
        Phase::Question,
    );
    assert_eq!(variant(&e), "Exited", "{case}: {e}");
    assert!(e.to_string().contains("exit status: 3"), "{case}: {e}");
    assert!(took < timeout / 2, "{case}: took {took:?}");
    scratch.assert_clean(case);
}

/// A wrapper without exec, killed after start-up: the engine under it would still
/// answer on the inherited pipe, but it is not the process xqdiff started.
fn killed_wrapper(case: &str) {
    let scratch = Scratch::new(case);
    let wrapper = scratch.script("engine.sh", &scratch.engine("engine", ""));
    let started = ExternalEngine::start(&config(wrapper, Protocol::Uci, Duration::from_secs(30)));
    let mut engine = started.unwrap_or_else(|e| panic!("{case}: {e}"));
    let wrapper_pid = engine.pid();
    kill(
        Pid::from_raw(i32::try_from(wrapper_pid).expect("a pid")),
        Signal::SIGKILL,
    )
    .expect("kill the wrapper");
    wait_until(&format!("{case}: the wrapper dying"), || {
        exited(wrapper_pid)
    });
    let asked = engine.divide(&Position::startpos(), &[], 1);
    drop(engine);
    match asked {
        Ok(d) => panic!("{case}: {} taken for an answer", d.total),
        Err(e) => assert_eq!(variant(&e), "Exited", "{case}: {e}"),
    }
    assert!(gone(wrapper_pid), "{case}: the wrapper was not reaped");
    scratch.assert_clean(case);
}

/// `xqdiff engine` against `cmd` with `extra` flags, its output read on threads while
/// its peak memory is sampled; the exit code (`None`: killed by a signal), stdout,
/// stderr, how long it ran and its peak resident memory in kB. Past [`PATIENCE`], or
/// past [`MAX_KB`], it is killed and the case fails.
fn xqdiff_engine(
    scratch: &Scratch,
    case: &str,
    cmd: &str,
    extra: &[&str],
) -> (Option<i32>, String, String, Duration, u64) {
    let corpus = scratch.path("corpus");
    std::fs::create_dir_all(&corpus).expect("corpus folder");
    let started = Instant::now();
    let child = Command::new(XQDIFF)
        .args(["engine", "--cmd", cmd, "--seed", "7", "--no-save"])
        .args(["--corpus", &corpus])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run xqdiff");
    watch(scratch, case, child, started, |_| {})
}

/// Waits for `child` (an `xqdiff` run), reading its output and sampling its peak
/// memory; `poke` is called on each sample with the time since `started`. Past
/// [`PATIENCE`] it is killed and the case fails.
fn watch(
    scratch: &Scratch,
    case: &str,
    mut child: Child,
    started: Instant,
    mut poke: impl FnMut(Duration),
) -> (Option<i32>, String, String, Duration, u64) {
    let read = |stream: Option<Box<dyn std::io::Read + Send>>| {
        thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut s) = stream {
                let _ = s.read_to_string(&mut text);
            }
            text
        })
    };
    let out = read(child.stdout.take().map(|s| Box::new(s) as _));
    let err = read(child.stderr.take().map(|s| Box::new(s) as _));
    let pid = child.id();
    let mut peak = 0;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for xqdiff") {
            break status;
        }
        peak = peak.max(status_kb(pid, "VmHWM:").unwrap_or(0));
        if started.elapsed() > PATIENCE || peak > MAX_KB {
            let _ = child.kill();
            let _ = child.wait();
            scratch.kill_leftovers();
            panic!(
                "{case}: xqdiff still running after {:.1?} with {peak} kB at its peak",
                started.elapsed()
            );
        }
        poke(started.elapsed());
        thread::sleep(Duration::from_millis(10));
    };
    let took = started.elapsed();
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    (status.code(), stdout, stderr, took, peak)
}

/// The acceptance case: endless output, from a shell script or from the test engine
/// mid-check, with `--timeout 30`, is exit 2 with a one-line message saying a limit was
/// overrun (not the timeout), in under 200 MB, and nothing of the engine is left.
#[test]
fn endless_output_ends_xqdiff_engine_in_seconds_and_small() {
    let scratch = Scratch::new("cli endless");
    let cases = [
        ("yes", scratch.script("yes.sh", "exec yes 'info string x'")),
        (
            "a shell loop",
            scratch.script("loop.sh", "while :; do echo 'info string x'; done"),
        ),
        (
            "counts mid-check",
            scratch.engine("counts", "--spam-after 8 --spam-line 'h2e2: 1'"),
        ),
        (
            "chatter mid-check",
            scratch.engine("chatter", "--spam-after 8"),
        ),
    ];
    let cases = cases.map(|(case, cmd)| (case.to_string(), cmd));
    each(cases, |case, cmd| {
        let (code, _, stderr, took, peak) =
            xqdiff_engine(&scratch, case, &cmd, &["--timeout", "30"]);
        println!("{case}: exit {code:?} in {took:.2?}, peak {peak} kB: {stderr}");
        assert_eq!(code, Some(2), "{case}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{case}: {stderr}");
        assert!(stderr.contains("overran a limit"), "{case}: {stderr}");
        assert!(peak < MAX_KB, "{case}: {peak} kB");
        scratch.assert_clean(case);
    });
}

/// SIGTERM, SIGHUP or SIGINT while the engine is mid-answer (hanging behind a wrapper
/// without exec, trickling counts that are each progress) or still starting (no
/// handshake) ends `xqdiff engine` at once with 128 + the signal, and the engine's
/// whole group with it: well before the timeout of 120 s (a sixth of it is time enough
/// on any machine), where it would end if it waited the question out.
#[test]
fn a_signal_mid_answer_ends_xqdiff_and_the_engine_at_once() {
    let scratch = Scratch::new("cli signal");
    let cases = [
        (
            "hanging behind a wrapper",
            scratch.script("hang.sh", &scratch.engine("hang", "--hang-after 8")),
            "hang",
            Signal::SIGTERM,
        ),
        (
            "trickling counts",
            scratch.engine(
                "trickle",
                "--spam-after 8 --spam-line 'h2e2: 1' --spam-interval 50",
            ),
            "trickle",
            Signal::SIGINT,
        ),
        (
            "no handshake",
            scratch.engine("mute", "--no-handshake"),
            "mute",
            Signal::SIGHUP,
        ),
    ];
    let cases = cases.map(|(case, cmd, pid, signal)| (case.to_string(), (cmd, pid, signal)));
    each(cases, |case, (cmd, pid_name, signal)| {
        let corpus = scratch.path("corpus");
        std::fs::create_dir_all(&corpus).expect("corpus folder");
        let started = Instant::now();
        let child = Command::new(XQDIFF)
            .args(["engine", "--cmd", &cmd, "--seed", "7", "--no-save"])
            .args(["--timeout", "120", "--suite", "none", "--positions", "3"])
            .args(["--corpus", &corpus])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run xqdiff");
        let xqdiff = Pid::from_raw(i32::try_from(child.id()).expect("a pid"));
        // Signalled once the engine has begun its fault: mid-answer, or mid-handshake.
        let mut sent = None;
        let (code, _, stderr, took, _) = watch(&scratch, case, child, started, |at| {
            if sent.is_none() && scratch.logged(pid_name, "fault ") {
                kill(xqdiff, signal).expect("signal xqdiff");
                sent = Some(at);
            }
        });
        let sent = sent.expect("the engine started and xqdiff was signalled");
        let after = took.saturating_sub(sent);
        println!("{case}: exit {code:?} {after:.2?} after {signal}: {stderr}");
        assert_eq!(code, Some(128 + signal as i32), "{case}: {stderr}");
        assert!(after < Duration::from_secs(20), "{case}: took {after:?}");
        scratch.assert_clean(case);
    });
}

/// A helper the engine starts in the background (holding its pipe) is ended with it,
/// also when the engine agrees and the run is a success.
#[test]
fn a_background_helper_goes_with_an_agreeing_engine() {
    let scratch = Scratch::new("cli helper");
    // The engine starts once the helper is up: a run that ends before the helper
    // started would have nothing to end, on a busy machine.
    let body = format!(
        "{} &\nuntil [ -s '{}' ]; do sleep 0.01; done\nexec {}",
        scratch.engine("helper", "--hang-after 0"),
        scratch.path("helper.pid"),
        scratch.engine("engine", "")
    );
    let script = scratch.script("engine.sh", &body);
    let case = "a background helper";
    let (code, stdout, stderr, _, _) = xqdiff_engine(
        &scratch,
        case,
        &script,
        &["--suite", "none", "--positions", "2", "--depth", "2"],
    );
    assert_eq!(code, Some(0), "{case}: {stdout}{stderr}");
    assert!(stdout.contains("agreement"), "{case}: {stdout}");
    assert!(
        scratch.pid("helper").is_some(),
        "{case}: the helper never ran"
    );
    scratch.assert_clean(case);
}

/// The leftover check must see a leftover, or every case above passes vacuously.
#[test]
fn scratch_sees_its_own_processes() {
    let scratch = Scratch::new("self check");
    let words = split_command(&scratch.engine("sleeper", "--hang-after 0")).expect("words");
    let mut child = Command::new(&words[0])
        .args(&words[1..])
        .spawn()
        .expect("run the test engine");
    // Seen once it runs with its command line (written as it starts).
    scratch.wait_logged("sleeper", "fault hang");
    let left = scratch.leftovers();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        left.iter().any(|&(pid, _)| pid == child.id()),
        "a running engine was not seen: {left:?}"
    );
    scratch.assert_clean("self check");
}

/// A wrapper that starts a helper (the test engine, hanging) in a session of its own,
/// waits until the helper runs, then execs the engine with `switches`; its path.
fn setsid_wrapper(scratch: &Scratch, switches: &str) -> String {
    let body = format!(
        "setsid {} &\nwhile [ ! -s '{}' ]; do sleep 0.05; done\nexec {}",
        scratch.engine("helper", "--hang-after 0"),
        scratch.path("helper.pid"),
        scratch.engine("engine", switches)
    );
    scratch.script("engine.sh", &body)
}

/// Issue 26, case 4: a helper the engine starts in a session of its own (`setsid`), out
/// of reach of any signal to the engine's group, is still ended with the run, also
/// when the run is a success.
#[test]
fn a_helper_in_a_session_of_its_own_goes_with_the_engine() {
    let scratch = Scratch::new("cli setsid helper");
    // The engine starts only once the helper runs, so the helper is there to be ended.
    let script = setsid_wrapper(&scratch, "");
    let case = "a helper in its own session";
    let (code, stdout, stderr, _, _) = xqdiff_engine(
        &scratch,
        case,
        &script,
        &["--suite", "none", "--positions", "2", "--depth", "2"],
    );
    assert_eq!(code, Some(0), "{case}: {stdout}{stderr}");
    assert!(
        scratch.pid("helper").is_some(),
        "{case}: the helper never ran"
    );
    scratch.assert_clean(case);
}

/// Issue 26, case 3: the engine dies with xqdiff however xqdiff ends: SIGKILL, which no
/// handler hears, and two stop signals back to back, the second of which ends xqdiff
/// the default way.
#[test]
fn the_engine_dies_with_xqdiff_whatever_kills_it() {
    let cases: [(&str, &[Signal]); 2] = [
        ("sigkill", &[Signal::SIGKILL]),
        ("sigterm then sigint", &[Signal::SIGTERM, Signal::SIGINT]),
    ];
    each(
        cases.map(|(case, signals)| (case.to_string(), signals)),
        |case, signals| {
            let scratch = Scratch::new(case);
            // Hangs once asked its first perft, so it is alive when xqdiff is killed.
            let cmd = scratch.engine("engine", "--hang-after 3");
            let mut child = Command::new(XQDIFF)
                .args(["engine", "--cmd", &cmd, "--seed", "7", "--no-save"])
                .args(["--timeout", "60", "--suite", "none", "--positions", "1"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("run xqdiff");
            scratch.wait_logged("engine", "fault hang");
            let engine = scratch.pid("engine").expect("the engine wrote its pid");
            let xqdiff = Pid::from_raw(i32::try_from(child.id()).expect("a pid"));
            for &signal in signals {
                kill(xqdiff, signal).expect("signal xqdiff");
                thread::sleep(Duration::from_millis(50));
            }
            let _ = child.wait();
            assert!(goes_soon(engine), "{case}: engine {engine} outlived xqdiff");
            scratch.assert_clean(case);
        },
    );
}

/// Whether `pid` goes, within [`PATIENCE`]; reaps it if it comes to this process.
fn goes_soon(pid: u32) -> bool {
    let until = Instant::now() + PATIENCE;
    while !gone(pid) && Instant::now() < until {
        // Other cases here drive engines in this process, which makes it their
        // subreaper: xqdiff's orphans then come here, and are reaped here.
        let raw = Pid::from_raw(i32::try_from(pid).expect("a pid"));
        let _ = nix::sys::wait::waitpid(raw, Some(nix::sys::wait::WaitPidFlag::WNOHANG));
        thread::sleep(Duration::from_millis(20));
    }
    gone(pid)
}

/// Issue 26, case 4 with SIGKILL: a helper the engine's wrapper starts in a session of
/// its own (`setsid`) is ended although xqdiff, killed, can end nothing: the guard the
/// engine runs under sees xqdiff go and ends everything it inherited. Before, the
/// engine died (its parent-death signal) and the helper ran on under PID 1.
#[test]
fn a_helper_in_its_own_session_dies_with_a_killed_xqdiff() {
    let case = "setsid helper, xqdiff killed";
    let scratch = Scratch::new(case);
    // Hangs once asked its first perft, so it is alive when xqdiff is killed.
    let script = setsid_wrapper(&scratch, "--hang-after 3");
    let mut child = Command::new(XQDIFF)
        .args(["engine", "--cmd", &script, "--seed", "7", "--no-save"])
        .args(["--timeout", "60", "--suite", "none", "--positions", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run xqdiff");
    scratch.wait_logged("engine", "fault hang");
    let engine = scratch.pid("engine").expect("the engine wrote its pid");
    let helper = scratch.pid("helper").expect("the helper wrote its pid");
    let xqdiff = Pid::from_raw(i32::try_from(child.id()).expect("a pid"));
    kill(xqdiff, Signal::SIGKILL).expect("SIGKILL xqdiff");
    let _ = child.wait();
    assert!(goes_soon(engine), "{case}: engine {engine} outlived xqdiff");
    assert!(goes_soon(helper), "{case}: helper {helper} outlived xqdiff");
    scratch.assert_clean(case);
}

/// Issue 26, case 11: `xqdiff engine` deep in the built-ins' count (depth 8 from the
/// start position: hours of counting; signalled once it has spent half a second of
/// CPU on it) ends at once on SIGTERM, exit 143, with the engine gone. Before, the
/// count ran on, the signal unheard.
#[test]
fn a_signal_ends_xqdiff_engine_while_the_built_ins_count() {
    let case = "signal while the built-ins count";
    let scratch = Scratch::new(case);
    let cmd = scratch.engine("engine", "");
    let mut child = Command::new(XQDIFF)
        .args(["engine", "--cmd", &cmd, "--depth", "8", "--positions", "1"])
        .args(["--suite", "none", "--no-save", "--timeout", "600"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run xqdiff");
    scratch.wait_logged("engine", "> go perft 8");
    // Nothing but the count takes xqdiff's CPU once the engine is asked.
    let spent = cpu_time(child.id());
    wait_until(&format!("{case}: xqdiff counting"), || {
        cpu_time(child.id()) >= spent + Duration::from_millis(500)
    });
    let xqdiff = Pid::from_raw(i32::try_from(child.id()).expect("a pid"));
    kill(xqdiff, Signal::SIGTERM).expect("signal xqdiff");
    let sent = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if sent.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{case}: still running {PATIENCE:?} after SIGTERM");
        }
        thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(143), "{case}");
    scratch.assert_clean(case);
}

/// Issue 26, case 12: a moves-protocol adapter that prints one line nobody asked for
/// puts every later answer one request late. xqdiff sees the conversation out of step
/// (a line waiting before a request, or a list of the other side's moves) and says it
/// is the adapter's protocol error: exit 2, nothing saved in the corpus, never a
/// "generator bug".
#[test]
fn a_moves_adapter_out_of_step_is_a_protocol_error() {
    let cases = [2, 3, 7, 40].map(|line| (format!("line {line} twice"), line));
    each(cases, |case, line| {
        let scratch = Scratch::new(case);
        // The test engine as a moves adapter, its `line`th output line printed twice.
        let body = format!(
            "{} --protocol moves | sed -u '{line}p'",
            scratch.engine("engine", "")
        );
        let script = scratch.script("adapter.sh", &body);
        let corpus = scratch.path("corpus");
        std::fs::create_dir_all(&corpus).expect("corpus folder");
        let out = Command::new(XQDIFF)
            .args(["engine", "--cmd", &script, "--protocol", "moves"])
            .args([
                "--depth",
                "3",
                "--positions",
                "2",
                "--suite",
                "none",
                "--seed",
                "5",
            ])
            .args(["--timeout", "10", "--corpus", &corpus])
            .output()
            .expect("run xqdiff");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{case}: {stdout}{stderr}");
        assert!(
            format!("{stdout}{stderr}").contains("out of step"),
            "{case}: {stdout}{stderr}"
        );
        let saved: Vec<_> = std::fs::read_dir(&corpus).expect("corpus").collect();
        assert!(saved.is_empty(), "{case}: saved {saved:?}");
        scratch.assert_clean(case);
    });
}

/// Issue 26, case 3: two stop signals back to back still end the engine and write the
/// report before xqdiff exits, as the first signal's status.
#[test]
fn two_signals_still_end_the_engine_and_write_the_report() {
    let case = "two signals during check --engine";
    let scratch = Scratch::new(case);
    let cmd = scratch.engine("engine", "--hang-after 3");
    let report = scratch.path("report");
    let mut child = Command::new(XQDIFF)
        .args([
            "check",
            "--quick",
            "--no-save",
            "--seconds",
            "1",
            // A timed phase costs its time on every thread.
            "--threads",
            "1",
            "--seed",
            "3",
        ])
        .args([
            "--engine",
            &cmd,
            "--engine-timeout",
            "60",
            "--report-dir",
            &report,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run xqdiff");
    scratch.wait_logged("engine", "fault hang");
    let xqdiff = Pid::from_raw(i32::try_from(child.id()).expect("a pid"));
    kill(xqdiff, Signal::SIGTERM).expect("signal xqdiff");
    thread::sleep(Duration::from_millis(20));
    kill(xqdiff, Signal::SIGINT).expect("signal xqdiff");
    let sent = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if sent.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{case}: still running {PATIENCE:?} after two signals");
        }
        thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(143), "{case}");
    let json = std::fs::read_to_string(format!("{report}/report.json")).expect("a report");
    assert!(json.contains("\"interrupted\""), "{case}: {json}");
    scratch.assert_clean(case);
}
