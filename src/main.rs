//! The `xqdiff` binary; all of it is in the library's `cli` module, where it can be tested.
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    xqdiff::command_line()
}
