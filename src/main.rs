//! The `xqdiff` binary; all of it is in [`xqdiff::cli`].
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    xqdiff::cli::main()
}
