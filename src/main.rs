//! The `xqdiff` binary; all of it is in [`xqdiff::cli`].

fn main() -> std::process::ExitCode {
    xqdiff::cli::main()
}
